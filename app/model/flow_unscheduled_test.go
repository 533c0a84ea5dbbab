package model

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// A pod the scheduler could not place says so in its box ("fits no
// node"), and its accessible name and tooltip carry the scheduler's
// reasons; once placed, its box shows its readiness again.
func TestPodBoxSaysWhyItHasNoNode(t *testing.T) {
	ex := load(t, "topology-spread")
	at := func(ms int64) int { // seeking back shortens the engine's trace: read it first
		n := 0
		for _, tk := range ex.Engine().Trace() {
			if tk.Time <= ms {
				n = tk.Seq
			}
		}
		return n
	}
	at25, at45 := at(25_000), at(45_000)
	ex.Seek(at25)
	f := ex.Flow(wide)
	var pending *Box
	for i := range f.Boxes {
		if b := &f.Boxes[i]; b.Kind == api.KindPod && len(b.Lines) == 2 && b.Lines[0] == "Pending" {
			pending = b
		}
	}
	if pending == nil {
		t.Fatal("no Pending pod drawn at 25s")
	}
	if pending.Lines[1] != "fits no node" || !strings.Contains(pending.Detail, "fits no node: 0/6 nodes are available: 2 node(s) were unschedulable, 4 node(s) didn't match pod topology spread constraints.") {
		t.Errorf("the Pending pod: lines %q, detail %q", pending.Lines, pending.Detail)
	}
	ex.Seek(at45)
	found := false
	for _, b := range ex.Flow(wide).Boxes {
		if b.Kind == api.KindPod && b.Name == pending.Name {
			found = true
			if len(b.Lines) < 2 || !strings.HasPrefix(b.Lines[1], "ready ") || strings.Contains(b.Detail, "nodes are available") {
				t.Errorf("placed, the pod says %q, %q", b.Lines, b.Detail)
			}
		}
	}
	if !found {
		t.Errorf("pod %s not drawn at 45s", pending.Name)
	}
}
