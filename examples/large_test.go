package examples_test

import (
	"reflect"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/scenario"
)

// The page's large examples are the clusters the benchmarks measure, with
// a description: the same objects, nodes, images and seed as Scale(10000)
// and Cluster(100, 1500), and Get finds them.
func TestLargeExamplesAreTheBenchmarkedClusters(t *testing.T) {
	sizes := map[string][2]int{"large-10k-pods": {10000, 101}, "large-150k-pods": {150000, 5000}}
	bench := map[string]string{"large-10k-pods": examples.Scale(10000), "large-150k-pods": examples.Cluster(100, 1500)}
	for _, ex := range examples.Large() {
		want, ok := bench[ex.Name]
		if !ok {
			t.Fatalf("%s is no benchmarked cluster", ex.Name)
		}
		got, err := scenario.Parse([]byte(ex.Source))
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		sc, err := scenario.Parse([]byte(want))
		if err != nil {
			t.Fatal(err)
		}
		if got.Description == "" || len(got.Warnings) > 0 {
			t.Errorf("%s: description %q, warnings %v", ex.Name, got.Description, got.Warnings)
		}
		if !reflect.DeepEqual(got.Objects, sc.Objects) || !reflect.DeepEqual(withoutActions(got.Config), withoutActions(sc.Config)) || !sameActions(got.Config.Actions, sc.Config.Actions) {
			t.Errorf("%s differs from the benchmark's cluster", ex.Name)
		}
		pods := 0
		for _, o := range got.Objects {
			pods += int(*o.(*api.Deployment).Spec.Replicas)
		}
		if e, ok := examples.Get(ex.Name); !ok || e.Source != ex.Source {
			t.Errorf("Get(%q) does not find it", ex.Name)
		}
		if size := [2]int{pods, len(got.Config.Nodes)}; size != sizes[ex.Name] {
			t.Errorf("%s: %d pods on %d nodes, want %v", ex.Name, pods, len(got.Config.Nodes), sizes[ex.Name])
		}
	}
}

// withoutActions is c without its actions, which hold functions.
func withoutActions(c engine.Config) engine.Config {
	c.Actions = nil
	return c
}

// sameActions compares actions by when, who and what (not their
// functions).
func sameActions(a, b []engine.Action) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].At != b[i].At || a[i].Component != b[i].Component || a[i].Object != b[i].Object {
			return false
		}
	}
	return true
}
