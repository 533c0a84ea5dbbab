package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

// randomHPA is a Deployment under an HPA with random bounds, target,
// behavior and a random step load.
func randomHPA(rng *rand.Rand) (src string, minR, maxR int32, window int64) {
	minR = 1 + rng.Int32N(3)
	maxR = minR + 1 + rng.Int32N(12)
	behavior, window := "", int64(300_000)
	if rng.IntN(2) == 0 {
		w := 30 * rng.Int64N(8)
		behavior = fmt.Sprintf("  behavior:\n    scaleDown: {stabilizationWindowSeconds: %d}\n", w)
		window = w * 1000
	}
	var steps []string
	for at := 0; at < 12; at += 1 + rng.IntN(4) {
		steps = append(steps, fmt.Sprintf("{at: %dm, total: %dm}", at, 100+rng.IntN(6000)))
	}
	src = hpaSetup{Replicas: 1 + rng.IntN(14), Min: int(minR), Max: int(maxR), Target: 30 + rng.IntN(60), Behavior: behavior,
		Load:     "[" + strings.Join(steps, ", ") + "]",
		Scenario: fmt.Sprintf("  seed: %d\n  nodes: {count: 6}\n  images:\n    \"web:1\": {pull: %dms, start: 500ms, ready: %dms}\n", rng.Uint64()%1000, rng.IntN(3000), rng.IntN(5000)),
	}.source()
	return src, minR, maxR, window
}

// Random HPAs over 15 minutes: every count the autoscaler writes is
// within [minReplicas, maxReplicas], and it never scales down below a
// count it scaled up to less than its downscale stabilisation window
// earlier (that scale-up's recommendation is still in the window). The
// oracle is the trace's writes of the Deployment's spec.replicas.
func TestHPAProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 5))
	total := 0
	defer func() {
		if total < 16 {
			t.Errorf("only %d rescales in 16 scenarios: the property is barely exercised", total)
		}
	}()
	for i := 0; i < 16; i++ {
		src, minR, maxR, window := randomHPA(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			e, _ := testkit.Load(t, []byte(src))
			e.RunUntil(15 * 60_000)
			type scale struct {
				to int32
				at int64
			}
			var ups []scale
			writes := 0
			for _, tk := range e.Trace() {
				for _, eff := range tk.Effects {
					d, ok := eff.After.(*api.Deployment)
					if !ok || eff.Op != trace.Update {
						continue
					}
					before := eff.Before.(*api.Deployment).Replicas()
					if tk.Component != "horizontal-pod-autoscaler" || d.Replicas() == before {
						continue
					}
					writes++
					n := d.Replicas()
					if n < minR || n > maxR {
						t.Errorf("tick %d: scaled to %d, outside [%d, %d]\n%s", tk.Seq, n, minR, maxR, src)
					}
					if n > before {
						ups = append(ups, scale{n, tk.Time})
					}
					for _, u := range ups {
						if n < before && n < u.to && tk.Time-u.at < window {
							t.Errorf("tick %d (%s): scaled down %d → %d, %s after scaling up to %d (window %s)\n%s", tk.Seq, trace.FormatTime(tk.Time), before, n, trace.FormatTime(tk.Time-u.at), u.to, trace.FormatTime(window), src)
						}
					}
				}
			}
			total += writes
		})
	}
}
