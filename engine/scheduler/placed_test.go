package scheduler

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

// A pod is placed on the node the scheduler accounts it on: the node it
// bound the pod to until it sees the binding, then the pod's own; a pod
// that finished or went is placed nowhere, and is taken off its node once.
func TestPlacedOnFollowsTheAccounting(t *testing.T) {
	s := New()
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default"}, Spec: &api.PodSpec{}}
	k := api.KeyOf(p)
	if _, ok := s.placedOn(k, p); ok {
		t.Fatal("an unscheduled pod is placed")
	}
	s.assumed[k] = "node-1" // bound by the scheduler, not yet seen bound
	s.nodeInfo("node-1").add(p, usageOf(p), 1)
	if info, ok := s.placedOn(k, p); !ok || info != s.info["node-1"] {
		t.Fatal("an assumed pod is not placed on its node")
	}
	bound := *p
	bound.Spec = &api.PodSpec{NodeName: "node-1"}
	s.observePod(apiserver.WatchEvent{Type: apiserver.Modified, Object: &bound, Old: p}, &bound, nil)
	if _, ok := s.assumed[k]; ok {
		t.Error("the binding seen, the pod is still assumed")
	}
	if info, ok := s.placedOn(k, &bound); !ok || info.pods != 1 {
		t.Fatalf("the bound pod: placed %v, %d pods on node-1", ok, s.info["node-1"].pods)
	}
	done := bound
	done.Status.Phase = api.PodSucceeded
	for range 2 { // a finished pod, then its deletion: taken off once
		s.observePod(apiserver.WatchEvent{Type: apiserver.Modified, Object: &done, Old: &bound}, &done, nil)
	}
	s.observePod(apiserver.WatchEvent{Type: apiserver.Deleted, Object: &done}, &done, nil)
	if _, ok := s.placedOn(k, &done); ok || s.info["node-1"].pods != 0 {
		t.Errorf("a finished pod: placed %v, %d pods on node-1", ok, s.info["node-1"].pods)
	}
}
