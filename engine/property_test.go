package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples/random"
)

// Random rolling updates: at every tick the ReplicaSets never ask for more
// than replicas + maxSurge pods; once the rollout starts from a fully
// available Deployment, available pods never drop below replicas -
// maxUnavailable; the structure stays sound (resourceVersions strictly
// increase, every bound pod's node exists, no pod has two controllers);
// and a rollout without a persistent fault converges.
func TestRandomRollouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 11))
	for i := 0; i < 40; i++ {
		r := random.NewRollout(rng)
		t.Run(fmt.Sprintf("%d/replicas=%d,surge=%s,unavailable=%s,failing=%v", i, r.Replicas, r.Surge, r.Unavailable, r.Failing), func(t *testing.T) {
			e, _ := loadBytes(t, r.Scenario())
			e.RunUntil(110_000)
			if d := deployment(t, e, "default", "web"); d.Status.AvailableReplicas != int32(r.Replicas) {
				t.Fatalf("not fully available before the update: %+v", d.Status)
			}
			lastRV := e.Store().ResourceVersion()
			for e.Now() < 20*60_000 {
				tk := e.Step()
				if tk == nil {
					break
				}
				rv := e.Store().ResourceVersion()
				if len(tk.Effects) > 0 && rv <= lastRV {
					t.Fatalf("tick %d wrote but the resourceVersion did not increase (%d → %d)", tk.Seq, lastRV, rv)
				}
				lastRV = rv
				checkTick(t, e, r)
			}
			if r.Failing {
				return
			}
			if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				t.Fatal(err)
			}
			d := deployment(t, e, "default", "web")
			if d.Status.UpdatedReplicas != int32(r.Replicas) || d.Status.AvailableReplicas != int32(r.Replicas) || d.Status.Replicas != int32(r.Replicas) {
				t.Fatalf("did not converge: %+v", d.Status)
			}
		})
	}
}

func checkTick(t *testing.T, e *engine.Engine, r random.Rollout) {
	t.Helper()
	var total, available int32
	for _, rs := range replicaSets(e, "default") {
		total += rs.Replicas()
		available += rs.Status.AvailableReplicas
	}
	if total > r.MaxPods {
		t.Fatalf("tick %d: ReplicaSets ask for %d pods, more than %d", e.Tick(), total, r.MaxPods)
	}
	if available < r.MinAvailable {
		t.Fatalf("tick %d: %d available, fewer than %d", e.Tick(), available, r.MinAvailable)
	}
	for _, p := range pods(e, "default") {
		if p.Spec.NodeName != "" {
			if _, ok := e.Store().Get(api.Key{Kind: api.KindNode, Name: p.Spec.NodeName}); !ok {
				t.Fatalf("pod %s is bound to missing node %s", p.Name, p.Spec.NodeName)
			}
		}
		controllers := 0
		for _, ref := range p.OwnerReferences {
			if ref.Controller != nil && *ref.Controller {
				controllers++
			}
		}
		if controllers > 1 {
			t.Fatalf("pod %s has %d controllers", p.Name, controllers)
		}
	}
}
