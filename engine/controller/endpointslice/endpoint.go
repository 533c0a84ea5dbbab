package endpointslice

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/endpointutil"
	"github.com/stateflow/stateflow/engine/order"
)

// ZoneLabel is the node label an endpoint's zone comes from.
const ZoneLabel = "topology.kubernetes.io/zone"

func ptr[T any](v T) *T { return &v }

// podToEndpoint is podToEndpoint (k8s.io/endpointslice/utils.go).
func podToEndpoint(p *api.Pod, node *api.Node, svc *api.Service) api.Endpoint {
	serving := api.IsPodReady(p)
	terminating := p.DeletionTimestamp != nil
	ready := svc.Spec.PublishNotReadyAddresses || serving && !terminating
	ep := api.Endpoint{
		Addresses:  []string{p.Status.PodIP},
		Conditions: api.EndpointConditions{Ready: ptr(ready), Serving: ptr(serving), Terminating: ptr(terminating)},
		TargetRef:  &api.ObjectReference{Kind: api.KindPod, Namespace: p.Namespace, Name: p.Name, UID: p.UID},
	}
	if p.Spec.NodeName != "" {
		ep.NodeName = ptr(p.Spec.NodeName)
	}
	if node != nil && node.Labels[ZoneLabel] != "" {
		ep.Zone = ptr(node.Labels[ZoneLabel])
	}
	if endpointutil.ShouldSetHostname(p, svc) {
		ep.Hostname = ptr(p.Spec.Hostname)
	}
	return ep
}

// endpointPorts is getEndpointPorts: each Service port resolved against
// the pod's containers; a named target port the pod lacks is left out.
func endpointPorts(svc *api.Service, p *api.Pod) []api.EndpointPort {
	out := []api.EndpointPort{}
	for _, sp := range svc.Spec.Ports {
		port, ok := endpointutil.FindPort(p, &sp)
		if !ok {
			continue
		}
		ep := api.EndpointPort{Name: ptr(sp.Name), Port: ptr(port), Protocol: ptr(sp.Protocol)}
		if sp.AppProtocol != "" {
			ep.AppProtocol = ptr(sp.AppProtocol)
		}
		out = append(out, ep)
	}
	return out
}

// portMappingKey identifies a list of endpoint ports whatever their
// order, as upstream's PortMapKey does (NewPortMapKey: the hash of the
// list sorted by portsInOrder). It is a key only: upstream visits its
// port mappings in map order, the engine in the order of these keys.
// Like upstream's hash it includes appProtocol, so a Service whose
// appProtocol changes moves its endpoints to slices with the new ports;
// it tells a nil list from an empty one no more than the stored slices do
// (see the conformance harness's portless-slice-churn allowance).
func portMappingKey(ports []api.EndpointPort) string {
	var b strings.Builder
	for _, p := range order.Sorted(slices.Values(ports), func(a, b api.EndpointPort) int {
		return cmp.Or(cmp.Compare(deref(a.Name), deref(b.Name)), cmp.Compare(deref(a.Protocol), deref(b.Protocol)), cmp.Compare(deref(a.Port), deref(b.Port)))
	}) {
		b.WriteString(deref(p.Name))
		b.WriteByte('/')
		b.WriteString(deref(p.Protocol))
		b.WriteByte('/')
		b.WriteString(strconv.Itoa(int(deref(p.Port))))
		b.WriteByte('/')
		b.WriteString(deref(p.AppProtocol))
		b.WriteByte(';')
	}
	return b.String()
}

// sortedPorts returns the ports in the order NewPortMapKey leaves them
// in, which becomes the slice's ports (endpointutil.PortsInOrder).
func sortedPorts(ports []api.EndpointPort) []api.EndpointPort {
	return endpointutil.PortsInOrder(ports)
}

func deref[T any](p *T) T {
	if p == nil {
		var z T
		return z
	}
	return *p
}

// endpointKey identifies an endpoint across syncs (its addresses and
// target, as endpointsliceutil's EndpointSet hashes them).
func endpointKey(e *api.Endpoint) string {
	k := strings.Join(e.Addresses, ",")
	if e.TargetRef != nil {
		k += "/" + e.TargetRef.Namespace + "/" + e.TargetRef.Name
	}
	return k
}

// equalEndpoint reports whether two endpoints say the same.
func equalEndpoint(a, b *api.Endpoint) bool {
	return slices.Equal(a.Addresses, b.Addresses) &&
		deref(a.Conditions.Ready) == deref(b.Conditions.Ready) && deref(a.Conditions.Serving) == deref(b.Conditions.Serving) &&
		deref(a.Conditions.Terminating) == deref(b.Conditions.Terminating) &&
		deref(a.Hostname) == deref(b.Hostname) && deref(a.NodeName) == deref(b.NodeName) && deref(a.Zone) == deref(b.Zone) &&
		(a.TargetRef == nil) == (b.TargetRef == nil) && (a.TargetRef == nil || *a.TargetRef == *b.TargetRef)
}
