package proxy

import (
	"cmp"
	"fmt"
	"maps"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/order"
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
	node string
	reconcile.Base
	// rules are what the last sync programmed; a sync replaces the map,
	// never changes it, so clones share it.
	rules rules
	// dirty are the Services whose Service or slices changed since the
	// last sync, as the change trackers record them: a sync rebuilds
	// only their rules (the others cannot have changed).
	dirty map[api.Key]bool
	// lastSync is when the last sync ran; synced says one has.
	lastSync int64
	synced   bool
	// waiting says the node has not joined the cluster yet: the proxier's
	// cache follows the watch, but it programs nothing until Start.
	waiting bool
}

// New returns the kube-proxy of node, with no rules programmed.
func New(node string) *Proxier {
	return &Proxier{node: node, Base: reconcile.NewBase(Name, node, informer.New(api.KindService, api.KindEndpointSlice)), rules: rules{}, dirty: map[api.Key]bool{}}
}

// NewWaiting returns the kube-proxy of a node that joins the cluster
// later (a scenario's add-node action): it syncs once Start is called.
func NewWaiting(node string) *Proxier {
	p := New(node)
	p.waiting = true
	return p
}

// Waiting says the proxier's node has not joined yet.
func (p *Proxier) Waiting() bool { return p.waiting }

// Start is kube-proxy starting on a node that has just joined: every
// Service it has seen needs rules; it returns the key to queue for the
// first sync.
func (p *Proxier) Start() api.Key {
	p.waiting = false
	for _, o := range p.Informer.List(api.KindService, "") {
		p.dirty[api.KeyOf(o)] = true
	}
	return p.syncKey()
}

// Clone implements reconcile.Component.
func (p *Proxier) Clone() reconcile.Component {
	c := *p
	c.Base = p.CloneBase()
	c.dirty = maps.Clone(p.dirty)
	return &c
}

// syncKey is the one key of the proxier's queue: a sync of the node's
// whole rule set.
func (p *Proxier) syncKey() api.Key { return api.Key{Kind: api.KindNode, Name: p.node} }

// Observe asks for a sync, as the Service and
// EndpointSlice change trackers' handlers call syncRunner.Run(): at once
// if the last sync ended at least minSyncPeriod ago, else when it has.
func (p *Proxier) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	if !proxied(ev.Object) && (ev.Old == nil || !proxied(ev.Old)) {
		return // never in the informer's view (an object that leaves it is a delete there)
	}
	svc := api.Key{Kind: api.KindService, Namespace: ev.Object.Meta().Namespace, Name: ev.Object.Meta().Name}
	if s, ok := ev.Object.(*api.EndpointSlice); ok {
		if svc.Name = s.Labels[api.LabelServiceName]; svc.Name == "" {
			return
		}
		if ev.Type == apiserver.Modified && ev.Old != nil && sliceEndpoints(ev.Old) == sliceEndpoints(s) {
			// EndpointSliceUpdate: no endpoint info changed (a label, the
			// trigger time), so no sync.
			return
		}
	} else if ev.Type == apiserver.Modified && ev.Old != nil && servicePorts(ev.Old) == servicePorts(ev.Object) {
		// ServiceChangeTracker.Update: a change the ServicePortMap does
		// not see (a selector, a label) asks for no sync.
		return
	}
	p.dirty[svc] = true
	if p.waiting {
		return
	}
	if wait := p.lastSync + MinSyncPeriodMS - q.Now(); p.synced && wait > 0 {
		q.AddAfter(p.syncKey(), wait)
		return
	}
	q.Add(p.syncKey())
}

// servicePorts is what of a Service reaches kube-proxy's ServicePortMap
// (serviceport.go): its virtual IP, type and policy and each port, or
// nothing for a Service it skips.
func servicePorts(o api.Object) string {
	svc := o.(*api.Service)
	if shouldSkipService(svc) || !proxied(svc) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|%s", svc.Spec.ClusterIP, svc.Spec.Type, svc.Spec.InternalTrafficPolicy)
	for _, p := range svc.Spec.Ports {
		fmt.Fprintf(&b, "|%s/%s/%d/%d", p.Name, p.Protocol, p.Port, p.NodePort)
	}
	return b.String()
}

// sliceEndpoints is what of a slice reaches kube-proxy's endpoints cache
// (endpointslicecache.go): its ports and each endpoint's address,
// conditions, node and zone, or nothing for a slice it does not see.
func sliceEndpoints(o api.Object) string {
	s := o.(*api.EndpointSlice)
	if !proxied(s) {
		return ""
	}
	var b strings.Builder
	b.WriteString(s.AddressType)
	for _, p := range s.Ports {
		fmt.Fprintf(&b, "|%s/%s/%d", deref(p.Name), deref(p.Protocol), deref(p.Port))
	}
	for _, e := range s.Endpoints {
		fmt.Fprintf(&b, "|%v/%s/%s/%s/%s/%s", e.Addresses, cond(e.Conditions.Ready), cond(e.Conditions.Serving), cond(e.Conditions.Terminating),
			deref(e.NodeName), deref(e.Zone))
	}
	return b.String()
}

// cond tells a nil condition (read as true) from false.
func cond(p *bool) string {
	if p == nil {
		return "-"
	}
	return strconv.FormatBool(*p)
}

func deref[T any](p *T) T {
	if p == nil {
		var z T
		return z
	}
	return *p
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

// Reconcile is a sync: rebuild the rules of the Services that changed
// since the last one (syncProxyRules) and program those that differ.
func (p *Proxier) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	if p.synced && tick.Now() < p.lastSync+MinSyncPeriodMS {
		// Defensive: Observe queues no sync sooner than this, but the
		// runner would still honour minSyncPeriod.
		wait := p.lastSync + MinSyncPeriodMS - tick.Now()
		tick.Explain("the last sync of %s's rules was less than minSyncPeriod (1s) ago; next sync in %s", p.node, trace.FormatTime(wait))
		return reconcile.Result{RequeueAfter: wait}, nil
	}
	next, changes := p.syncProxyRules()
	for _, c := range changes {
		for _, s := range p.Informer.List(api.KindEndpointSlice, c.Service.Namespace) {
			if s.Meta().Labels[api.LabelServiceName] == c.Service.Name {
				tick.Read(s)
			}
		}
		tick.Program(c)
	}
	p.rules, p.lastSync, p.synced = next, tick.Now(), true
	p.dirty = map[api.Key]bool{}
	tick.Explain("%s", explain(p.node, changes, len(next)))
	return reconcile.Result{}, nil
}

// syncProxyRules rebuilds the rules of the Services that changed since
// the last sync and says which Service ports' endpoints differ.
func (p *Proxier) syncProxyRules() (rules, []trace.RuleChange) {
	next := maps.Clone(p.rules)
	var keys []ServicePortName
	for svc := range p.dirty {
		for k := range p.rules {
			if k.Service == svc {
				delete(next, k)
				keys = append(keys, k)
			}
		}
		for k, r := range buildServiceRules(p.Informer, p.node, svc) {
			next[k] = r
			if _, had := p.rules[k]; !had {
				keys = append(keys, k)
			}
		}
	}
	order.SortFunc(keys, func(a, b ServicePortName) int {
		return cmp.Or(strings.Compare(a.Service.Namespace, b.Service.Namespace), strings.Compare(a.Service.Name, b.Service.Name), strings.Compare(a.Port, b.Port))
	})
	var changes []trace.RuleChange
	for _, k := range keys {
		if c, changed := diffPort(k, p.rules[k], next[k]); changed {
			changes = append(changes, c)
		}
	}
	return next, changes
}

// Lookup returns the programmed rules of a Service port on this node:
// the port by name or by number, or "" for the Service's first port.
func (p *Proxier) Lookup(svc api.Key, port string) (*ServiceRules, bool) {
	if r, ok := p.rules[ServicePortName{Service: svc, Port: port}]; ok && port != "" {
		return r, true
	}
	// The first port, or the port of that number (two ports may share a
	// number with different protocols: the first of them in spec order).
	var best *ServiceRules
	for k, r := range p.rules {
		if k.Service != svc || port != "" && strconv.Itoa(int(r.Port)) != port {
			continue
		}
		if best == nil || r.Index < best.Index {
			best = r
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

// diffPort compares one Service port's rules before and after a sync:
// the endpoints added and removed, from the two sorted lists.
func diffPort(k ServicePortName, old, next *ServiceRules) (trace.RuleChange, bool) {
	c := trace.RuleChange{Service: k.Service, Port: k.Port, Gone: next == nil}
	var a, b []Endpoint
	if old != nil {
		a = old.Endpoints
	}
	if next != nil {
		b = next.Endpoints
		c.Endpoints = len(b)
		c.Address = next.ClusterIP + ":" + strconv.Itoa(int(next.Port))
	}
	moved := old != nil && next != nil && (old.ClusterIP != next.ClusterIP || old.Port != next.Port || old.Local != next.Local)
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && a[i].String() < b[j].String():
			c.Removed = append(c.Removed, a[i].String())
			c.Pods = withPod(c.Pods, a[i])
			i++
		case i == len(a) || b[j].String() < a[i].String():
			c.Added = append(c.Added, b[j].String())
			c.Pods = withPod(c.Pods, b[j])
			j++
		default:
			i, j = i+1, j+1
		}
	}
	return c, old == nil || next == nil || moved || len(c.Added)+len(c.Removed) > 0
}

func withPod(m map[string]string, e Endpoint) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[e.String()] = e.Pod
	return m
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
	if c.Gone {
		return name + " removed"
	}
	var delta []string
	for _, e := range c.Added {
		delta = append(delta, "+"+podName(c, e))
	}
	for _, e := range c.Removed {
		delta = append(delta, "−"+podName(c, e))
	}
	if len(delta) > 6 {
		delta = append(delta[:6], fmt.Sprintf("and %d more", len(delta)-6))
	}
	what := fmt.Sprintf("%s now forwards to %d endpoint(s)", name, c.Endpoints)
	if c.Endpoints == 0 {
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
