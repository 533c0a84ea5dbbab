package engine_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

// randomPDB is Deployment web under a random budget with one or two
// drains (each with a --timeout so the run ends) of random nodes, and a
// node joining so that evicted pods have room. desired is the budget's
// desiredHealthy worked out from the spec alone (§7.1's table).
func randomPDB(rng *rand.Rand) (src string, desired int) {
	replicas := 2 + rng.IntN(5)
	budget := ""
	switch rng.IntN(4) {
	case 0:
		n := 1 + rng.IntN(replicas)
		budget, desired = fmt.Sprintf("  minAvailable: %d", n), n
	case 1:
		p := []int{25, 50, 75, 100}[rng.IntN(4)]
		budget, desired = fmt.Sprintf("  minAvailable: %d%%", p), int(math.Ceil(float64(p*replicas)/100))
	case 2:
		n := rng.IntN(3)
		budget, desired = fmt.Sprintf("  maxUnavailable: %d", n), max(replicas-n, 0)
	default:
		p := []int{10, 25, 50}[rng.IntN(3)]
		budget, desired = fmt.Sprintf("  maxUnavailable: %d%%", p), replicas-int(math.Ceil(float64(p*replicas)/100))
	}
	nodes := 2 + rng.IntN(2)
	actions := fmt.Sprintf("    - {at: 15s, add-node: node-%d}\n", nodes+1)
	for i := 0; i < 1+rng.IntN(2); i++ {
		actions += fmt.Sprintf("    - {at: %ds, kubectl: drain node-%d --ignore-daemonsets --timeout=90s}\n", 20+rng.IntN(40), 1+rng.IntN(nodes))
	}
	src = pdbSetup{Replicas: replicas, Budget: budget,
		Scenario: fmt.Sprintf("  seed: %d\n  nodes: {count: %d}\n  images:\n    \"web:1\": {pull: %dms, start: 500ms, ready: %dms}\n  actions:\n%s",
			rng.Uint64()%1000, nodes, rng.IntN(2000), 500+rng.IntN(8000), actions),
	}.source()
	return src, desired
}

// Random budgets and drains: a voluntary eviction of a healthy pod never
// leaves fewer healthy pods than the budget desires. The oracle is the
// pods as the trace's writes leave them after each eviction tick (Ready
// and not deleting) and desiredHealthy from the spec, not the
// controller's status or the Eviction API's arithmetic. Every drain
// ends, drained or failed, and a drained node keeps no web pod.
func TestPDBProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 7))
	evictions, refusals := 0, 0
	defer func() {
		t.Logf("%d evictions of healthy pods, %d refusals", evictions, refusals)
		if evictions < 20 || refusals < 10 {
			t.Errorf("%d evictions of healthy pods and %d refusals in 24 scenarios: the property is barely exercised", evictions, refusals)
		}
	}()
	for i := 0; i < 24; i++ {
		src, desired := randomPDB(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			e, _ := testkit.Load(t, []byte(src))
			e.RunUntil(5 * 60_000)
			pods := map[string]*api.Pod{}
			for _, tk := range e.Trace() {
				before := map[string]bool{}
				for n, p := range pods {
					before[n] = healthy(p)
				}
				for _, eff := range tk.Effects {
					if eff.Object.Kind != api.KindPod || eff.Object.Namespace != "default" {
						continue
					}
					if eff.Op == trace.Delete {
						delete(pods, eff.Object.Name)
					} else {
						pods[eff.Object.Name] = eff.After.(*api.Pod)
					}
				}
				if tk.Component != engine.KubectlActor {
					continue
				}
				if strings.Contains(tk.Explanation(), "(will retry after 5s)") {
					refusals++
				}
				evicted := 0
				for n, was := range before {
					if p, ok := pods[n]; was && (!ok || p.DeletionTimestamp != nil) {
						evicted++
					}
				}
				if evicted == 0 {
					continue
				}
				evictions += evicted
				left := 0
				for _, p := range pods {
					if healthy(p) {
						left++
					}
				}
				if left < desired {
					t.Errorf("tick %d at %s evicted %d healthy pod(s), leaving %d healthy of the %d the budget desires:\n%s", tk.Seq, trace.FormatTime(tk.Time), evicted, left, desired, src)
				}
			}
			started, ended := 0, 0
			for _, tk := range e.Trace() {
				if tk.Component != engine.KubectlActor {
					continue
				}
				if strings.Contains(tk.Explanation(), " cordoned") {
					started++
				}
				if strings.Contains(tk.Explanation(), "There are pending nodes to be drained") {
					ended++
				}
				m := drainedRE.FindStringSubmatch(tk.Explanation())
				if m == nil {
					continue
				}
				ended++
				for _, p := range testkit.Pods(e, "default") {
					if p.Spec.NodeName == m[1] && p.DeletionTimestamp == nil {
						t.Errorf("%s drained but runs %s", m[1], p.Name)
					}
				}
			}
			if started == 0 || ended != started {
				t.Errorf("%d drains started, %d ended", started, ended)
			}
		})
	}
}

var drainedRE = regexp.MustCompile(`node/(node-\d+) drained$`)

func healthy(p *api.Pod) bool { return p.DeletionTimestamp == nil && api.IsPodReady(p) }
