package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

// trafficScenario is a random Deployment behind a Service, with random
// watch latencies, an optional preStop sleep, traffic from some or all
// nodes, a rolling update and a scale-down.
func trafficScenario(rng *rand.Rand) (string, string) {
	replicas, nodes := 1+rng.IntN(5), 1+rng.IntN(4)
	rps := []int{7, 20, 50, 133}[rng.IntN(4)]
	prestop := []int{0, 0, 1, 3, 8}[rng.IntN(5)]
	proxyLat, kubeletLat := 50+rng.IntN(900), 50+rng.IntN(400)
	lifecycle := ""
	if prestop > 0 {
		lifecycle = fmt.Sprintf(", lifecycle: {preStop: {sleep: {seconds: %d}}}", prestop)
	}
	senders := ""
	if rng.IntN(2) == 0 {
		senders = ", nodes: [node-1]"
	}
	desc := fmt.Sprintf("replicas=%d,nodes=%d,rps=%d,preStop=%ds,proxy=%dms,kubelet=%dms%s", replicas, nodes, rps, prestop, proxyLat, kubeletLat, senders)
	return desc, fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, ports: [{name: http, containerPort: 8080}], readinessProbe: {httpGet: {path: /, port: http}}%s}]
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
  nodes: {count: %d}
  latency: {kube-proxy: %dms, kubelet: %dms}
  images:
    "web:1": {pull: 1s, start: 1s, ready: 1s, stop: 700ms}
    "web:2": {pull: 1s, start: 1s, ready: 1s, stop: 700ms}
  traffic:
    - {service: web, rps: %d, from: 1s, until: 70s, interval: 2s%s}
  actions:
    - {at: 25s, kubectl: set image deployment/web web=web:2}
    - {at: 50s, kubectl: scale deployment/web --replicas=1}
`, replicas, lifecycle, rng.Uint64()%1000, nodes, proxyLat, kubeletLat, rps, senders)
}

// TestTrafficRoutesOnlyByTheRules checks every request of random
// scenarios against the trace alone:
//   - a request is only ever routed to an endpoint the sending node's
//     rules held at that moment, rebuilt from the kube-proxy ticks'
//     RuleChanges (a request at t sees every tick at a time up to t);
//   - "no endpoints" only when those rules were empty, "no rules" only
//     when the node had programmed none for the Service;
//   - a request fails as "terminating" only to a pod whose deletion the
//     API server had begun (a deletionTimestamp written at or before it);
//   - every interval sends exactly the requests its rate puts in it, and
//     each is counted once.
func TestTrafficRoutesOnlyByTheRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2026))
	for i := 0; i < 24; i++ {
		desc, src := trafficScenario(rng)
		t.Run(fmt.Sprintf("%d/%s", i, desc), func(t *testing.T) {
			e, sc := testkit.Load(t, []byte(src))
			if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				t.Fatal(err)
			}
			checkTrafficAgainstTrace(t, e.Trace(), sc.Config.Traffic[0])
			checkMinSyncPeriod(t, e.Trace())
		})
	}
}

// ruleVersion is one node's rules after one kube-proxy tick.
type ruleVersion struct {
	seq   int
	time  int64
	rules map[string][]string // "Service/ns/name" → endpoints of its ports
}

func checkTrafficAgainstTrace(t *testing.T, tr []*trace.Tick, s engine.TrafficStream) {
	t.Helper()
	history := map[string][]ruleVersion{} // node → versions in tick order
	deleting := map[string]int64{}        // "ns/name" → when its deletionTimestamp was first written
	sent := 0
	for _, tk := range tr {
		for _, eff := range tk.Effects {
			if eff.After != nil && eff.After.GetKind() == "Pod" && eff.After.Meta().DeletionTimestamp != nil {
				k := eff.After.Meta().Namespace + "/" + eff.After.Meta().Name
				if _, ok := deleting[k]; !ok {
					deleting[k] = tk.Time
				}
			}
		}
		if len(tk.Rules()) > 0 {
			h := history[tk.Host]
			next := map[string][]string{}
			if len(h) > 0 {
				for k, v := range h[len(h)-1].rules {
					next[k] = v
				}
			}
			for _, c := range tk.Rules() {
				k := c.Service.String() + ":" + c.Port
				if c.Gone {
					delete(next, k)
					continue
				}
				var eps []string
				for _, e := range next[k] {
					if !slices.Contains(c.Removed, e) {
						eps = append(eps, e)
					}
				}
				eps = append(eps, c.Added...)
				if len(eps) != c.Endpoints {
					t.Errorf("tick %d: %s's rules for %s hold %d endpoints by its changes, %d by its count", tk.Seq, tk.Host, k, len(eps), c.Endpoints)
				}
				next[k] = eps
			}
			history[tk.Host] = append(h, ruleVersion{tk.Seq, tk.Time, next})
		}
		if tk.Traffic() == nil {
			continue
		}
		r := tk.Traffic()
		if want := requestsIn(s, r.From, r.To); r.Sent != want {
			t.Errorf("tick %d: %d requests sent in %d–%d ms, want %d at %d rps", tk.Seq, r.Sent, r.From, r.To, want, s.RPS)
		}
		sum := 0
		for _, rt := range r.Routes {
			sum += rt.Count
			if rt.First < r.From || rt.Last >= r.To || rt.First > rt.Last {
				t.Errorf("tick %d: route %+v outside its interval", tk.Seq, rt)
			}
			if len(s.Nodes) > 0 && !slices.Contains(s.Nodes, rt.Node) {
				t.Errorf("tick %d: %s sent requests; only %v send", tk.Seq, rt.Node, s.Nodes)
			}
			checkRoute(t, tk.Seq, rt, history[rt.Node], r.Service.String())
			if rt.Outcome == trace.Terminating {
				if at, ok := deleting[rt.Pod]; !ok || at > rt.First {
					t.Errorf("tick %d: %d requests failed as terminating to %s, whose deletion had not begun", tk.Seq, rt.Count, rt.Pod)
				}
			}
		}
		if sum != r.Sent || r.Served+r.Failed != r.Sent {
			t.Errorf("tick %d: routes count %d, sent %d, served %d + failed %d", tk.Seq, sum, r.Sent, r.Served, r.Failed)
		}
		sent += r.Sent
	}
	if want := requestsIn(s, s.From, s.Until); sent != want {
		t.Errorf("%d requests reported, want %d", sent, want)
	}
}

// checkRoute checks one group of requests against the node's rules as
// the trace rebuilds them.
func checkRoute(t *testing.T, seq int, rt trace.Route, h []ruleVersion, svc string) {
	t.Helper()
	var cur *ruleVersion
	for i := range h {
		if h[i].time <= rt.First {
			cur = &h[i]
		} else if h[i].time <= rt.Last {
			t.Errorf("tick %d: %s's rules changed at tick %d, between requests of one route %+v", seq, rt.Node, h[i].seq, rt)
		}
	}
	curSeq := 0
	var eps []string
	have := false
	if cur != nil {
		curSeq = cur.seq
		for k, v := range cur.rules {
			if len(k) > len(svc) && k[:len(svc)+1] == svc+":" {
				eps, have = append(eps, v...), true
			}
		}
	}
	if rt.RulesTick != curSeq {
		t.Errorf("tick %d: route %+v says rules of tick %d; the trace's rules of %s at %d ms are tick %d's", seq, rt, rt.RulesTick, rt.Node, rt.First, curSeq)
	}
	switch {
	case rt.Endpoint != "" && !slices.Contains(eps, rt.Endpoint):
		t.Errorf("tick %d: %s routed to %s, which its rules (tick %d: %v) did not hold", seq, rt.Node, rt.Endpoint, curSeq, eps)
	case rt.Outcome == trace.NoEndpoints && (!have || len(eps) > 0):
		t.Errorf("tick %d: %s refused %d requests for lack of endpoints, but its rules held %v", seq, rt.Node, rt.Count, eps)
	case rt.Outcome == trace.NoRules && have:
		t.Errorf("tick %d: %s had no rules, but the trace says it had %v", seq, rt.Node, eps)
	case rt.Endpoint == "" && rt.Outcome != trace.NoEndpoints && rt.Outcome != trace.NoRules:
		t.Errorf("tick %d: a route without an endpoint has outcome %s", seq, rt.Outcome)
	}
}

// requestsIn counts the requests of a stream due in [from, to): request k
// goes at From + k·1000/RPS (integer division), while before Until.
func requestsIn(s engine.TrafficStream, from, to int64) int {
	n := 0
	for k := int64(0); ; k++ {
		at := s.From + k*1000/int64(s.RPS)
		if at >= to || at >= s.Until {
			return n
		}
		if at >= from {
			n++
		}
	}
}

// checkMinSyncPeriod: a node's kube-proxy syncs at most once per
// minSyncPeriod (1 s), however many changes arrive.
func checkMinSyncPeriod(t *testing.T, tr []*trace.Tick) {
	t.Helper()
	last := map[string]int64{}
	for _, tk := range tr {
		if tk.Component != engine.KubeProxy {
			continue
		}
		if at, ok := last[tk.Host]; ok && tk.Time-at < 1000 {
			t.Errorf("tick %d: %s synced %d ms after its last sync", tk.Seq, tk.Actor(), tk.Time-at)
		}
		last[tk.Host] = tk.Time
	}
}
