package engine_test

import (
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples/random"
)

// FuzzFaults runs random rollouts under random faults and checks at every
// tick that the cluster stays sound (resourceVersions strictly increase
// with writes, no pod is bound to a missing node, no pod has two
// controllers, every live pod's controller exists), and that once the
// faults stop the Deployment converges with status consistent with the
// objects below it.
func FuzzFaults(f *testing.F) {
	for _, seed := range []uint64{1, 2, 3, 5, 8, 13, 21, 34, 55, 89} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		src, replicas := random.Faulty(seed)
		e, _ := loadBytes(t, src)
		lastRV := e.Store().ResourceVersion()
		for e.Now() < 10*60_000 {
			tk := e.Step()
			if tk == nil {
				break
			}
			if rv := e.Store().ResourceVersion(); len(tk.Effects) > 0 && rv <= lastRV {
				t.Fatalf("tick %d wrote but the resourceVersion did not increase", tk.Seq)
			} else {
				lastRV = rv
			}
			checkSound(t, e)
		}
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatalf("after the faults stopped: %v\n%s", err, src)
		}
		checkConverged(t, e, int32(replicas), src)
	})
}

func checkSound(t *testing.T, e *engine.Engine) {
	t.Helper()
	for _, p := range pods(e, "default") {
		if p.Spec.NodeName != "" {
			if _, ok := e.Store().Get(api.Key{Kind: api.KindNode, Name: p.Spec.NodeName}); !ok {
				t.Fatalf("tick %d: pod %s is bound to missing node %s", e.Tick(), p.Name, p.Spec.NodeName)
			}
		}
		var owners []api.OwnerReference
		for _, ref := range p.OwnerReferences {
			if ref.Controller != nil && *ref.Controller {
				owners = append(owners, ref)
			}
		}
		if len(owners) > 1 {
			t.Fatalf("tick %d: pod %s has %d controllers", e.Tick(), p.Name, len(owners))
		}
		if len(owners) == 1 && p.DeletionTimestamp == nil {
			if _, ok := e.Store().Get(api.Key{Kind: api.KindReplicaSet, Namespace: p.Namespace, Name: owners[0].Name}); !ok {
				t.Fatalf("tick %d: live pod %s is owned by missing ReplicaSet %s", e.Tick(), p.Name, owners[0].Name)
			}
		}
	}
}

func checkConverged(t *testing.T, e *engine.Engine, replicas int32, src []byte) {
	t.Helper()
	d := deployment(t, e, "default", "web")
	if d.Status.Replicas != replicas || d.Status.UpdatedReplicas != replicas || d.Status.AvailableReplicas != replicas || d.Status.ReadyReplicas != replicas {
		t.Fatalf("did not converge to %d replicas: %+v\n%s", replicas, d.Status, src)
	}
	var sum int32
	for _, rs := range replicaSets(e, "default") {
		owned := int32(0)
		for _, p := range pods(e, "default") {
			if ref := p.ControllerRef(); ref != nil && ref.UID == rs.UID && p.DeletionTimestamp == nil {
				owned++
			}
		}
		if rs.Status.Replicas != owned || rs.Replicas() != owned {
			t.Fatalf("rs/%s: spec %d, status %d, but %d pods", rs.Name, rs.Replicas(), rs.Status.Replicas, owned)
		}
		sum += rs.Status.Replicas
	}
	if sum != d.Status.Replicas {
		t.Fatalf("the ReplicaSets hold %d pods, the Deployment reports %d", sum, d.Status.Replicas)
	}
}
