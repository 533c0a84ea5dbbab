package model

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// A disruption budget sits at the top row beside the Deployment it
// guards, with its budget, healthy count and what it allows; the
// disruption controller's status writes go up into it from the pods, a
// drain's eviction takes its disruption (kubectl's arrow into it), and a
// refused eviction marks it.
func TestFlowDrawsPDB(t *testing.T) {
	ex := load(t, "pdb-drain")
	tr := ex.Engine().Trace() // seeking back shortens the engine's trace
	seekTime(t, ex, 29_000)
	f := ex.Flow(wide)
	p := box(f, api.KindPodDisruptionBudget, "web-pdb")
	d := box(f, api.KindDeployment, "web")
	if p.Kind == "" || p.Y != d.Y || d.Kind == "" || p.X <= d.X+d.W {
		t.Fatalf("pdb %+v, deploy %+v", p, d)
	}
	if p.Lines[0] != "minAvailable 2 · 3 healthy, needs 2" || p.Lines[1] != "allows 1 disruption" || p.Status != "ok" {
		t.Errorf("before the drain: lines %q, status %s", p.Lines, p.Status)
	}
	guards := false
	for _, e := range f.Edges {
		guards = guards || e.From == "PodDisruptionBudget/default/web-pdb" && e.To == "Deployment/default/web" && e.Kind == "guards"
	}
	if !guards {
		t.Error("no guards edge from the PDB to its Deployment")
	}
	var refusedAt []int64
	var upFromPods, evictionInto bool
	for _, tk := range tr {
		if tk.Time < 29_000 || tk.Time > 47_000 {
			continue
		}
		ex.Seek(tk.Seq)
		f := ex.Flow(wide)
		p := box(f, api.KindPodDisruptionBudget, "web-pdb")
		if p.Refused {
			refusedAt = append(refusedAt, tk.Time)
		}
		for _, a := range f.Arrows {
			upFromPods = upFromPods || tk.Component == "disruption-controller" && a.Class == trace.Aggregate && a.Y1 > p.Y+p.H && a.Y2 == p.Y+p.H && a.X1 == p.X+p.W/2
			evictionInto = evictionInto || tk.Component == "kubectl" && a.Class == trace.Translate && a.X2 == p.X+p.W/2 && a.Y2 == p.Y
		}
		if tk.Component == "kubectl" && tk.Time == 30_000 && (p.Lines[1] != "allows 0: evictions wait" || p.Status != "warn") {
			t.Errorf("after the first eviction: %q, %s", p.Lines, p.Status)
		}
	}
	if len(refusedAt) != 3 || refusedAt[0] != 30_000 || refusedAt[2] != 40_000 {
		t.Errorf("refused at %v, want 30s, 35s, 40s", refusedAt)
	}
	if !upFromPods || !evictionInto {
		t.Errorf("status arrow up from the pods %v, eviction arrow into the PDB %v", upFromPods, evictionInto)
	}
}

// A budget that needs every pod it expects is drawn as a failure: it
// can never allow a disruption.
func TestFlowPDBThatNeverAllows(t *testing.T) {
	ex := load(t, "pdb-blocks-forever")
	seekTime(t, ex, 60_000)
	p := box(ex.Flow(wide), api.KindPodDisruptionBudget, "web-pdb")
	if p == nil || p.Lines[1] != "allows 0, ever: none to spare" || p.Status != "bad" {
		t.Fatalf("pdb %+v", p)
	}
	if !strings.Contains(p.Lines[0], "2 healthy, needs 2") {
		t.Errorf("lines %q", p.Lines)
	}
}
