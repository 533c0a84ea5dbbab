package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/examples/fidelity"
	"github.com/stateflow/stateflow/examples/random"
	"github.com/stateflow/stateflow/internal/testkit"
)

// claimsScenario is a bare ReplicaSet whose pods are relabelled out of
// its selector (released) and back (adopted), beside bare pods it adopts,
// whose template labels are edited (its counts are recounted), whose
// pod is deleted at once (force), which is scaled down, and which is deleted leaving its pods orphaned for a
// second ReplicaSet: every way a pod joins or leaves the pods a
// ReplicaSet controls.
const claimsScenario = `apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: web2}
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: v1
kind: Pod
metadata: {name: solo, labels: {app: web}}
spec:
  containers: [{name: web, image: web:1}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
metadata: {name: claims}
spec:
  seed: 3
  images: {"web:1": {pull: 1s, start: 1s}}
  actions:
    - at: 20s
      kubectl: label pods solo app=other --overwrite
    - at: 30s
      kubectl: label pods solo app=web --overwrite
    - at: 40s
      kubectl: >-
        patch rs web --type=merge -p '{"spec":{"template":{"metadata":{"labels":{"tier":"back"}}}}}'
    - at: 45s
      kubectl: delete pod solo --force --grace-period=0
    - at: 50s
      kubectl: scale rs web --replicas=2
    - at: 60s
      kubectl: scale rs web --replicas=5
    - at: 80s
      kubectl: delete rs web --cascade=orphan
    - at: 90s
      kubectl: scale rs web2 --replicas=4
`

// TestIncrementalStateAgreesWithWalk runs the examples, the identity
// test's generated scenarios, the fidelity worlds, random rollouts and
// claimsScenario with Config.VerifyIncremental: every ReplicaSet sync
// decided from the controller's kept pod counts, and every scale-down's
// count of the related ReplicaSets' pods by node, also walks its cache,
// and a difference fails that tick. The walk is the oracle: it is the
// code the counts replace. The test fails if any tick failed so, and
// checks that the counts decided syncs at all.
func TestIncrementalStateAgreesWithWalk(t *testing.T) {
	type run struct {
		name  string
		src   string
		until int64
	}
	var runs []run
	for _, ex := range examples.All() {
		runs = append(runs, run{name: ex.Name, src: ex.Source, until: 30 * 60_000})
	}
	for seed := range uint64(6) {
		faulty, _ := random.Faulty(seed)
		runs = append(runs, run{fmt.Sprintf("faulty-%d", seed), string(faulty), 20 * 60_000},
			run{fmt.Sprintf("history-%d", seed), string(random.History(seed)), 20 * 60_000})
	}
	for name, w := range fidelity.Scenarios() {
		runs = append(runs, run{"fidelity-" + name, string(w.Source()), 30 * 60_000})
	}
	rng := rand.New(rand.NewPCG(14, 1))
	for i := range 10 {
		runs = append(runs, run{fmt.Sprintf("rollout-%d", i), string(random.NewRollout(rng).Scenario()), 20 * 60_000})
	}
	runs = append(runs, run{"claims", claimsScenario, 10 * 60_000}, run{"scale-1000", examples.Scale(1000), 10 * 60_000})
	counted := 0
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			e, _ := testkit.Load(t, []byte(r.src), func(c *engine.Config) { c.VerifyIncremental = true })
			for e.Now() < r.until {
				tk := e.Step()
				if tk == nil {
					break
				}
				if strings.Contains(tk.Err(), "kept pod counts") {
					t.Fatalf("tick %d (%s): %s", tk.Seq, tk.Actor(), tk.Err())
				}
				counted += countedSync(tk)
			}
		})
	}
	t.Logf("%d ReplicaSet syncs without claims", counted)
	if counted == 0 {
		t.Fatal("no ReplicaSet sync was decided from the kept counts")
	}
}

// countedSync is 1 for a ReplicaSet sync that wrote no pod claim: one the
// counts may have decided.
func countedSync(tk *trace.Tick) int {
	if tk.Component != "replicaset-controller" {
		return 0
	}
	for _, eff := range tk.Effects {
		if strings.Contains(eff.Summary(), "adopted") || strings.Contains(eff.Summary(), "released") {
			return 0
		}
	}
	return 1
}
