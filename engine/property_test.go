package engine_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples/random"
	"github.com/stateflow/stateflow/internal/testkit"
)

// Random rolling updates: at every tick the ReplicaSets never ask for more
// than replicas + maxSurge pods; once the rollout starts from a fully
// available Deployment, available pods never drop below replicas -
// maxUnavailable; the structure stays sound (resourceVersions strictly
// increase, every bound pod's node exists, no pod has two controllers);
// the surge bound is reached, not merely kept: between the writes of the
// rollout's first sync, the API server holds the old ReplicaSet at
// replicas and the new one created with all of maxSurge (at most
// replicas), before any old pod is scaled down; and
// a rollout without a persistent fault converges. The bounds come from
// the documented rounding (random.Rollout), not from the controller.
func TestRandomRollouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 11))
	for i := 0; i < 40; i++ {
		r := random.NewRollout(rng)
		t.Run(fmt.Sprintf("%d/replicas=%d,surge=%s,unavailable=%s,failing=%v", i, r.Replicas, r.Surge, r.Unavailable, r.Failing), func(t *testing.T) {
			e, _ := testkit.Load(t, r.Scenario())
			e.RunUntil(110_000)
			if d := testkit.Deployment(t, e, "default", "web"); d.Status.AvailableReplicas != int32(r.Replicas) {
				t.Fatalf("not fully available before the update: %+v", d.Status)
			}
			lastRV, total, peak := e.Store().ResourceVersion(), specTotal(e), int32(0)
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
				for _, eff := range tk.Effects { // each write, as the API server held it
					total += replicas(eff.After) - replicas(eff.Before)
					peak = max(peak, total)
				}
			}
			if want := min(r.MaxPods, 2*int32(r.Replicas)); peak != want {
				t.Fatalf("the ReplicaSets asked for at most %d pods during the rollout, want replicas + min(maxSurge, replicas) = %d", peak, want)
			}
			if r.Failing {
				return
			}
			if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				t.Fatal(err)
			}
			d := testkit.Deployment(t, e, "default", "web")
			if d.Status.UpdatedReplicas != int32(r.Replicas) || d.Status.AvailableReplicas != int32(r.Replicas) || d.Status.Replicas != int32(r.Replicas) {
				t.Fatalf("did not converge: %+v", d.Status)
			}
		})
	}
}

// specTotal is the pods the ReplicaSets ask for.
func specTotal(e *engine.Engine) int32 {
	var n int32
	for _, rs := range testkit.ReplicaSets(e, "default") {
		n += rs.Replicas()
	}
	return n
}

// replicas is a ReplicaSet's spec.replicas, 0 for anything else or nil.
func replicas(o api.Object) int32 {
	if rs, ok := o.(*api.ReplicaSet); ok {
		return rs.Replicas()
	}
	return 0
}

// checkTick checks the rollout's bounds and that the structure is sound
// at the current tick.
func checkTick(t *testing.T, e *engine.Engine, r random.Rollout) {
	t.Helper()
	for _, err := range []error{
		testkit.RolloutBounds(e, "default", r.MaxPods, r.MinAvailable),
		testkit.BoundNodesExist(e, "default"),
		testkit.OneController(e, "default"),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}
