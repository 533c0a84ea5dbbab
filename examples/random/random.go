// Package random generates scenarios from a seed for the property, fuzz
// and differential tests: random rolling updates, faults and rollout
// histories. It is kept out of the playground's binary.
package random

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/stateflow/stateflow/examples/manifest"
)

// Rollout is one random rolling update of a Deployment "web" from image
// web:v1 to web:v2 at 2 minutes; MaxPods and MinAvailable are the bounds
// its maxSurge and maxUnavailable set.
type Rollout struct {
	Replicas              int
	Surge, Unavailable    string
	Pull, Ready           int  // seconds
	Failing               bool // web:v2 cannot be pulled
	MaxPods, MinAvailable int32
}

func fencepost(rng *rand.Rand) string {
	return []string{"0", "1", "2", "3", "25%", "50%", "100%"}[rng.IntN(7)]
}

// bounds works out the rollout's bounds from the Kubernetes documentation
// of maxSurge and maxUnavailable, independently of the controller under
// test: a percentage of maxSurge rounds up and one of maxUnavailable
// rounds down; if both come to 0, maxUnavailable is 1
// (concepts/workloads/controllers/deployment "Max Surge", "Max
// Unavailable"; docs/fidelity.md §1.3). An absolute value is taken as it
// is.
func bounds(surge, unavailable string, replicas int) (maxPods, minAvailable int32) {
	s := fencepostValue(surge, replicas, true)
	u := fencepostValue(unavailable, replicas, false)
	if s == 0 && u == 0 {
		u = 1
	}
	return int32(replicas + s), int32(replicas - min(u, replicas))
}

// fencepostValue is an absolute fencepost, or a percentage of replicas
// rounded up or down.
func fencepostValue(v string, replicas int, up bool) int {
	if pct, ok := strings.CutSuffix(v, "%"); ok {
		var p int
		fmt.Sscan(pct, &p)
		if up {
			return (p*replicas + 99) / 100
		}
		return p * replicas / 100
	}
	var n int
	fmt.Sscan(v, &n)
	return n
}

// NewRollout draws a rollout: 1–12 replicas, maxSurge and
// maxUnavailable among the fenceposts 0, 1, 2, 3, 25%, 50% and 100%.
func NewRollout(rng *rand.Rand) Rollout {
	r := Rollout{Replicas: 1 + rng.IntN(12), Surge: fencepost(rng), Unavailable: fencepost(rng), Pull: rng.IntN(3), Ready: rng.IntN(5), Failing: rng.IntN(4) == 0}
	if r.Surge == "0" && r.Unavailable == "0" {
		r.Unavailable = "1"
	}
	if r.Surge == "0%" {
		r.Surge = "0"
	}
	r.MaxPods, r.MinAvailable = bounds(r.Surge, r.Unavailable, r.Replicas)
	return r
}

// Scenario is the rollout as a scenario file.
func (r Rollout) Scenario() []byte {
	v2 := fmt.Sprintf(`{pull: %ds, start: 1s, ready: %ds}`, r.Pull, r.Ready)
	if r.Failing {
		v2 = `{pull: 1s, pullError: "manifest unknown"}`
	}
	d := manifest.Deployment{Name: "web", Replicas: r.Replicas, Image: "web:v1",
		Spec:  fmt.Sprintf("  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}\n", r.Surge, r.Unavailable),
		Lines: manifest.ReadinessEvery2s + manifest.Requests("10m", "16Mi")}
	return []byte(d.YAML() + fmt.Sprintf(`---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 9
  images:
    "web:v1": {pull: 1s, start: 1s, ready: 1s}
    "web:v2": %s
  actions:
    - at: 2m
      kubectl: set image deployment/web web=web:v2
`, v2))
}

// Faulty builds, from a seed, a Deployment that is rolled out,
// scaled and updated while nodes become unreachable or not ready, pods are
// killed and an image disappears; every fault ends by 10 minutes. It
// returns the scenario and the replica count the last scale asks for.
func Faulty(seed uint64) ([]byte, int) {
	rng := rand.New(rand.NewPCG(seed, 7))
	initial := 1 + rng.IntN(8)
	replicas, lastScale := initial, -1
	var actions strings.Builder
	act := func(at int, body string) { fmt.Fprintf(&actions, "    - {at: %ds, %s}\n", at, body) }
	act(60+rng.IntN(60), "kubectl: set image deployment/web web=web:2")
	for range 1 + rng.IntN(6) {
		at := 10 + rng.IntN(450)
		switch rng.IntN(4) {
		case 0:
			node := fmt.Sprintf("node-%d", 1+rng.IntN(3))
			act(at, "node: "+node+", condition: "+[]string{"Unreachable", "NotReady"}[rng.IntN(2)])
			act(at+30+rng.IntN(100), "node: "+node+", condition: Ready")
		case 1:
			act(at, "kill-pod: app=web")
		case 2:
			n := 1 + rng.IntN(8)
			if at >= lastScale {
				replicas, lastScale = n, at
			}
			act(at, fmt.Sprintf("kubectl: scale deployment/web --replicas=%d", n))
		case 3:
			act(at, "kubectl: rollout restart deployment/web")
		}
	}
	spec := fmt.Sprintf("  strategy: {rollingUpdate: {maxSurge: %d, maxUnavailable: %d}}\n", rng.IntN(3), 1+rng.IntN(2))
	return []byte(webDeployment(initial, spec) + fmt.Sprintf(`---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: %d
  nodes: {count: 3}
  images:
    "web:1": {pull: %dms, start: 1s, ready: 1s}
    "web:2": {pull: %dms, start: 1s, ready: %ds}
  actions:
%s`, seed, 200+rng.IntN(3000), 200+rng.IntN(3000), rng.IntN(5), actions.String())), replicas
}

// History builds, from a seed, a Deployment driven through its rollout
// history: image changes, pauses and resumes, undos (to the previous or a
// numbered revision), scales and restarts at random times in the first
// eight minutes, with a Recreate strategy one time in four.
func History(seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 13))
	var actions strings.Builder
	version := 1
	for range 3 + rng.IntN(8) {
		at := 20 + rng.IntN(460)
		var cmd string
		switch rng.IntN(7) {
		case 0, 1:
			version++
			cmd = fmt.Sprintf("set image deployment/web web=web:%d", 1+version%4)
		case 2:
			cmd = "rollout pause deployment/web"
		case 3:
			cmd = "rollout resume deployment/web"
		case 4:
			cmd = "rollout undo deployment/web"
			if rng.IntN(2) == 0 {
				cmd += fmt.Sprintf(" --to-revision=%d", 1+rng.IntN(3))
			}
		case 5:
			cmd = fmt.Sprintf("scale deployment/web --replicas=%d", rng.IntN(9))
		case 6:
			cmd = "rollout restart deployment/web"
		}
		fmt.Fprintf(&actions, "    - {at: %ds, kubectl: %s}\n", at, cmd)
	}
	fmt.Fprintf(&actions, "    - {at: 500s, kubectl: rollout resume deployment/web}\n")
	surge, unavailable := fencepost(rng), fencepost(rng)
	if surge == "0" && unavailable == "0" {
		unavailable = "1" // both 0 is invalid
	}
	strategy := fmt.Sprintf("{rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}", surge, unavailable)
	if rng.IntN(4) == 0 {
		strategy = "{type: Recreate}"
	}
	replicas := 1 + rng.IntN(8)
	spec := fmt.Sprintf("  revisionHistoryLimit: %d\n  minReadySeconds: %d\n  strategy: %s\n", 1+rng.IntN(4), rng.IntN(3), strategy)
	return []byte(webDeployment(replicas, spec) + fmt.Sprintf(`---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: %d
  nodes: {count: 3}
  images:
    "web:1": {pull: 1s, start: 1s, ready: 1s}
    "web:2": {pull: 2s, start: 1s, ready: 2s}
    "web:3": {pull: 1s, pullError: "manifest unknown"}
    "web:4": {pull: 1s, start: 1s, exitAfter: 3s, exitCode: 1}
  actions:
%s`, seed, actions.String()))
}

// webDeployment is the Deployment "web" (image web:1, a readiness probe,
// 100m CPU and 64Mi requested) the fault and history scenarios share, with
// the given spec lines (indented two spaces) after its replicas.
func webDeployment(replicas int, spec string) string {
	d := manifest.Deployment{Name: "web", Replicas: replicas, Image: "web:1", Spec: spec,
		Lines: manifest.ReadinessEvery2s + manifest.Requests("100m", "64Mi")}
	return d.YAML()
}
