package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

// podOrdinal is a StatefulSet pod's ordinal from its name ("db-3" → 3).
func podOrdinal(name string) int {
	var n int
	if _, err := fmt.Sscanf(name[strings.LastIndexByte(name, '-')+1:], "%d", &n); err != nil {
		return -1
	}
	return n
}

// Random OrderedReady StatefulSets (replicas, image timings, scaling, a
// rolling update): pod N+1 is never created while pod N is not Running
// and Ready, counted from the pods' versions in the trace, not from the
// controller.
func TestStatefulSetOrderedReadyProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	for i := 0; i < 10; i++ {
		replicas, scaleTo := 2+rng.IntN(4), 1+rng.IntN(6)
		pull, ready := 200+rng.IntN(2000), rng.IntN(3000)
		src := fmt.Sprintf(`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: %d
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: "db:1", readinessProbe: {tcpSocket: {port: 5432}, periodSeconds: 1}}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: %d
  nodes: {count: 2}
  images:
    "db:1": {pull: %dms, start: 500ms, ready: %dms}
    "db:2": {pull: %dms, start: 500ms, ready: %dms}
  actions:
    - {at: 40s, kubectl: scale statefulset db --replicas=%d}
    - {at: 80s, kubectl: set image statefulset/db db=db:2}
`, replicas, rng.Uint64()%1000, pull, ready, pull, ready, scaleTo)
		t.Run(fmt.Sprintf("%d/replicas=%d,scale=%d", i, replicas, scaleTo), func(t *testing.T) {
			e, _ := testkit.Load(t, []byte(src))
			if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				t.Fatal(err)
			}
			live := map[int]*api.Pod{}
			for _, tk := range e.Trace() {
				for _, eff := range tk.Effects {
					if eff.Object.Kind != api.KindPod {
						continue
					}
					n := podOrdinal(eff.Object.Name)
					p, _ := eff.After.(*api.Pod)
					if eff.Op == trace.Create && n > 0 {
						prev := live[n-1]
						if prev == nil || prev.DeletionTimestamp != nil || prev.Status.Phase != api.PodRunning || !api.IsPodReady(prev) {
							t.Errorf("tick %d: db-%d created while db-%d was not Running and Ready (%v)", tk.Seq, n, n-1, prev != nil)
						}
					}
					if p == nil {
						delete(live, n)
					} else {
						live[n] = p
					}
				}
			}
		})
	}
}

// Random DaemonSets (nodes, maxUnavailable or maxSurge, a rolling
// update, a node tainted NoExecute): a node never runs two of the set's
// pods that are not terminating, except during a surge, when it runs at
// most two; checked against the API server at every tick.
func TestDaemonSetOnePodPerNodeProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 4))
	for i := 0; i < 10; i++ {
		nodes, surge := 2+rng.IntN(4), rng.IntN(2)
		strategy := fmt.Sprintf("{maxUnavailable: %d}", 1+rng.IntN(2))
		if surge == 1 {
			strategy = "{maxUnavailable: 0, maxSurge: 1}"
		}
		src := fmt.Sprintf(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: %s}
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: "agent:1"}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: %d
  nodes: {count: %d}
  images:
    "agent:1": {pull: %dms, start: 500ms, stop: 2s}
    "agent:2": {pull: %dms, start: 500ms, stop: 2s}
  actions:
    - {at: 20s, kubectl: set image daemonset/agent agent=agent:2}
    - {at: 22s, kubectl: taint nodes node-1 drain=now:NoExecute}
`, strategy, rng.Uint64()%1000, nodes, 200+rng.IntN(2000), 200+rng.IntN(2000))
		t.Run(fmt.Sprintf("%d/nodes=%d,%s", i, nodes, strategy), func(t *testing.T) {
			e, _ := testkit.Load(t, []byte(src))
			limit := 1 + surge
			for e.Now() < 10*60_000 {
				tk := e.Step()
				if tk == nil {
					break
				}
				per := map[string]int{}
				for _, p := range testkit.Pods(e, "default") {
					if p.DeletionTimestamp == nil && p.Spec.NodeName != "" {
						per[p.Spec.NodeName]++
					}
				}
				for node, n := range per {
					if n > limit {
						t.Fatalf("tick %d: %s runs %d pods of the set that are not terminating (limit %d)", tk.Seq, node, n, limit)
					}
				}
			}
		})
	}
}

// Random Services over a Deployment (replicas, a selector that moves by
// set selector, a rolling update, a scale, a pod that is never Ready):
// once the slices have caught up, every Ready pod the
// selector picks (with an IP) is a ready endpoint of the Service's
// slices, and every endpoint is a live pod the selector picks. The
// oracle is the API server's pods and the selector, not the controller.
func TestEndpointSlicesMatchSelectorProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 5))
	for i := 0; i < 10; i++ {
		replicas, scaleTo := 1+rng.IntN(5), rng.IntN(6)
		tier := []string{"front", "back"}[rng.IntN(2)]
		src := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web, tier: front}}
    spec:
      containers: [{name: web, image: "web:1", ports: [{name: http, containerPort: 8080}], readinessProbe: {httpGet: {path: /, port: http}}}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api, tier: back}}
    spec:
      containers: [{name: api, image: "web:1", ports: [{name: http, containerPort: 9090}]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: slow}
spec:
  replicas: 1
  selector: {matchLabels: {app: slow}}
  template:
    metadata: {labels: {app: slow, tier: %s}}
    spec:
      containers: [{name: slow, image: "slow:1", ports: [{name: http, containerPort: 8080}], readinessProbe: {httpGet: {path: /, port: http}}}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: %d
  nodes: {count: 3}
  images:
    "web:1": {pull: 1s, start: 500ms, ready: %dms}
    "web:2": {pull: 1s, start: 500ms, ready: %dms}
    "slow:1": {pull: 1s, start: 500ms, ready: 10m}
  actions:
    - {at: 20s, kubectl: set image deployment/web web=web:2}
    - {at: 25s, kubectl: scale deployment/web --replicas=%d}
    - {at: 40s, kubectl: set selector service web tier=%s}
`, replicas, []string{"front", "back"}[rng.IntN(2)], rng.Uint64()%1000, rng.IntN(3000), rng.IntN(3000), scaleTo, tier)
		t.Run(fmt.Sprintf("%d/replicas=%d,scale=%d,tier=%s", i, replicas, scaleTo, tier), func(t *testing.T) {
			e, _ := testkit.Load(t, []byte(src))
			// Long after the last action, before the slow pod's
			// readiness (10 min): the slices have caught up.
			e.RunUntil(180_000)
			want := map[string]bool{}
			for _, p := range testkit.Pods(e, "default") {
				if p.Labels["tier"] == tier && p.DeletionTimestamp == nil && p.Status.PodIP != "" && api.IsPodReady(p) {
					want[p.Name] = true
				}
			}
			got := map[string]bool{}
			for _, s := range testkit.List[*api.EndpointSlice](e, api.KindEndpointSlice, "default") {
				if s.Labels[api.LabelServiceName] != "web" {
					continue
				}
				for _, ep := range s.Endpoints {
					p, ok := e.Store().Get(api.Key{Kind: api.KindPod, Namespace: "default", Name: ep.TargetRef.Name})
					if !ok || p.Meta().Labels["tier"] != tier {
						t.Errorf("endpoint %s: its pod is gone or not selected", ep.TargetRef.Name)
					}
					if ep.Conditions.Ready == nil || *ep.Conditions.Ready {
						got[ep.TargetRef.Name] = true
					}
				}
			}
			if fmt.Sprint(sortedKeys(got)) != fmt.Sprint(sortedKeys(want)) {
				t.Errorf("ready endpoints %v, want the Ready pods the selector picks %v", sortedKeys(got), sortedKeys(want))
			}
		})
	}
}

func sortedKeys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
