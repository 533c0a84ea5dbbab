package apiserver

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// TestVersionHoldsPods checks that the tree a Version holds itself is the
// pods', that it holds no Events (the store keeps them), and that writing
// another kind leaves the Versions before it as they were.
func TestVersionHoldsPods(t *testing.T) {
	if i, _ := kindIndex(api.KindPod); i != podTree {
		t.Fatalf("pods are kind %d, the Version holds kind %d", i, podTree)
	}
	if i, _ := kindIndex(api.KindEvent); i != eventTree {
		t.Fatalf("Events are kind %d, the Version holds kind %d", i, eventTree)
	}
	v0 := EmptyVersion()
	v1 := v0.with(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}, nil, 1)
	v2 := v1.with(&api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: "p"}, Spec: &api.PodSpec{}}, nil, 2)
	v3 := v2.with(&api.Node{ObjectMeta: api.ObjectMeta{Name: "n2"}}, nil, 3)
	for _, c := range []struct {
		v           *Version
		nodes, pods int
	}{{v0, 0, 0}, {v1, 1, 0}, {v2, 1, 1}, {v3, 2, 1}} {
		if got := c.v.Count(api.KindNode); got != c.nodes {
			t.Errorf("version %d holds %d nodes, want %d", c.v.rv, got, c.nodes)
		}
		if got := c.v.Count(api.KindPod); got != c.pods {
			t.Errorf("version %d holds %d pods, want %d", c.v.rv, got, c.pods)
		}
	}
	if v1.other != v2.other {
		t.Errorf("a pod write copied the other kinds' trees")
	}
	s := New(1)
	if _, err := s.Create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}); err != nil {
		t.Fatal(err)
	}
	before := s.Current()
	if _, err := s.Create(&api.Event{ObjectMeta: api.ObjectMeta{Name: "e", Namespace: "default"}}); err != nil {
		t.Fatal(err)
	}
	if s.Current() != before || s.Current().Count(api.KindEvent) != 0 || s.Count(api.KindEvent) != 1 {
		t.Errorf("an Event write made a Version (%v) or went into one (%d); the store counts %d", s.Current() != before, s.Current().Count(api.KindEvent), s.Count(api.KindEvent))
	}
}

// Resource names a kind as the API server's messages do: its plural and
// its group, read from the API's registry of kinds.
func TestResourceNames(t *testing.T) {
	for kind, want := range map[string]string{
		api.KindDeployment:              "deployments.apps",
		api.KindEndpointSlice:           "endpointslices.discovery.k8s.io",
		api.KindEndpoints:               "endpoints",
		api.KindPod:                     "pods",
		api.KindPodMetrics:              "pods.metrics.k8s.io",
		api.KindHorizontalPodAutoscaler: "horizontalpodautoscalers.autoscaling",
		api.KindPodDisruptionBudget:     "poddisruptionbudgets.policy",
		api.KindCronJob:                 "cronjobs.batch",
		api.KindNamespace:               "namespaces",
	} {
		if got := Resource(kind); got != want {
			t.Errorf("Resource(%s) = %q, want %q", kind, got, want)
		}
	}
}
