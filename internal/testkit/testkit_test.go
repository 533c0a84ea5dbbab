package testkit_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

const ns = "codartium-team"

func settled(t *testing.T) *engine.Engine {
	t.Helper()
	e, _ := testkit.LoadFile(t, "../../examples/codartium-api.yaml")
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	return e
}

// act writes to the API server as a kubectl tick.
func act(t *testing.T, e *engine.Engine, key api.Key, write func(tick reconcile.Tick) error) {
	t.Helper()
	if tk := e.Act(engine.KubectlActor, key, write); tk.Err() != "" {
		t.Fatal(tk.Err())
	}
}

// edit updates a pod.
func edit(t *testing.T, e *engine.Engine, p *api.Pod, change func(*api.Pod)) {
	t.Helper()
	act(t, e, api.Key{Kind: api.KindPod, Namespace: p.Namespace, Name: p.Name}, func(tick reconcile.Tick) error {
		p := p.DeepCopyObject().(*api.Pod)
		change(p)
		_, err := tick.Update(trace.Translate, p, "test edit")
		return err
	})
}

// The checks pass on a sound cluster and name what is wrong in a broken
// one, so a test using them cannot pass vacuously.
func TestSound(t *testing.T) {
	e := settled(t)
	if err := testkit.Sound(e, ns); err != nil {
		t.Fatalf("a settled cluster: %v", err)
	}
	ps := testkit.Pods(e, ns)
	if len(ps) != 3 {
		t.Fatalf("%d pods", len(ps))
	}
	node := api.Key{Kind: api.KindNode, Name: ps[0].Spec.NodeName}
	act(t, e, node, func(tick reconcile.Tick) error {
		return tick.Delete(trace.Translate, node, apiserver.DeleteOptions{}, "test delete")
	})
	if err := testkit.BoundNodesExist(e, ns); err == nil || !strings.Contains(err.Error(), "is bound to missing node "+node.Name) {
		t.Errorf("BoundNodesExist: %v", err)
	}
	edit(t, e, ps[1], func(p *api.Pod) { p.OwnerReferences = append(p.OwnerReferences, p.OwnerReferences[0]) })
	if err := testkit.OneController(e, ns); err == nil || !strings.Contains(err.Error(), "has 2 controllers") {
		t.Errorf("OneController: %v", err)
	}
	edit(t, e, ps[2], func(p *api.Pod) { p.OwnerReferences[0].Name = "gone" })
	if err := testkit.LiveOwnersExist(e, ns); err == nil || !strings.Contains(err.Error(), "is owned by missing ReplicaSet gone") {
		t.Errorf("LiveOwnersExist: %v", err)
	}
}

// RolloutBounds holds at the ReplicaSets' numbers and fails, naming the
// tick, just inside them.
func TestRolloutBounds(t *testing.T) {
	e := settled(t)
	if err := testkit.RolloutBounds(e, ns, 3, 3); err != nil {
		t.Fatal(err)
	}
	if err := testkit.RolloutBounds(e, ns, 2, 0); err == nil || !strings.HasSuffix(err.Error(), ": ReplicaSets ask for 3 pods, more than replicas+maxSurge = 2") {
		t.Errorf("maxPods 2: %v", err)
	}
	if err := testkit.RolloutBounds(e, ns, 3, 4); err == nil || !strings.HasSuffix(err.Error(), ": 3 available, fewer than minAvailable = 4") {
		t.Errorf("minAvailable 4: %v", err)
	}
}

// FirstTime finds the first matching After object, in tick order.
func TestFirstTime(t *testing.T) {
	e := settled(t)
	ready := testkit.FirstTime(e.Trace(), api.IsPodReady)
	available := testkit.FirstTime(e.Trace(), func(d *api.Deployment) bool { return d.Status.AvailableReplicas > 0 })
	if ready <= 0 || available <= ready {
		t.Errorf("first pod ready at %d, Deployment available at %d", ready, available)
	}
	if never := testkit.FirstTime(e.Trace(), func(*api.Node) bool { return false }); never != -1 {
		t.Errorf("no match: %d, want -1", never)
	}
}
