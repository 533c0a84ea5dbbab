package conformance

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	core "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	kubeproxy "k8s.io/kubernetes/pkg/proxy"
	proxyapis "k8s.io/kubernetes/pkg/proxy/apis"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/proxy"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// The kube-proxy replay. A kube-proxy tick is a sync of one node's rules
// (syncProxyRules); it writes nothing to the API server, so what is
// compared is the rules it leaves programmed. For each sync the harness
// hands the Services and EndpointSlices in the proxier's cache at that
// moment to upstream's pkg/proxy as kube-proxy's informers would: through
// the label selector of cmd/kube-proxy/app/server.go, into a
// ServiceChangeTracker / ServicePortMap and an EndpointsChangeTracker /
// EndpointsMap for the node (their Update, as syncProxyRules calls it),
// and then, for each Service port, CategorizeEndpoints with the node's
// name. The endpoints the port's ClusterIP rules hold are the
// clusterEndpoints, or with internalTrafficPolicy Local the
// localEndpoints (pkg/proxy/iptables/proxier.go's internalPolicyChain).
// Both sides are compared as sets of "ip:port", with the Service port's
// virtual IP, and the Service ports programmed at all.
//
// Assumptions, for what the simulator does not model:
//
//   - single-stack IPv4: the proxier is upstream's IPv4 one (a dual-stack
//     kube-proxy runs one per family; the IPv6 one would see no IPv6
//     slices and no IPv6 cluster IPs);
//   - no topology: the engine's slices carry no hints and its Services no
//     trafficDistribution, so CategorizeEndpoints' topology mode is ""
//     whatever the node's labels; the replay passes none;
//   - only internal (ClusterIP) traffic: the engine programs no NodePort,
//     external IP or load-balancer rules, so a NodePort Service is
//     compared on its ClusterIP rules, and externalTrafficPolicy is not
//     compared;
//   - a fresh rebuild per sync: upstream's trackers apply changes
//     incrementally, but what an Update leaves is a function of the
//     slices and Services applied so far (getEndpointsMap of the applied
//     slices, serviceToServiceMap of the Service), so building them from
//     the cache at the sync is the same.
//
// One choice upstream leaves to map order: an "ip:port" listed in two
// slices of a Service with different conditions is kept from whichever
// slice endpointInfoByServicePort meets last (a Go map's order; a local
// copy wins), the engine's from the first in slice-name order. No
// allowance covers it: none of the scenarios' syncs ever held the same
// endpoint twice, so should one differ for that reason it will show.

// portRules are one Service port's rules as compared: its virtual IP
// ("clusterIP:port") and its endpoints ("ip:port", sorted).
type portRules struct {
	vip       string
	endpoints []string
}

func (r portRules) String() string { return "[" + strings.Join(r.endpoints, " ") + "]" }

// proxySelector is the label selector of kube-proxy's informers
// (cmd/kube-proxy/app/server.go): Services and EndpointSlices another
// proxy owns, or a headless Service's slices, never reach the proxier.
func proxySelector() labels.Selector {
	noProxyName, err := labels.NewRequirement(proxyapis.LabelServiceProxyName, selection.DoesNotExist, nil)
	if err != nil {
		panic(err)
	}
	noHeadless, err := labels.NewRequirement(core.IsHeadlessService, selection.DoesNotExist, nil)
	if err != nil {
		panic(err)
	}
	return labels.NewSelector().Add(*noProxyName, *noHeadless)
}

// nodeTickInput is what a node's component had at a tick: its cache (a
// kube-proxy writes nothing, so the cache after its tick is the one the
// tick read) and the component before and after it. The API server's
// objects are not needed.
func nodeTickInput(tk *trace.Tick, comp reconcile.Component) (*tickInput, error) {
	if comp == nil {
		return nil, fmt.Errorf("no %s on %s", tk.Component, tk.Host)
	}
	return &tickInput{tick: tk, view: comp.Cache(), clock: newClock(tk.Time), comp: comp}, nil
}

// componentOn is the engine's component of that name on host ("" for the
// control plane's), as it is now.
func componentOn(e *engine.Engine, name, host string) reconcile.Component {
	for _, c := range e.Components() {
		if c.Name() == name && c.Host() == host {
			return c
		}
	}
	return nil
}

// actorOf names a component as trace.Tick.Actor names its ticks.
func actorOf(c reconcile.Component) string {
	if c.Host() == "" {
		return c.Name()
	}
	return c.Name() + "(" + c.Host() + ")"
}

// replayKubeProxy computes upstream's rules for the tick's node from the
// proxier's cache, and reads the engine's.
func replayKubeProxy(_ context.Context, in *tickInput) (outcome, error) {
	p, ok := in.comp.(*proxy.Proxier)
	if !ok {
		return outcome{}, fmt.Errorf("the %s of %s is a %T", in.tick.Component, in.tick.Host, in.comp)
	}
	before, _ := in.before.(*proxy.Proxier)
	var out outcome
	switch {
	case synced(before, p):
		theirs, err := upstreamRules(in)
		if err != nil {
			return outcome{}, err
		}
		out = outcome{proxyRules: theirs, engineProxyRules: engineRules(p, theirs)}
	case before != nil:
		// The runner's defensive wait (the last sync was less than
		// minSyncPeriod ago): no sync, so the rules stay as they were.
		out = outcome{proxyRules: engineRules(before, nil), engineProxyRules: engineRules(p, nil)}
	default:
		return outcome{skip: true}, nil
	}
	if before == nil {
		return out, nil // the rules before the tick are unknown
	}
	// The trace must say what the tick changed: the Service ports whose
	// rules differ from those the node held before.
	out.ruleChanges = ruleChanges(engineRules(before, nil), engineRules(p, nil))
	for _, c := range in.tick.Rules() {
		out.engineRuleChanges = append(out.engineRuleChanges, ruleChangeLine(portKey(c.Service, c.Port), c.Added, c.Removed, c.Endpoints, c.Gone))
	}
	return out, nil
}

// synced says whether the proxier's tick was a sync: its last sync is
// not the one it had before the tick (two syncs are never in the same
// millisecond: minSyncPeriod).
func synced(before, after *proxy.Proxier) bool {
	if !field(after, "synced").Bool() {
		return false
	}
	return before == nil || !field(before, "synced").Bool() || field(before, "lastSync").Int() != field(after, "lastSync").Int()
}

// upstreamRules is what upstream's pkg/proxy programs on the tick's node
// for each Service port, from the Services and EndpointSlices in view.
func upstreamRules(in *tickInput) (rules map[string]portRules, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("upstream's pkg/proxy panicked on the cache of %s: %v", in.tick.Host, r)
		}
	}()
	node := in.tick.Host
	sel := proxySelector()
	services := kubeproxy.NewServiceChangeTracker(core.IPv4Protocol, nil, nil)
	for _, o := range in.view.List(api.KindService, "") {
		k, err := in.clock.toK8s(o)
		if err != nil {
			return nil, err
		}
		svc := k.(*core.Service)
		// The Service informer's field selector too: spec.clusterIP!=None.
		if !sel.Matches(labels.Set(svc.Labels)) || svc.Spec.ClusterIP == core.ClusterIPNone {
			continue
		}
		services.Update(nil, svc)
	}
	endpoints := kubeproxy.NewEndpointsChangeTracker(core.IPv4Protocol, node, nil, nil)
	for _, o := range in.view.List(api.KindEndpointSlice, "") {
		k, err := in.clock.toK8s(o)
		if err != nil {
			return nil, err
		}
		s := k.(*discovery.EndpointSlice)
		if !sel.Matches(labels.Set(s.Labels)) {
			continue
		}
		endpoints.EndpointSliceUpdate(s, false)
	}
	svcPortMap := kubeproxy.ServicePortMap{}
	svcPortMap.Update(services)
	endpointsMap := kubeproxy.EndpointsMap{}
	endpointsMap.Update(endpoints)

	rules = map[string]portRules{}
	for name, svcInfo := range svcPortMap {
		clusterEndpoints, localEndpoints, _, _ := kubeproxy.CategorizeEndpoints(endpointsMap[name], svcInfo, node, nil)
		// The ClusterIP rules jump to internalPolicyChain: the Cluster
		// policy's chain, or with internalTrafficPolicy Local the Local
		// policy's (syncProxyRules).
		eps := clusterEndpoints
		if svcInfo.InternalPolicyLocal() {
			eps = localEndpoints
		}
		r := portRules{vip: fmt.Sprintf("%s:%d", svcInfo.ClusterIP(), svcInfo.Port()), endpoints: []string{}}
		for _, ep := range eps {
			r.endpoints = append(r.endpoints, ep.String())
		}
		sort.Strings(r.endpoints)
		rules[name.String()] = r
	}
	return rules, nil
}

// portKey names a Service port as upstream's ServicePortName.String does:
// "namespace/name:port", "namespace/name" for an unnamed port.
func portKey(svc api.Key, port string) string {
	if port == "" {
		return svc.Namespace + "/" + svc.Name
	}
	return svc.Namespace + "/" + svc.Name + ":" + port
}

// engineRules are the rules p holds: for each Service port upstream
// programs (ports, when not nil), what Lookup returns, and every other
// Service port the proxier holds rules for (which upstream would not
// program: read from its rule set, which it keeps unexported and offers
// no listing of).
func engineRules(p *proxy.Proxier, ports map[string]portRules) map[string]portRules {
	var all map[proxy.ServicePortName]*proxy.ServiceRules
	all = field(p, "rules").Convert(reflect.TypeOf(all)).Interface().(map[proxy.ServicePortName]*proxy.ServiceRules)
	out := map[string]portRules{}
	add := func(key string, r *proxy.ServiceRules) {
		pr := portRules{vip: fmt.Sprintf("%s:%d", r.ClusterIP, r.Port), endpoints: []string{}}
		for _, ep := range r.Endpoints {
			pr.endpoints = append(pr.endpoints, ep.String())
		}
		sort.Strings(pr.endpoints)
		out[key] = pr
	}
	for k, r := range all {
		if _, upstream := ports[portKey(k.Service, k.Port)]; !upstream {
			add(portKey(k.Service, k.Port), r)
		}
	}
	for key := range ports {
		svc, port, _ := strings.Cut(key, ":")
		ns, name, _ := strings.Cut(svc, "/")
		if r, ok := p.Lookup(api.Key{Kind: api.KindService, Namespace: ns, Name: name}, port); ok {
			add(key, r)
		}
	}
	return out
}

// ruleChanges lists, as ruleChangeLine does, the Service ports whose
// rules differ between two rule sets.
func ruleChanges(old, next map[string]portRules) []string {
	var out []string
	for _, k := range sortedKeys(old, next) {
		o, hadOld := old[k]
		n, hasNew := next[k]
		if hadOld && hasNew && slices.Equal(o.endpoints, n.endpoints) {
			continue
		}
		var added, removed []string
		for _, e := range n.endpoints {
			if !slices.Contains(o.endpoints, e) {
				added = append(added, e)
			}
		}
		for _, e := range o.endpoints {
			if !slices.Contains(n.endpoints, e) {
				removed = append(removed, e)
			}
		}
		out = append(out, ruleChangeLine(k, added, removed, len(n.endpoints), !hasNew))
	}
	return out
}

// ruleChangeLine is one Service port's change of rules, in comparable
// form: "ns/name:port +[added] −[removed] = n" (or "removed").
func ruleChangeLine(key string, added, removed []string, n int, gone bool) string {
	added, removed = slices.Sorted(slices.Values(added)), slices.Sorted(slices.Values(removed))
	if gone {
		return fmt.Sprintf("%s −[%s] → removed", key, strings.Join(removed, " "))
	}
	return fmt.Sprintf("%s +[%s] −[%s] = %d", key, strings.Join(added, " "), strings.Join(removed, " "), n)
}

// diffProxyRules reports the Service ports programmed on one side only,
// and those whose virtual IP or endpoints differ.
func diffProxyRules(ours, theirs map[string]portRules) []string {
	var lines []string
	for _, k := range sortedKeys(ours, theirs) {
		o, okO := ours[k]
		t, okT := theirs[k]
		switch {
		case !okT:
			lines = append(lines, fmt.Sprintf("- engine:   rules %s (%s) %s", k, o.vip, o))
		case !okO:
			lines = append(lines, fmt.Sprintf("+ upstream: rules %s (%s) %s", k, t.vip, t))
		default:
			if o.vip != t.vip {
				lines = append(lines, fmt.Sprintf("~ rules %s virtual IP: engine %s, upstream %s", k, o.vip, t.vip))
			}
			if !slices.Equal(o.endpoints, t.endpoints) {
				lines = append(lines, fmt.Sprintf("~ rules %s endpoints: engine %s, upstream %s", k, o, t))
			}
		}
	}
	return lines
}

// diffTrace reports the rule changes the tick's trace records that the
// proxier's rules did not make, and those they made that it does not
// record.
func diffTrace(recorded, made []string) []string {
	var lines []string
	for _, l := range diffLists(recorded, made) {
		switch {
		case strings.HasPrefix(l, "- engine:   "):
			lines = append(lines, "- trace records, not made: "+strings.TrimPrefix(l, "- engine:   "))
		case strings.HasPrefix(l, "+ upstream: "):
			lines = append(lines, "+ rules made, not in the trace: "+strings.TrimPrefix(l, "+ upstream: "))
		}
	}
	return lines
}
