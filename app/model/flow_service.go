package model

// This file draws Services beside the pods they select: how many
// endpoints their EndpointSlices list and how many are ready, the
// readiness that flows sideways from Pod status into the slices.

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// services places one box per Service at the pods' row, after everything
// drawn so far, and returns the bottom of the column.
func (l *layout) services(objs []api.Object) int {
	if len(objs) == 0 {
		return 0
	}
	counts := l.endpointCounts()
	l.x += sidewaysGap // room for the arrow into the Services and its label
	y, right := rowPods, l.x
	for _, o := range objs {
		svc := o.(*api.Service)
		c := counts[api.Key{Namespace: svc.Namespace, Name: svc.Name}]
		title := "svc/" + svc.Name
		lines := []string{svc.Spec.Type + " " + clusterIPOf(svc), endpointsLine(svc, c)}
		more, stale, failing := l.dataPlane(svc)
		lines = append(lines, more...)
		w, h := widthFor(boxW, title, lines), boxH+max(0, len(lines)-2)*LineH
		spark := l.sparkline(api.KeyOf(svc))
		if len(spark) > 0 {
			h += SparkH
		}
		b := l.add(l.objectBox(svc, l.x, y, w, h))
		b.Title, b.Lines, b.Stale, b.Spark = title, lines, stale, spark
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
		y += h + podGap
		right = max(right, b.X+b.W)
	}
	// Past the widest box, so the Event arrows' labels, which sit in the
	// margin right of the last box, never cover a Service.
	l.x = right + 2*margin
	return y - podGap
}

// endpointCount is what a Service's slices list.
type endpointCount struct{ ready, total int }

func (l *layout) endpointCounts() map[api.Key]endpointCount {
	out := map[api.Key]endpointCount{}
	l.m.eng.Store().Each(api.KindEndpointSlice, func(o api.Object) bool {
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

// serviceBoxOf is the Service box an EndpointSlice or Endpoints effect
// is drawn into: the slices summarise into their Service.
func (l *layout) serviceBoxOf(e trace.Effect) *Box {
	name := e.Object.Name
	if e.Object.Kind == api.KindEndpointSlice {
		o := e.After
		if o == nil {
			o = e.Before
		}
		if o == nil {
			return nil
		}
		name = o.Meta().Labels[api.LabelServiceName]
	} else if e.Object.Kind != api.KindEndpoints {
		return nil
	}
	return l.boxes[api.Key{Kind: api.KindService, Namespace: e.Object.Namespace, Name: name}.String()]
}

// sidewaysGap is the extra room left of the Services' column for the
// arrow of a slice write and its label, which no box may cover.
const sidewaysGap = 100

// sideways is the arrow of a slice write: from the pods' side into the
// Service box, level with it, labelled at its start (in the gap, clear of
// the Service).
func sideways(svc *Box, e trace.Effect) Arrow {
	y := svc.Y + svc.H/2
	return Arrow{X1: svc.X - sidewaysGap - 36, Y1: y, X2: svc.X, Y2: y, Class: e.Class, Label: "→ endpoints", LabelAtStart: true}
}
