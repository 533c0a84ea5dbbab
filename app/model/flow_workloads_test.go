package model

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
)

// load runs an example to settled in a model.
func load(t *testing.T, name string) *Model {
	t.Helper()
	ex, ok := examples.Get(name)
	if !ok {
		t.Fatalf("no example %s", name)
	}
	m, err := New(ex.Source)
	if err != nil {
		t.Fatal(err)
	}
	m.RunUntilSettled()
	return m
}

// A DaemonSet is drawn over its pods, one per node, with its counts; its
// pods are not orphans and sit under it.
func TestFlowDrawsDaemonSetOverItsPods(t *testing.T) {
	f := load(t, "daemonset").Flow(wide)
	ds := box(f, api.KindDaemonSet, "fluentd")
	if ds.Kind == "" || !strings.HasPrefix(ds.Lines[0], "desired 4 · current 4 · ready 4") {
		t.Fatalf("ds box %+v", ds)
	}
	pods := 0
	for _, b := range f.Boxes {
		if b.Kind != api.KindPod {
			continue
		}
		pods++
		if b.Y <= ds.Y+ds.H || b.X+b.W < ds.X-b.W || b.X > ds.X+ds.W+b.W {
			t.Errorf("pod %s at (%d,%d) is not under ds/fluentd at (%d,%d)", b.Name, b.X, b.Y, ds.X, ds.Y)
		}
	}
	if pods != 4 {
		t.Errorf("%d pods drawn, want 4 (node-1, node-2, cp-1 once tolerated, node-4 once joined; not the NoExecute-tainted node-3)", pods)
	}
	owns := 0
	for _, e := range f.Edges {
		if e.From == "DaemonSet/default/fluentd" && e.Kind == "owns" {
			owns++
		}
	}
	if owns != 4 {
		t.Errorf("%d owns edges from the DaemonSet, want 4", owns)
	}
}

// A StatefulSet's pods are drawn under it in ordinal order, and its box
// shows the revisions apart while a rollout is stuck.
func TestFlowDrawsStatefulSetInOrdinalOrder(t *testing.T) {
	ex, _ := examples.Get("statefulset")
	m, err := New(ex.Source)
	if err != nil {
		t.Fatal(err)
	}
	for m.Status().TimeMS < 70_000 {
		m.Step()
	}
	f := m.Flow(wide)
	set := box(f, api.KindStatefulSet, "web")
	if !strings.Contains(set.Lines[1], "→") || set.Status != "progress" {
		t.Errorf("at 70s the rollout is stuck at web-2: box %v (%s), want two revisions and progress", set.Lines, set.Status)
	}
	var xs []int
	for _, name := range []string{"web-0", "web-1", "web-2"} {
		b := box(f, api.KindPod, name)
		if b.Kind == "" {
			t.Fatalf("no box for %s", name)
		}
		xs = append(xs, b.X)
	}
	if !(xs[0] < xs[1] && xs[1] < xs[2]) {
		t.Errorf("pods at x %v, want web-0, web-1, web-2 left to right", xs)
	}
}

// wide is a viewport with room for every object of the examples at full
// detail: the content tests read what the boxes say.
var wide = Viewport{W: 2400, H: 1400}
