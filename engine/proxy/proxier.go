package proxy

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace.
const Name = "kube-proxy"

// MinSyncPeriodMS is iptables.minSyncPeriod and nftables.minSyncPeriod:
// the least time between the end of one sync and the start of the next
// (pkg/proxy/apis/config/v1alpha1/defaults.go).
const MinSyncPeriodMS = 1000

// Proxier is the kube-proxy of one node.
type Proxier struct {
	node  string
	cache *informer.Cache
	// rules are what the last sync programmed; a sync replaces the map,
	// never changes it, so clones share it.
	rules rules
	// lastSync is when the last sync ran; synced says one has.
	lastSync int64
	synced   bool
}

// New returns the kube-proxy of node, with no rules programmed.
func New(node string) *Proxier {
	return &Proxier{node: node, cache: informer.New(api.KindService, api.KindEndpointSlice), rules: rules{}}
}

// Name implements reconcile.Component.
func (p *Proxier) Name() string { return Name }

// Host implements reconcile.Component: the node whose rules it programs.
func (p *Proxier) Host() string { return p.node }

// Watches implements reconcile.Component.
func (p *Proxier) Watches() []string { return p.cache.Watches() }

// Cache implements reconcile.Component.
func (p *Proxier) Cache() *informer.Cache { return p.cache }

// Clone implements reconcile.Component.
func (p *Proxier) Clone() reconcile.Component {
	c := *p
	c.cache = p.cache.Clone()
	return &c
}

// syncKey is the one key of the proxier's queue: a sync of the node's
// whole rule set.
func (p *Proxier) syncKey() api.Key { return api.Key{Kind: api.KindNode, Name: p.node} }

// Observe applies the event and asks for a sync, as the Service and
// EndpointSlice change trackers' handlers call syncRunner.Run(): at once
// if the last sync ended at least minSyncPeriod ago, else when it has.
func (p *Proxier) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	p.cache.Apply(ev)
	if !proxied(ev.Object) {
		return
	}
	if s, ok := ev.Object.(*api.EndpointSlice); ok && s.Labels[api.LabelServiceName] == "" {
		return
	}
	if wait := p.lastSync + MinSyncPeriodMS - q.Now(); p.synced && wait > 0 {
		q.AddAfter(p.syncKey(), wait)
		return
	}
	q.Add(p.syncKey())
}

// LabelServiceProxyName hands a Service to another proxy.
const LabelServiceProxyName = "service.kubernetes.io/service-proxy-name"

// proxied is kube-proxy's informers' label selector
// (cmd/kube-proxy/app/server.go): no service-proxy-name label, and no
// headless label (which the endpointslice-controller puts on a
// headless Service's slices), so those never reach the proxier.
func proxied(o api.Object) bool {
	_, other := o.Meta().Labels[LabelServiceProxyName]
	_, headless := o.Meta().Labels[api.LabelHeadless]
	return !other && !headless
}

// Reconcile is syncProxyRules: rebuild every Service port's rules from
// the cache and program those that changed.
func (p *Proxier) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	if p.synced && tick.Now() < p.lastSync+MinSyncPeriodMS {
		// Defensive: Observe queues no sync sooner than this, but the
		// runner would still honour minSyncPeriod.
		wait := p.lastSync + MinSyncPeriodMS - tick.Now()
		tick.Explain("the last sync of %s's rules was less than minSyncPeriod (1s) ago; next sync in %s", p.node, trace.FormatTime(wait))
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	next := buildRules(p.cache, p.node)
	changes := diffRules(p.rules, next)
	for _, c := range changes {
		for _, s := range p.cache.List(api.KindEndpointSlice, c.Service.Namespace) {
			if s.Meta().Labels[api.LabelServiceName] == c.Service.Name {
				tick.Read(s)
			}
		}
		tick.Program(c)
	}
	p.rules, p.lastSync, p.synced = next, tick.Now(), true
	tick.Explain("%s", explain(p.node, changes, len(next)))
	return reconcile.Result{}, nil
}

// Lookup returns the programmed rules of a Service port on this node:
// the port by name or by number, or "" for the Service's first port.
func (p *Proxier) Lookup(svc api.Key, port string) (*ServiceRules, bool) {
	if r, ok := p.rules[ServicePortName{Service: svc, Port: port}]; ok && port != "" {
		return r, true
	}
	var best *ServiceRules
	for k, r := range p.rules {
		if k.Service != svc {
			continue
		}
		switch {
		case port == "" && (best == nil || r.Index < best.Index):
			best = r
		case port != "" && strconv.Itoa(int(r.Port)) == port:
			return r, true
		}
	}
	return best, best != nil
}

// HasService says whether any port of the Service has rules here.
func (p *Proxier) HasService(svc api.Key) bool {
	for k := range p.rules {
		if k.Service == svc {
			return true
		}
	}
	return false
}

// diffRules lists the Service ports whose endpoints differ, sorted.
func diffRules(old, next rules) []trace.RuleChange {
	var out []trace.RuleChange
	keys := slices.Collect(maps.Keys(old))
	for k := range next {
		if _, ok := old[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b ServicePortName) int {
		return strings.Compare(a.Service.String()+":"+a.Port, b.Service.String()+":"+b.Port)
	})
	for _, k := range keys {
		o, n := old[k], next[k]
		from, to := endpointList(o), endpointList(n)
		if o != nil && n != nil && slices.Equal(from, to) {
			continue
		}
		c := trace.RuleChange{Service: k.Service, Port: k.Port, From: from, To: to, Removed: n == nil, Pods: map[string]string{}}
		for _, r := range []*ServiceRules{o, n} {
			if r != nil {
				for _, e := range r.Endpoints {
					c.Pods[e.String()] = e.Pod
				}
			}
		}
		out = append(out, c)
	}
	return out
}

func endpointList(r *ServiceRules) []string {
	if r == nil {
		return nil
	}
	out := make([]string, len(r.Endpoints))
	for i, e := range r.Endpoints {
		out[i] = e.String()
	}
	return out
}

// explain says what a sync programmed, naming pods, not addresses.
func explain(node string, changes []trace.RuleChange, ports int) string {
	if len(changes) == 0 {
		return fmt.Sprintf("synced the rules of %d Service port(s) on %s; nothing changed", ports, node)
	}
	parts := make([]string, len(changes))
	for i, c := range changes {
		parts[i] = DescribeChange(c)
	}
	return "programmed " + node + "'s rules: " + strings.Join(parts, "; ")
}

// DescribeChange says what one rule change did: "svc/web now forwards to
// 2 endpoints (+web-1, −web-0)".
func DescribeChange(c trace.RuleChange) string {
	name := c.Service.Short()
	if c.Port != "" {
		name += ":" + c.Port
	}
	if c.Removed {
		return name + " removed"
	}
	var delta []string
	for _, e := range c.To {
		if !slices.Contains(c.From, e) {
			delta = append(delta, "+"+podName(c, e))
		}
	}
	for _, e := range c.From {
		if !slices.Contains(c.To, e) {
			delta = append(delta, "−"+podName(c, e))
		}
	}
	what := fmt.Sprintf("%s now forwards to %d endpoint(s)", name, len(c.To))
	if len(c.To) == 0 {
		what = name + " now rejects every connection (no endpoints)"
	}
	if len(delta) > 0 {
		what += " (" + strings.Join(delta, ", ") + ")"
	}
	return what
}

// podName is the endpoint's pod name, or its address if it has none.
func podName(c trace.RuleChange, ep string) string {
	if p := c.Pods[ep]; p != "" {
		return p[strings.IndexByte(p, '/')+1:]
	}
	return ep
}
