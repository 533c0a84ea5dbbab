package proxy

// This file is what a sync programs: each Service port's endpoints, from
// the slices in the cache (pkg/proxy/endpointslicecache.go) and
// categorised as pkg/proxy/topology.go's CategorizeEndpoints does.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/order"
)

// ServicePortName names one port of one Service, as pkg/proxy does.
type ServicePortName struct {
	Service api.Key // Kind Service
	Port    string  // the port's name, "" for an unnamed port
}

// Endpoint is one address a Service port forwards to.
type Endpoint struct {
	IP          string
	Port        int32
	Pod         string // "namespace/name" of the target, "" if none
	Node        string
	Ready       bool
	Serving     bool
	Terminating bool
	key         string // "ip:port", made once
}

// String is the endpoint as the rules hold it: "ip:port".
func (e Endpoint) String() string {
	if e.key != "" {
		return e.key
	}
	return e.IP + ":" + strconv.Itoa(int(e.Port))
}

// ServiceRules are the programmed rules of one Service port: where its
// virtual IP forwards. Never changed once built.
type ServiceRules struct {
	ClusterIP string
	Port      int32
	// Endpoints are those the node forwards to, sorted by address.
	Endpoints []Endpoint
	// Local says internalTrafficPolicy Local narrowed them to this node.
	Local bool
	// Index is the port's place in the Service's spec.ports.
	Index int
}

// rules is a node's whole rule set.
type rules map[ServicePortName]*ServiceRules

// buildServiceRules is syncProxyRules' view of one Service in the cache:
// the rules each of its ports should have on node (none when the Service
// is gone or not proxied).
func buildServiceRules(c *informer.Cache, node string, key api.Key) map[ServicePortName]*ServiceRules {
	o, ok := c.Get(key)
	if !ok {
		return nil
	}
	svc := o.(*api.Service)
	if shouldSkipService(svc) || !proxied(svc) {
		return nil
	}
	var ss []*api.EndpointSlice
	for _, o := range c.List(api.KindEndpointSlice, key.Namespace) {
		s := o.(*api.EndpointSlice)
		if s.Labels[api.LabelServiceName] == key.Name && s.AddressType == api.AddressTypeIPv4 && proxied(s) {
			ss = append(ss, s)
		}
	}
	out := make(map[ServicePortName]*ServiceRules, len(svc.Spec.Ports))
	local := svc.Spec.InternalTrafficPolicy == "Local"
	for i, sp := range svc.Spec.Ports {
		out[ServicePortName{Service: key, Port: sp.Name}] = &ServiceRules{ClusterIP: svc.Spec.ClusterIP, Port: sp.Port,
			Endpoints: categorize(endpointsFor(ss, sp), local, node), Local: local, Index: i}
	}
	return out
}

// shouldSkipService is pkg/proxy/util.ShouldSkipService: headless and
// ExternalName Services have no virtual IP to program.
func shouldSkipService(svc *api.Service) bool {
	return svc.Spec.ClusterIP == "" || svc.Spec.ClusterIP == "None" || svc.Spec.Type == "ExternalName"
}

// endpointsFor lists the endpoints of one Service port across its slices
// (in slice name order), each address once, as the endpointslice cache
// merges them.
func endpointsFor(ss []*api.EndpointSlice, sp api.ServicePort) []Endpoint {
	slices.SortFunc(ss, func(a, b *api.EndpointSlice) int { return strings.Compare(a.Name, b.Name) })
	seen := make(map[string]bool, len(ss)*8)
	var out []Endpoint
	for _, s := range ss {
		port, ok := slicePort(s, sp)
		if !ok {
			continue
		}
		for _, e := range s.Endpoints {
			if len(e.Addresses) == 0 {
				continue
			}
			ep := Endpoint{IP: e.Addresses[0], Port: port, key: e.Addresses[0] + ":" + strconv.Itoa(int(port)),
				Ready:       e.Conditions.Ready == nil || *e.Conditions.Ready,
				Serving:     e.Conditions.Serving == nil || *e.Conditions.Serving,
				Terminating: e.Conditions.Terminating != nil && *e.Conditions.Terminating}
			if e.TargetRef != nil {
				ep.Pod = e.TargetRef.Namespace + "/" + e.TargetRef.Name
			}
			if e.NodeName != nil {
				ep.Node = *e.NodeName
			}
			if !seen[ep.key] {
				seen[ep.key] = true
				out = append(out, ep)
			}
		}
	}
	return out
}

// slicePort is the slice's port for the Service port: the one of the same
// name and protocol.
func slicePort(s *api.EndpointSlice, sp api.ServicePort) (int32, bool) {
	proto := sp.Protocol
	if proto == "" {
		proto = "TCP"
	}
	for _, p := range s.Ports {
		name, pp := "", "TCP"
		if p.Name != nil {
			name = *p.Name
		}
		if p.Protocol != nil {
			pp = *p.Protocol
		}
		if name == sp.Name && pp == proto && p.Port != nil {
			return *p.Port, true
		}
	}
	return 0, false
}

// categorize is CategorizeEndpoints for a Service without topology hints:
// the ready endpoints, or, when none is ready, the serving ones that are
// terminating; with the Local policy, the same among this node's.
func categorize(all []Endpoint, local bool, node string) []Endpoint {
	if local {
		var mine []Endpoint
		for _, e := range all {
			if e.Node == node {
				mine = append(mine, e)
			}
		}
		all = mine
	}
	out := filter(all, func(e Endpoint) bool { return e.Ready })
	if len(out) == 0 {
		out = filter(all, func(e Endpoint) bool { return e.Serving && e.Terminating })
	}
	order.SortFunc(out, func(a, b Endpoint) int { return strings.Compare(a.key, b.key) })
	return out
}

func filter(eps []Endpoint, keep func(Endpoint) bool) []Endpoint {
	var out []Endpoint
	for _, e := range eps {
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}
