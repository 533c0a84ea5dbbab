package engine_test

import (
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples/random"
	"github.com/stateflow/stateflow/internal/testkit"
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
		e, _ := testkit.Load(t, src)
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
			if err := testkit.Sound(e, "default"); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatalf("after the faults stopped: %v\n%s", err, src)
		}
		checkConverged(t, e, int32(replicas), src)
	})
}

// checkConverged checks that the Deployment reports replicas in every
// count, and that each ReplicaSet's spec and status match its live pods.
func checkConverged(t *testing.T, e *engine.Engine, replicas int32, src []byte) {
	t.Helper()
	d := testkit.Deployment(t, e, "default", "web")
	if d.Status.Replicas != replicas || d.Status.UpdatedReplicas != replicas || d.Status.AvailableReplicas != replicas || d.Status.ReadyReplicas != replicas {
		t.Fatalf("did not converge to %d replicas: %+v\n%s", replicas, d.Status, src)
	}
	var sum int32
	for _, rs := range testkit.ReplicaSets(e, "default") {
		owned := int32(0)
		for _, p := range testkit.Pods(e, "default") {
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
