package conformance

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/examples/fidelity"
	"github.com/stateflow/stateflow/examples/random"
	"github.com/stateflow/stateflow/internal/testkit"
)

var long = flag.Bool("long", false, "replay many more generated scenarios (make conformance)")

// load parses a scenario and builds its engine.
func load(t *testing.T, src []byte) *engine.Engine {
	t.Helper()
	e, _ := testkit.Load(t, src)
	return e
}

// run loads a scenario and checks it until it settles or reaches maxMS.
func run(t *testing.T, src []byte, maxMS int64) *Report {
	t.Helper()
	e := load(t, src)
	rep, err := Check(e, func(e *engine.Engine) bool { return e.Now() > maxMS })
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func report(t *testing.T, rep *Report) {
	t.Helper()
	reportFor(t, rep, "deployment-controller", "replicaset-controller", "scheduler")
}

// reportFor reports a run that must have replayed ticks of each of the
// components.
func reportFor(t *testing.T, rep *Report, components ...string) {
	t.Helper()
	totals.add(rep)
	for _, c := range components {
		if rep.Checked[c] == 0 {
			t.Errorf("no tick of the %s was replayed: the harness checked nothing", c)
		}
	}
	allowed := 0
	for _, d := range rep.Differences {
		if d.Allowance != "" {
			allowed++
			t.Logf("%s", d)
		}
	}
	for _, d := range rep.Unexplained() {
		t.Errorf("%s", d)
	}
	t.Logf("replayed %v; %d allowed differences", rep.Checked, allowed)
}

// Every example: every deployment, ReplicaSet, DaemonSet, StatefulSet,
// Job, CronJob, TTL-after-finished, EndpointSlice, Endpoints and
// disruption controller tick and scheduling cycle agrees with upstream,
// or differs only as allowances.go allows.
func TestExamples(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			rep := run(t, []byte(ex.Source), 60*60_000)
			// Each workload's controllers must have been replayed (an
			// example without a Deployment has no deployment or
			// ReplicaSet ticks).
			want := []string{"scheduler"}
			if strings.Contains(ex.Source, "\nkind: Deployment\n") {
				want = append(want, "deployment-controller", "replicaset-controller")
			}
			if strings.Contains(ex.Source, "\nkind: DaemonSet\n") {
				want = append(want, "daemonset-controller")
			}
			if strings.Contains(ex.Source, "\nkind: StatefulSet\n") {
				want = append(want, "statefulset-controller")
			}
			if strings.Contains(ex.Source, "\nkind: Job\n") || strings.Contains(ex.Source, "\nkind: CronJob\n") {
				want = append(want, "job-controller")
			}
			if strings.Contains(ex.Source, "\nkind: CronJob\n") {
				want = append(want, "cronjob-controller")
			}
			if strings.Contains(ex.Source, "\nkind: PodDisruptionBudget\n") {
				want = append(want, "disruption-controller")
			}
			reportFor(t, rep, want...)
			if strings.Contains(ex.Source, "\nkind: Service\n") && (rep.Checked["endpointslice-controller"] == 0 || rep.Checked["endpoints-controller"] == 0) {
				t.Errorf("no tick of the endpoint controllers was replayed, though the example has Services")
			}
		})
	}
}

// The worked scenarios of docs/fidelity.md §10, as the engine's fidelity tests
// build them.
func TestWorkedScenarios(t *testing.T) {
	for name, w := range fidelity.Scenarios() {
		t.Run(name, func(t *testing.T) {
			report(t, run(t, w.Source(), 20*60_000))
		})
	}
}

// scenarios is how many of each generated kind make test replays; make
// conformance (-long) replays 300.
func scenarios() int {
	if *long {
		return 300
	}
	return 50
}

// Random rolling updates (the engine's property-test generator).
func TestRandomRollouts(t *testing.T) {
	n := scenarios()
	rng := rand.New(rand.NewPCG(2026, 11))
	for i := range n {
		r := random.NewRollout(rng)
		t.Run(fmt.Sprintf("%d/replicas=%d,surge=%s,unavailable=%s,failing=%v", i, r.Replicas, r.Surge, r.Unavailable, r.Failing), func(t *testing.T) {
			report(t, run(t, r.Scenario(), 20*60_000))
		})
	}
}

// Random rollouts, scales and restarts under node faults, pod kills and
// a vanishing image (the engine's fault-fuzz generator).
func TestFaults(t *testing.T) {
	n := scenarios()
	for seed := range uint64(n) {
		src, _ := random.Faulty(seed + 1)
		t.Run(fmt.Sprint(seed+1), func(t *testing.T) {
			report(t, run(t, src, 20*60_000))
		})
	}
}

// Rollout history: image changes, pause and resume, undo (also to a
// revision), scale and restart, rolling or Recreate, with a crashing and
// an unpullable image among the versions.
func TestHistory(t *testing.T) {
	for seed := range uint64(scenarios()) {
		t.Run(fmt.Sprint(seed+1), func(t *testing.T) {
			report(t, run(t, random.History(seed+1), 20*60_000))
		})
	}
}
