package endpointslice

// This file is the reconciler of k8s.io/endpointslice (reconciler.go):
// it turns the desired endpoints and the existing slices into slices to
// create, update and delete, keeping changes few.

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/endpointutil"
	"github.com/stateflow/stateflow/engine/informer"
)

// plan is what a sync writes.
type plan struct {
	create, update, delete []*api.EndpointSlice
}

func (p plan) describe() string {
	var parts []string
	for _, s := range p.create {
		parts = append(parts, "creates a slice ("+summarize(s)+")")
	}
	for _, s := range p.update {
		parts = append(parts, "updates "+s.Name+" ("+summarize(s)+")")
	}
	for _, s := range p.delete {
		parts = append(parts, "deletes "+s.Name)
	}
	if len(parts) == 0 {
		return "; its EndpointSlices are up to date"
	}
	return "; " + strings.Join(parts, ", ")
}

// desired is the endpoints of one port mapping, in pod-name order
// (upstream pops them from a set in no defined order).
type desired struct {
	ports []api.EndpointPort // in NewPortMapKey's order (sortedPorts)
	order []string
	eps   map[string]api.Endpoint
}

func (d *desired) len() int { return len(d.eps) }

// take removes and returns the endpoint of key.
func (d *desired) take(key string) (api.Endpoint, bool) {
	e, ok := d.eps[key]
	delete(d.eps, key)
	return e, ok
}

// popAny is EndpointSet.PopAny: here the first left in pod-name order.
func (d *desired) popAny() api.Endpoint {
	for len(d.order) > 0 {
		k := d.order[0]
		d.order = d.order[1:]
		if e, ok := d.eps[k]; ok {
			delete(d.eps, k)
			return e
		}
	}
	panic("endpointslice: popAny of an empty set")
}

// plan is reconcile: desired endpoints by port mapping from the pods,
// each mapping reconciled against the slices that carry its ports, then
// the placeholder and finalize's merge of deletes into creates.
func (c *Controller) plan(svc *api.Service, pods []*api.Pod, existing []*api.EndpointSlice) (plan, error) {
	want := map[string]*desired{}
	var skipped []string
	for _, p := range pods {
		if !endpointutil.ShouldPodBeInEndpoints(p, true) {
			continue
		}
		node, ok := informer.Get[*api.Node](c.Informer, api.Key{Kind: api.KindNode, Name: p.Spec.NodeName})
		if !ok && !svc.Spec.PublishNotReadyAddresses {
			skipped = append(skipped, fmt.Sprintf("skipping Pod %s for Service %s/%s: Node %s Not Found", p.Name, svc.Namespace, svc.Name, p.Spec.NodeName))
			continue
		}
		ports := endpointPorts(svc, p)
		k := portMappingKey(ports)
		d := want[k]
		if d == nil {
			d = &desired{ports: sortedPorts(ports), eps: map[string]api.Endpoint{}}
			want[k] = d
		}
		ep := podToEndpoint(p, node, svc)
		ek := endpointKey(&ep)
		d.order = append(d.order, ek)
		d.eps[ek] = ep
	}
	var out plan
	byMapping := map[string][]*api.EndpointSlice{}
	for _, s := range existing {
		if !ownedBy(s, svc) || s.AddressType != api.AddressTypeIPv4 {
			out.delete = append(out.delete, s) // a slice of a former Service of that name
			continue
		}
		k := portMappingKey(s.Ports)
		byMapping[k] = append(byMapping[k], s)
	}
	keys := slices.Sorted(maps.Keys(want))
	for k := range byMapping {
		if _, ok := want[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		d := want[k]
		if d == nil {
			d = &desired{eps: map[string]api.Endpoint{}}
		}
		c.reconcileByPortMapping(svc, byMapping[k], d, &out)
	}
	out.placeholder(svc, existing)
	out.finalize(svc)
	switch len(skipped) {
	case 0:
	case 1:
		return out, errors.New(skipped[0])
	default: // utilerrors.NewAggregate's format
		return out, errors.New("[" + strings.Join(skipped, ", ") + "]")
	}
	return out, nil
}

func ownedBy(s *api.EndpointSlice, svc *api.Service) bool {
	ref := s.ControllerRef()
	return ref != nil && ref.Kind == api.KindService && ref.UID == svc.UID
}

// reconcileByPortMapping keeps the endpoints still wanted in each slice
// (updated where they changed), fills slices being updated with new
// endpoints, fullest first, then the unchanged slice that ends closest to
// full, then new slices.
func (c *Controller) reconcileByPortMapping(svc *api.Service, existing []*api.EndpointSlice, d *desired, out *plan) {
	labels := sliceLabels(svc)
	var update, unchanged []*api.EndpointSlice
	for _, s := range existing {
		var eps []api.Endpoint
		changed := false
		for i := range s.Endpoints {
			got, ok := d.take(endpointKey(&s.Endpoints[i]))
			if !ok {
				changed = true
				continue
			}
			eps = append(eps, got)
			changed = changed || !equalEndpoint(&got, &s.Endpoints[i])
		}
		labelsChanged := !maps.Equal(s.Labels, labels)
		switch {
		case len(eps) == 0:
			out.delete = append(out.delete, s)
		case changed || labelsChanged:
			// Upstream's NewPortMapKey sorted the cached slice's ports in
			// place, so what it writes back carries them sorted too.
			u := s.DeepCopy()
			u.Endpoints, u.Labels, u.Ports = eps, labels, sortedPorts(u.Ports)
			update = append(update, u)
		default:
			unchanged = append(unchanged, s)
		}
	}
	if d.len() > 0 && len(update) > 0 {
		sort.SliceStable(update, func(i, j int) bool { return len(update[i].Endpoints) > len(update[j].Endpoints) })
		for _, s := range update {
			for d.len() > 0 && len(s.Endpoints) < MaxEndpointsPerSlice {
				s.Endpoints = append(s.Endpoints, d.popAny())
			}
		}
	}
	for d.len() > 0 {
		var fill *api.EndpointSlice
		if d.len() < MaxEndpointsPerSlice && len(unchanged) > 0 {
			unchanged, fill = sliceToFill(unchanged, d.len())
		}
		created := fill == nil
		if created {
			fill = newSlice(svc, portsOf(d.ports))
		} else {
			fill = fill.DeepCopy()
			fill.Ports = sortedPorts(fill.Ports)
		}
		for d.len() > 0 && len(fill.Endpoints) < MaxEndpointsPerSlice {
			fill.Endpoints = append(fill.Endpoints, d.popAny())
		}
		if created {
			out.create = append(out.create, fill)
		} else {
			update = append(update, fill)
		}
	}
	out.update = append(out.update, update...)
}

// sliceToFill is getSliceToFill: the slice that ends closest to full
// once n endpoints are added, removed from the list.
func sliceToFill(list []*api.EndpointSlice, n int) ([]*api.EndpointSlice, *api.EndpointSlice) {
	best, diff := -1, MaxEndpointsPerSlice
	for i, s := range list {
		if d := MaxEndpointsPerSlice - (n + len(s.Endpoints)); d >= 0 && d < diff {
			best, diff = i, d
			if d == 0 {
				break
			}
		}
	}
	if best < 0 {
		return list, nil
	}
	s := list[best]
	return append(list[:best:best], list[best+1:]...), s
}

// placeholder keeps one empty slice when a Service would otherwise have
// none (reconcile in reconciler.go), reusing an existing placeholder.
func (p *plan) placeholder(svc *api.Service, existing []*api.EndpointSlice) {
	if len(existing) != len(p.delete) || len(p.create) > 0 {
		return
	}
	if len(p.delete) == 1 && isPlaceholder(p.delete[0], svc) {
		p.delete = p.delete[:0]
		return
	}
	p.create = append(p.create, newSlice(svc, nil))
}

func isPlaceholder(s *api.EndpointSlice, svc *api.Service) bool {
	return len(s.Endpoints) == 0 && len(s.Ports) == 0 && s.AddressType == api.AddressTypeIPv4 &&
		ownedBy(s, svc) && maps.Equal(s.Labels, sliceLabels(svc))
}

// finalize turns a create and a delete into an update of the deleted
// slice, so a slice's name survives a change of ports.
func (p *plan) finalize(svc *api.Service) {
	for i := 0; i < len(p.delete) && len(p.create) > 0; {
		del := p.delete[i]
		if del.AddressType != api.AddressTypeIPv4 || !ownedBy(del, svc) {
			i++
			continue
		}
		s := p.create[len(p.create)-1]
		p.create = p.create[:len(p.create)-1]
		s.Name, s.GenerateName, s.ResourceVersion, s.UID = del.Name, del.GenerateName, "", del.UID
		p.update = append(p.update, s)
		p.delete = append(p.delete[:i:i], p.delete[i+1:]...)
	}
}
