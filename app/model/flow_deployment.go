package model

// This file draws a Deployment over its ReplicaSets, oldest first, each
// over its pods. The Deployment's box says how far its rollout has got,
// its conditions and, for a rolling update, the bounds its maxSurge and
// maxUnavailable resolve to with the pods it has now against them
// (terminating pods, which no ReplicaSet counts, said apart).

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/deployment"
)

// deployment is a Deployment's lane.
func (s *scene) deployment(d *api.Deployment, owned map[string][]api.Object) *lane {
	rss := ownedOldestFirst[*api.ReplicaSet](owned[d.UID])
	ln := &lane{id: api.KeyOf(d).String()}
	counted, terminating := 0, 0
	for _, rs := range rss {
		o := s.replicaSet(rs, owned[rs.UID])
		ln.owners = append(ln.owners, o)
		c, t := o.podCount()
		counted, terminating = counted+c, terminating+t
	}
	st := d.Status
	lines := []string{fmt.Sprintf("ready %d/%d · updated %d · available %d", st.ReadyReplicas, d.Replicas(), st.UpdatedReplicas, st.AvailableReplicas), conditionsLine(d)}
	b := s.kindBox(d, append(lines, rolloutLines(d, counted, terminating)...), deploymentStatus(d))
	b.Detail = strategyDetail(d)
	ln.top = []*Box{b}
	return ln
}

// rolloutLines are the pods there are now against a rolling update's
// bounds: "pods 5 of ≤ 5 · ≥ 3 available", then, while some are
// terminating, "+2 terminating (not counted)": no ReplicaSet counts them.
func rolloutLines(d *api.Deployment, pods, terminating int) []string {
	var out []string
	switch {
	case d.Spec.Strategy.Type == api.RecreateStrategy:
		out = []string{fmt.Sprintf("pods %d · recreate: old go first", pods)}
	case d.Spec.Strategy.RollingUpdate != nil:
		out = []string{fmt.Sprintf("pods %d of ≤ %d · ≥ %d available", pods, d.Replicas()+deployment.MaxSurge(d), deployment.MinAvailable(d))}
	default:
		return nil
	}
	if terminating > 0 {
		out = append(out, fmt.Sprintf("+%d terminating (not counted)", terminating))
	}
	return out
}

// strategyDetail says how the bounds are worked out, for the box's
// accessible name and tooltip.
func strategyDetail(d *api.Deployment) string {
	ru := d.Spec.Strategy.RollingUpdate
	if d.Spec.Strategy.Type == api.RecreateStrategy || ru == nil {
		return ""
	}
	return fmt.Sprintf("Rolling update of %d replicas: maxSurge %s → %d (rounded up), maxUnavailable %s → %d (rounded down), so at most %d pods exist and at least %d stay available; terminating pods are not counted.",
		d.Replicas(), intOrStr(ru.MaxSurge), deployment.MaxSurge(d), intOrStr(ru.MaxUnavailable), deployment.MaxUnavailable(d),
		d.Replicas()+deployment.MaxSurge(d), deployment.MinAvailable(d))
}

func intOrStr(v *api.IntOrString) string {
	if v == nil {
		return "0"
	}
	return v.String()
}

func conditionsLine(d *api.Deployment) string {
	var parts []string
	for _, c := range d.Status.Conditions {
		if c.Type == api.DeploymentAvailable || c.Type == api.DeploymentProgressing {
			parts = append(parts, fmt.Sprintf("%s=%s", c.Type, c.Status))
		}
	}
	if len(parts) == 0 {
		return "no conditions yet"
	}
	return strings.Join(parts, clauseSep)
}

func deploymentStatus(d *api.Deployment) string {
	if d.DeletionTimestamp != nil {
		return "gone"
	}
	if c := d.Status.Condition(api.DeploymentProgressing); c != nil && c.Status == api.ConditionFalse {
		return "bad"
	}
	if c := d.Status.Condition(api.DeploymentAvailable); c == nil || c.Status != api.ConditionTrue {
		return "warn"
	}
	if d.Status.UpdatedReplicas != d.Replicas() || d.Status.AvailableReplicas != d.Replicas() {
		return "progress"
	}
	return "ok"
}

// replicaSet is a ReplicaSet over its pods.
func (s *scene) replicaSet(rs *api.ReplicaSet, children []api.Object) *owner {
	b := s.kindBox(rs, []string{fmt.Sprintf("desired %d · current %d · ready %d", rs.Replicas(), rs.Status.Replicas, rs.Status.ReadyReplicas),
		"revision " + rs.Annotations[deployment.RevisionAnnotation]}, replicaSetStatus(rs))
	o := s.podsOf(b, rs.UID, children)
	o.idle = o.total == 0 && rs.Replicas() == 0
	return o
}

// replicaSetStatus: gone while deleted, in progress until its pods are
// ready.
func replicaSetStatus(rs *api.ReplicaSet) string {
	switch {
	case rs.DeletionTimestamp != nil:
		return "gone"
	case rs.Status.ReadyReplicas < rs.Replicas():
		return "progress"
	}
	return "ok"
}

// objectBox is the box of an object, its content to come.
func objectBox(o api.Object, title string) *Box {
	k := api.KeyOf(o)
	return &Box{ID: k.String(), Kind: k.Kind, Name: k.Name, Key: k, Title: title}
}

// kindBox is the box of an object titled kind/name ("deploy/web"), with
// its lines and status, marked when the cache that drew it is stale.
func (s *scene) kindBox(o api.Object, lines []string, status string) *Box {
	b := objectBox(o, api.ShortKind(o.GetKind())+"/"+o.Meta().Name)
	b.Lines, b.Status, b.Stale = lines, status, s.m.staleNote(o)
	return b
}
