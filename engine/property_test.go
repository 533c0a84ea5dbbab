package engine_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	dc "github.com/stateflow/stateflow/engine/controller/deployment"
)

// rollout is one random rolling update.
type rollout struct {
	replicas              int
	surge, unavailable    string
	pull, ready           int // seconds
	failing               bool
	maxPods, minAvailable int32
}

func fencepost(rng *rand.Rand) string {
	return []string{"0", "1", "2", "3", "25%", "50%", "100%"}[rng.IntN(7)]
}

func intstrOf(s string) *api.IntOrString {
	if strings.HasSuffix(s, "%") {
		v := api.FromString(s)
		return &v
	}
	var i int32
	fmt.Sscan(s, &i)
	v := api.FromInt(i)
	return &v
}

func randomRollout(rng *rand.Rand) rollout {
	r := rollout{replicas: 1 + rng.IntN(12), surge: fencepost(rng), unavailable: fencepost(rng), pull: rng.IntN(3), ready: rng.IntN(5), failing: rng.IntN(4) == 0}
	if r.surge == "0" && r.unavailable == "0" {
		r.unavailable = "1"
	}
	if r.surge == "0%" {
		r.surge = "0"
	}
	s, u, _ := dc.ResolveFenceposts(intstrOf(r.surge), intstrOf(r.unavailable), int32(r.replicas))
	r.maxPods = int32(r.replicas) + s
	r.minAvailable = int32(r.replicas) - min(u, int32(r.replicas))
	return r
}

func (r rollout) scenario() []byte {
	v2 := fmt.Sprintf(`{pull: %ds, start: 1s, ready: %ds}`, r.pull, r.ready)
	if r.failing {
		v2 = `{pull: 1s, pullError: "manifest unknown"}`
	}
	return []byte(fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web:v1
          readinessProbe: {httpGet: {path: /, port: 80}, periodSeconds: 2}
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
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
`, r.replicas, r.surge, r.unavailable, v2))
}

// Random rolling updates: at every tick the ReplicaSets never ask for more
// than replicas + maxSurge pods; once the rollout starts from a fully
// available Deployment, available pods never drop below replicas -
// maxUnavailable; the structure stays sound (resourceVersions strictly
// increase, every bound pod's node exists, no pod has two controllers);
// and a rollout without a persistent fault converges.
func TestRandomRollouts(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 11))
	for i := 0; i < 40; i++ {
		r := randomRollout(rng)
		t.Run(fmt.Sprintf("%d/replicas=%d,surge=%s,unavailable=%s,failing=%v", i, r.replicas, r.surge, r.unavailable, r.failing), func(t *testing.T) {
			e, _ := loadBytes(t, r.scenario())
			e.RunUntil(110_000)
			if d := deployment(t, e, "default", "web"); d.Status.AvailableReplicas != int32(r.replicas) {
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
			if r.failing {
				return
			}
			if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				t.Fatal(err)
			}
			d := deployment(t, e, "default", "web")
			if d.Status.UpdatedReplicas != int32(r.replicas) || d.Status.AvailableReplicas != int32(r.replicas) || d.Status.Replicas != int32(r.replicas) {
				t.Fatalf("did not converge: %+v", d.Status)
			}
		})
	}
}

func checkTick(t *testing.T, e *engine.Engine, r rollout) {
	t.Helper()
	var total, available int32
	for _, rs := range replicaSets(e, "default") {
		total += rs.Replicas()
		available += rs.Status.AvailableReplicas
	}
	if total > r.maxPods {
		t.Fatalf("tick %d: ReplicaSets ask for %d pods, more than %d", e.Tick(), total, r.maxPods)
	}
	if available < r.minAvailable {
		t.Fatalf("tick %d: %d available, fewer than %d", e.Tick(), available, r.minAvailable)
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
