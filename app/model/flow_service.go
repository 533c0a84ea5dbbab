package model

// This file draws Services beside the pods they select: how many
// endpoints their EndpointSlices list and how many are ready, the
// readiness that flows sideways from Pod status into the slices.

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// services are the Services' boxes, drawn in a column at the pods'
// row.
func (s *scene) services(objs []api.Object) []*Box {
	counts := s.m.endpointCounts()
	out := make([]*Box, 0, len(objs))
	for _, o := range objs {
		svc := o.(*api.Service)
		c := counts[api.Key{Namespace: svc.Namespace, Name: svc.Name}]
		b := objectBox(svc, "svc/"+svc.Name)
		b.Lines = []string{svc.Spec.Type + " " + clusterIPOf(svc), endpointsLine(svc, c)}
		more, stale, failing := s.m.dataPlane(svc)
		b.Lines = append(b.Lines, more...)
		b.Stale, b.Spark = stale, s.m.sparkline(api.KeyOf(svc))
		switch {
		case failing:
			b.Status = "bad"
		case svc.Spec.Selector == nil:
			b.Status = "ok"
		case c.total == 0:
			b.Status = "bad"
		case c.ready < c.total:
			b.Status = "progress"
		default:
			b.Status = "ok"
		}
		out = append(out, b)
	}
	return out
}

// endpointCount is what a Service's slices list.
type endpointCount struct{ ready, total int }

func (m *Model) endpointCounts() map[api.Key]endpointCount {
	out := map[api.Key]endpointCount{}
	m.eng.Store().Each(api.KindEndpointSlice, func(o api.Object) bool {
		s := o.(*api.EndpointSlice)
		k := api.Key{Namespace: s.Namespace, Name: s.Labels[api.LabelServiceName]}
		c := out[k]
		c.ready += s.ReadyCount()
		c.total += len(s.Endpoints)
		out[k] = c
		return true
	})
	return out
}

func clusterIPOf(svc *api.Service) string {
	if svc.Spec.ClusterIP == "" {
		return svc.Spec.ExternalName
	}
	return svc.Spec.ClusterIP
}

func endpointsLine(svc *api.Service, c endpointCount) string {
	switch {
	case svc.Spec.Selector == nil:
		return "no selector: endpoints by hand"
	case c.total == 0:
		return "no endpoints: selects no pod with an IP"
	}
	return fmt.Sprintf("endpoints %d/%d ready", c.ready, c.total)
}

// serviceOf is the Service an EndpointSlice's or Endpoints' write is
// drawn on: the slices summarise into their Service.
func serviceOf(e trace.Effect) (api.Key, bool) {
	name := e.Object.Name
	if e.Object.Kind == api.KindEndpointSlice {
		o := e.After
		if o == nil {
			o = e.Before
		}
		if o == nil {
			return api.Key{}, false
		}
		name = o.Meta().Labels[api.LabelServiceName]
	} else if e.Object.Kind != api.KindEndpoints {
		return api.Key{}, false
	}
	return api.Key{Kind: api.KindService, Namespace: e.Object.Namespace, Name: name}, true
}
