package model

// This file draws the data plane on a Service's box: what each node's
// kube-proxy forwards the Service to, and the synthetic traffic's last
// interval; and a kube-proxy sync as an arrow from the Service down into
// its node.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// dataPlane adds a Service's rules and traffic lines to its box, and says
// whether the rules lag the slices (a stale note) and whether requests
// failed.
func (m *Model) dataPlane(svc *api.Service) (lines []string, stale string, failing bool) {
	key := api.KeyOf(svc)
	if proxied(svc) {
		rules := m.eng.ProxyRules(key)
		if line := rulesLine(rules); line != "" {
			lines = append(lines, line)
		}
		stale = staleRules(rules, m.readyPods(key))
	}
	for _, tr := range m.eng.LastTraffic(key) {
		lines = append(lines, trafficLine(tr))
		failing = failing || tr.Failed > 0
	}
	return lines, stale, failing
}

// proxied: kube-proxy programs rules for Services with a virtual IP.
func proxied(svc *api.Service) bool {
	return svc.Spec.ClusterIP != "" && svc.Spec.ClusterIP != "None" && svc.Spec.Type != "ExternalName"
}

// rulesLine counts what the nodes' rules forward to: "rules: 3 endpoints
// on all 3 nodes", or how the nodes disagree while a change propagates.
func rulesLine(rules []engine.NodeRules) string {
	if len(rules) == 0 {
		return ""
	}
	counts := map[int]int{} // endpoints → nodes
	missing := 0
	for _, r := range rules {
		if !r.OK {
			missing++
			continue
		}
		counts[len(r.Endpoints)]++
	}
	if missing == len(rules) {
		return "rules: on no node yet"
	}
	if len(counts) == 1 && missing == 0 {
		for n := range counts {
			return fmt.Sprintf("rules: %s on all %d nodes", endpointsWord(n), len(rules))
		}
	}
	var parts []string
	for _, n := range slices.Sorted(mapKeys(counts)) {
		parts = append(parts, fmt.Sprintf("%d on %d", n, counts[n]))
	}
	if missing > 0 {
		parts = append(parts, fmt.Sprintf("none on %d", missing))
	}
	return "rules: " + strings.Join(parts, ", ") + " nodes"
}

func endpointsWord(n int) string {
	switch n {
	case 0:
		return "no endpoint (reject)"
	case 1:
		return "1 endpoint"
	}
	return fmt.Sprintf("%d endpoints", n)
}

func mapKeys(m map[int]int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// SparkBars is how many traffic intervals a Service box draws.
const SparkBars = 30

// SparkH is the height of the bars under a Service box's lines.
const SparkH = 18

// sparkline is the last SparkBars intervals of traffic to svc up to the
// current tick, oldest first, read from the trace (a bounded walk back:
// traffic ticks come once an interval).
func (m *Model) sparkline(svc api.Key) []SparkBar {
	if len(m.eng.LastTraffic(svc)) == 0 {
		return nil // no traffic reported for svc yet: nothing to look for
	}
	tr := m.eng.Trace()
	var out []SparkBar
	for i := len(tr) - 1; i >= 0 && len(out) < SparkBars && len(tr)-i <= 20*SparkBars*64; i-- {
		if t := tr[i].Traffic(); t != nil && t.Service == svc {
			out = append(out, SparkBar{Served: t.Served, Failed: t.Failed})
		}
	}
	slices.Reverse(out)
	return out
}

// trafficLine is the last interval of requests: "traffic 38/40 ok".
func trafficLine(tr *trace.Traffic) string {
	s := fmt.Sprintf("traffic %d/%d ok", tr.Served, tr.Sent)
	if tr.Failed > 0 {
		s += fmt.Sprintf(" · %d failed", tr.Failed)
	}
	return s
}

// readyPods are the pods the Service's slices list as ready now, with
// their nodes.
func (m *Model) readyPods(svc api.Key) map[string]string {
	out := map[string]string{}
	for _, o := range m.eng.Store().List(api.KindEndpointSlice, svc.Namespace) {
		s := o.(*api.EndpointSlice)
		if s.Labels[api.LabelServiceName] != svc.Name {
			continue
		}
		for _, e := range s.Endpoints {
			if e.TargetRef != nil && (e.Conditions.Ready == nil || *e.Conditions.Ready) {
				node := ""
				if e.NodeName != nil {
					node = *e.NodeName
				}
				out[e.TargetRef.Namespace+"/"+e.TargetRef.Name] = node
			}
		}
	}
	return out
}

// staleRules names a node whose kube-proxy still forwards to a pod the
// slices no longer list as ready, or does not yet forward to one they
// do: the data plane's eventual consistency.
func staleRules(rules []engine.NodeRules, ready map[string]string) string {
	if len(ready) == 0 {
		return "" // the rules may fall back to terminating endpoints
	}
	for _, r := range rules {
		if !r.OK {
			continue
		}
		want := len(ready)
		if r.Local { // internalTrafficPolicy Local: only this node's pods
			want = 0
			for _, node := range ready {
				if node == r.Node {
					want++
				}
			}
			if want == 0 {
				continue
			}
		}
		for _, p := range r.Pods {
			if _, ok := ready[p]; p != "" && !ok {
				return fmt.Sprintf("kube-proxy on %s still forwards to %s · which its Service's slices no longer list as ready", r.Node, shortPod(p[strings.IndexByte(p, '/')+1:]))
			}
		}
		if len(r.Pods) < want {
			return fmt.Sprintf("kube-proxy on %s forwards to %d of the %d ready pods · it has not synced the newest slice yet", r.Node, len(r.Pods), want)
		}
	}
	return ""
}

// rulesArrows draws a kube-proxy sync: for each Service port it
// reprogrammed, an arrow from the Service down into the node.
func (l *layout) rulesArrows(t *trace.Tick) {
	node := l.boxes["Node/"+t.Host]
	if node == nil {
		node = l.boxes["nodes"]
	}
	for _, c := range t.Rules() {
		svc := l.boxes[c.Service.String()]
		if svc == nil || node == nil {
			continue
		}
		svc.Highlight = trace.Realize
		l.f.Arrows = append(l.f.Arrows, Arrow{X1: svc.X + svc.W/2, Y1: svc.Y + svc.H, X2: node.X + node.W/2, Y2: node.Y,
			Class: trace.Realize, Label: trace.Realize.Symbol() + " rules"})
	}
}
