package engine

// This file is the scenario's synthetic traffic: requests sent to a
// Service from the nodes, each routed by the sending node's kube-proxy
// rules as they are at that moment, and answered or not by the pod it
// reaches. Nothing changes between two ticks, so the requests due
// between them are all routed against the state the earlier tick left:
// a request at time t sees every tick at a time up to t. Each interval
// ends in a tick of the "traffic" actor that reports its counts.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/proxy"
	"github.com/stateflow/stateflow/engine/trace"
)

// TrafficStream is synthetic traffic a scenario sends to a Service port.
type TrafficStream struct {
	Service api.Key // Kind Service
	// Port is the Service port by name or number; "" is its first port.
	Port string
	// RPS is requests per second, spread evenly over time and, in turn,
	// over the sending nodes.
	RPS int
	// From and Until bound the requests in virtual milliseconds
	// [From, Until); Interval is the length of each reported interval.
	From, Until, Interval int64
	// Nodes send the requests; empty means every node.
	Nodes []string
}

// trafficState counts one stream's interval in progress.
type trafficState struct {
	next   int64 // index of the next request to send
	cur    trace.Traffic
	routes map[routeKey]int // → index in cur.Routes
	last   *trace.Traffic   // the last interval reported, shared with its tick
}

type routeKey struct {
	node, endpoint string
	rulesTick      int
	outcome        string
}

func (s trafficState) clone() trafficState {
	c := s
	c.cur.Routes = slices.Clone(s.cur.Routes)
	c.routes = make(map[routeKey]int, len(s.routes))
	for k, v := range s.routes {
		c.routes[k] = v
	}
	return c
}

// startTraffic sets up each stream's first interval and its report.
func (w *world) startTraffic(streams []TrafficStream) {
	w.traffic = make([]trafficState, len(streams))
	for i, s := range streams {
		w.traffic[i] = trafficState{cur: trace.Traffic{Service: s.Service, Port: s.Port, From: s.From}, routes: map[routeKey]int{}}
		w.schedule(item{at: min(s.From+s.Interval, s.Until), kind: kindTraffic, action: i})
	}
}

// requestTime is when request k of a stream goes out.
func (s *TrafficStream) requestTime(k int64) int64 { return s.From + k*1000/int64(s.RPS) }

// sendTraffic routes every request due before time to, against the world
// as it is now.
func (w *world) sendTraffic(streams []TrafficStream, to int64) {
	var joined []string // the default senders, found once: nothing changes between ticks
	for i := range streams {
		s, st := &streams[i], &w.traffic[i]
		for {
			t := s.requestTime(st.next)
			if t >= to || t >= s.Until {
				break
			}
			if joined == nil {
				joined = w.joinedNodes()
			}
			// The senders in turn; a named sender that has not joined
			// the cluster yet sends nothing.
			senders := joined
			if len(s.Nodes) > 0 {
				senders = s.Nodes
			}
			if len(senders) > 0 {
				if node := senders[st.next%int64(len(senders))]; len(s.Nodes) == 0 || slices.Contains(joined, node) {
					w.route(s, st, i, node, t)
				}
			}
			st.next++
		}
	}
}

// joinedNodes are the nodes with a kube-proxy whose node has joined the
// cluster (all of them unless a scenario adds nodes later).
func (w *world) joinedNodes() []string {
	out := w.proxyNodes[:0:0]
	for _, n := range w.proxyNodes {
		if _, p, ok := w.nodeProxy(n); ok && !p.Waiting() {
			out = append(out, n)
		}
	}
	if len(out) == len(w.proxyNodes) {
		return w.proxyNodes
	}
	return out
}

// route sends one request from node at time t and counts its outcome.
func (w *world) route(s *TrafficStream, st *trafficState, stream int, node string, t int64) {
	rk := routeKey{node: node, rulesTick: w.rulesTick[node]}
	var pod string
	rules, outcome := w.rulesFor(s, node)
	if rules != nil {
		if len(rules.Endpoints) == 0 {
			outcome = trace.NoEndpoints
		} else {
			ep := rules.Endpoints[pick(w.seed, stream, st.next, len(rules.Endpoints))]
			rk.endpoint, pod = ep.String(), ep.Pod
			outcome = w.answer(ep, t)
		}
	}
	rk.outcome = outcome
	i, ok := st.routes[rk]
	if !ok {
		i = len(st.cur.Routes)
		st.routes[rk] = i
		st.cur.Routes = append(st.cur.Routes, trace.Route{Node: node, Endpoint: rk.endpoint, Pod: pod, RulesTick: rk.rulesTick, Outcome: outcome, First: t})
	}
	r := &st.cur.Routes[i]
	r.Count++
	r.Last = t
	st.cur.Sent++
	if outcome == trace.Served {
		st.cur.Served++
	} else {
		st.cur.Failed++
	}
}

// rulesFor finds the sending node's rules for the stream's Service port,
// or says why it has none.
func (w *world) rulesFor(s *TrafficStream, node string) (*proxy.ServiceRules, string) {
	_, p, ok := w.nodeProxy(node)
	if !ok {
		return nil, trace.NoRules
	}
	if r, ok := p.Lookup(s.Service, s.Port); ok {
		return r, ""
	}
	if p.HasService(s.Service) {
		return nil, trace.NoSuchService
	}
	o, ok := w.store.Get(s.Service)
	if !ok {
		return nil, trace.NoService
	}
	switch svc := o.(*api.Service); {
	case svc.Spec.ClusterIP == "None" || svc.Spec.Type == "ExternalName":
		return nil, trace.HeadlessNoVIP
	case svc.Labels[proxy.LabelServiceProxyName] != "":
		return nil, trace.OtherProxy
	}
	return nil, trace.NoRules
}

// answer is what the endpoint's pod makes of a connection at time t.
func (w *world) answer(ep proxy.Endpoint, t int64) string {
	k, ok := w.kubelets[ep.Node]
	s, serves := w.comps[k].(podServer)
	ns, name, found := strings.Cut(ep.Pod, "/")
	if !ok || !serves || !found {
		return trace.PodGone
	}
	_, why := s.Accepts(api.Key{Kind: api.KindPod, Namespace: ns, Name: name}, ep.IP, ep.Port, t)
	return why
}

// pick chooses request k's endpoint among n, as iptables' random
// probabilities do, from the seed alone (splitmix64): the choice does
// not depend on how ticks split time, nor draw from the world's PRNG.
func pick(seed uint64, stream int, k int64, n int) int {
	z := seed ^ uint64(stream)<<40 ^ uint64(k) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z % uint64(n))
}

// reportTraffic is the tick that closes a stream's interval at the
// current time and opens the next.
func (e *Engine) reportTraffic(i int) *trace.Tick {
	w, s := e.w, &e.cfg.Traffic[i]
	st := &w.traffic[i]
	rep := st.cur
	rep.To = w.now
	t := &trace.Tick{Seq: w.ticks + 1, Time: w.now, Component: TrafficActor, Object: s.Service}
	t.SetTraffic(&rep)
	t.SetExplanation(w.lines.About(t.Object, DescribeTraffic(&rep)))
	st.last = t.Traffic()
	st.cur = trace.Traffic{Service: s.Service, Port: s.Port, From: w.now}
	st.routes = map[routeKey]int{}
	if w.now < s.Until {
		w.schedule(item{at: min(w.now+s.Interval, s.Until), kind: kindTraffic, action: i})
	}
	return t
}

// outcomeWords says an outcome in a learner's words.
var outcomeWords = map[string]string{
	trace.NoRules:       "the sending node's kube-proxy had no rules for the Service yet",
	trace.NoEndpoints:   "the rules listed no endpoint, so the connection was refused",
	trace.PodGone:       "the rules still listed a pod that was gone",
	trace.NotRunning:    "the pod's container was not running",
	trace.Terminating:   "the pod had got SIGTERM but the rules still listed it",
	trace.HeadlessNoVIP: "a headless or ExternalName Service has no virtual IP (clients use DNS, not simulated)",
	trace.NoSuchService: "the Service has no such port",
	trace.NoService:     "no Service of that name exists",
	trace.OtherProxy:    "the Service is handed to another proxy (service.kubernetes.io/service-proxy-name), not kube-proxy",
}

// OutcomeWords says why requests with this outcome failed.
func OutcomeWords(outcome string) string { return outcomeWords[outcome] }

// DescribeTraffic is a traffic interval in a sentence.
func DescribeTraffic(r *trace.Traffic) string {
	head := fmt.Sprintf("%d request(s) to %s in %s–%s: %d served", r.Sent, r.Service.Short(), trace.FormatTime(r.From), trace.FormatTime(r.To), r.Served)
	if r.Failed == 0 {
		return head + ", none failed"
	}
	by := r.FailedBy()
	var parts []string
	for _, o := range []string{trace.Terminating, trace.PodGone, trace.NotRunning, trace.NoEndpoints, trace.NoRules, trace.NoService, trace.HeadlessNoVIP, trace.OtherProxy, trace.NoSuchService} {
		if n := by[o]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d because %s", n, outcomeWords[o]))
		}
	}
	return fmt.Sprintf("%s, %d failed (%s)", head, r.Failed, strings.Join(parts, "; "))
}

// LastTraffic is the last interval reported of each stream sent to svc,
// as of the current tick.
func (e *Engine) LastTraffic(svc api.Key) []*trace.Traffic {
	var out []*trace.Traffic
	for i, s := range e.cfg.Traffic {
		if s.Service == svc && e.w.traffic[i].last != nil {
			out = append(out, e.w.traffic[i].last)
		}
	}
	return out
}

// NodeRules is what one node's kube-proxy forwards a Service's first port
// to: ok is false while it has no rules for the Service.
type NodeRules struct {
	Node      string
	Endpoints []string // "ip:port", sorted
	Pods      []string // the pod behind each, "" if none
	Local     bool     // internalTrafficPolicy Local: only this node's endpoints
	OK        bool
}

// ProxyRules is every joined node's programmed rules for svc's first
// port, by node name.
func (e *Engine) ProxyRules(svc api.Key) []NodeRules {
	nodes := e.w.joinedNodes()
	out := make([]NodeRules, 0, len(nodes))
	for _, node := range nodes {
		nr := NodeRules{Node: node}
		if r, ok := e.w.rules(node, svc, ""); ok {
			nr.OK, nr.Local = true, r.Local
			for _, ep := range r.Endpoints {
				nr.Endpoints = append(nr.Endpoints, ep.String())
				nr.Pods = append(nr.Pods, ep.Pod)
			}
		}
		out = append(out, nr)
	}
	return out
}
