package model

// This file draws PodDisruptionBudgets: each at the top row, beside the
// workloads whose pods it selects (a dashed "guards" line to each), with
// its budget and what it allows now. The disruption controller's status
// write is an arrow up from the pod row into it (it summarises the pods'
// readiness); an eviction that takes a disruption is kubectl's arrow
// into it, and one it refuses is marked on it.

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// pdb is a budget's box, drawn at the top row of the first workload
// whose pods it selects.
func (s *scene) pdb(p *api.PodDisruptionBudget) *Box {
	return s.kindBox(p, pdbLines(p), pdbStatus(p))
}

// guardedLane is the lane of the first workload whose pod template the
// budget's selector matches, in its namespace (nil for none).
func (s *scene) guardedLane(p *api.PodDisruptionBudget) *lane {
	sel := p.Spec.Selector.AsSelector()
	for _, ln := range s.lanes {
		b := ln.firstBox()
		if b == nil || b.Key.Namespace != p.Namespace {
			continue
		}
		if tl, ok := s.m.templateLabels(b.Key); ok && sel.Matches(labels.Set(tl)) {
			return ln
		}
	}
	return nil
}

// pdbLines: the budget with the healthy count against it, then what it
// allows.
func pdbLines(p *api.PodDisruptionBudget) []string {
	st := &p.Status
	first := PDBBudget(&p.Spec) + fmt.Sprintf(" · %d healthy, needs %d", st.CurrentHealthy, st.DesiredHealthy)
	c := api.FindCondition(st.Conditions, api.DisruptionAllowedCondition)
	var second string
	switch {
	case c == nil || st.ObservedGeneration < p.Generation:
		second = "not computed yet: evictions wait"
	case c.Reason == api.SyncFailedReason:
		second = "SyncFailed: allows none"
	case st.DisruptionsAllowed == 1:
		second = "allows 1 disruption"
	case st.DisruptionsAllowed > 1:
		second = fmt.Sprintf("allows %d disruptions", st.DisruptionsAllowed)
	case neverAllows(p):
		second = "allows 0, ever: none to spare"
	default:
		second = "allows 0: evictions wait"
	}
	return []string{first, second}
}

// PDBBudget is the spec in a few words: "minAvailable 2",
// "maxUnavailable 25%".
func PDBBudget(sp *api.PodDisruptionBudgetSpec) string {
	switch {
	case sp.MinAvailable != nil:
		return "minAvailable " + sp.MinAvailable.String()
	case sp.MaxUnavailable != nil:
		return "maxUnavailable " + sp.MaxUnavailable.String()
	}
	return "no budget"
}

// neverAllows: the budget needs every pod it expects, so no voluntary
// disruption can ever go through (minAvailable equal to replicas).
func neverAllows(p *api.PodDisruptionBudget) bool {
	return p.Status.ExpectedPods > 0 && p.Status.DesiredHealthy >= p.Status.ExpectedPods
}

func pdbStatus(p *api.PodDisruptionBudget) string {
	c := api.FindCondition(p.Status.Conditions, api.DisruptionAllowedCondition)
	switch {
	case p.DeletionTimestamp != nil:
		return "gone"
	case c != nil && c.Reason == api.SyncFailedReason || neverAllows(p):
		return "bad"
	case p.Status.DisruptionsAllowed == 0:
		return "warn"
	}
	return "ok"
}

// pdbEdges links each budget to the drawn workloads whose pod template
// its selector matches, in its namespace.
func (l *layout) pdbEdges() {
	for _, id := range sortedIDs(l.boxes) {
		b := l.boxes[id]
		if b.Kind != api.KindPodDisruptionBudget {
			continue
		}
		o, ok := l.m.eng.Store().Get(b.Key)
		if !ok {
			continue
		}
		sel := o.(*api.PodDisruptionBudget).Spec.Selector.AsSelector()
		for _, wid := range sortedIDs(l.boxes) {
			w := l.boxes[wid]
			if w.Key.Namespace != b.Key.Namespace {
				continue
			}
			if tl, ok := l.m.templateLabels(w.Key); ok && sel.Matches(labels.Set(tl)) {
				l.f.Edges = append(l.f.Edges, Edge{From: b.ID, To: w.ID, Kind: "guards"})
			}
		}
	}
}

// templateLabels are the pod template labels of a workload at the top
// row.
func (m *Model) templateLabels(k api.Key) (map[string]string, bool) {
	template := viewOf(k.Kind).template
	if template == nil {
		return nil, false
	}
	o, ok := m.eng.Store().Get(k)
	if !ok {
		return nil, false
	}
	t := template(o)
	if t == nil {
		return nil, false // a ReplicationController may have none
	}
	return t.Labels, true
}

// pdbArrows draws what the disruption controller summarises: its status
// write as an arrow straight up from the pods' row into the budget. A
// kubectl drain step whose eviction the budget
// refused marks the budget.
func (l *layout) pdbArrows(t *trace.Tick) {
	for _, id := range sortedIDs(l.boxes) {
		b := l.boxes[id]
		if b.Kind != api.KindPodDisruptionBudget {
			continue
		}
		switch {
		case t.Component == engine.DisruptionController && t.Object == b.Key && len(t.Effects) > 0:
			b.Highlight = trace.Aggregate
			l.f.Arrows = append(l.f.Arrows, Arrow{X1: b.X + b.W/2, Y1: max(l.podsY[b.ID]+LineH, b.Y+b.H+rowGap-4), X2: b.X + b.W/2, Y2: b.Y + b.H,
				Class: trace.Aggregate, Label: trace.Aggregate.Symbol() + " pods' readiness"})
		case t.Component == engine.KubectlActor && strings.Contains(t.Explanation(), "disruption budget "+b.Key.Name+" "):
			b.Refused = true
		}
	}
}
