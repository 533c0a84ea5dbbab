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
	f := load(t, "daemonset").Flow()
	ds := box(f, api.KindDaemonSet, "fluentd")
	if ds.Kind == "" || !strings.HasPrefix(ds.Lines[0], "desired 2 · current 2 · ready 2") {
		t.Fatalf("ds box %+v", ds)
	}
	pods := 0
	for _, b := range f.Boxes {
		if b.Kind != api.KindPod {
			continue
		}
		pods++
		if b.Y <= ds.Y || b.X+b.W < ds.X-podW || b.X > ds.X+ds.W+podW {
			t.Errorf("pod %s at (%d,%d) is not under ds/fluentd at (%d,%d)", b.Name, b.X, b.Y, ds.X, ds.Y)
		}
	}
	if pods != 2 {
		t.Errorf("%d pods drawn, want the 2 left after the taint", pods)
	}
	owns := 0
	for _, e := range f.Edges {
		if e.From == "DaemonSet/default/fluentd" && e.Kind == "owns" {
			owns++
		}
	}
	if owns != 2 {
		t.Errorf("%d owns edges from the DaemonSet, want 2", owns)
	}
}
