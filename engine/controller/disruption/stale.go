package disruption

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// nonTerminatingPodHasStaleDisruptionCondition reports whether the pod
// carries a True DisruptionTarget condition (not the kubelet's) while not
// deleting and not finished, and how long until it counts as stale.
func nonTerminatingPodHasStaleDisruptionCondition(p *api.Pod, now int64) (bool, int64) {
	if p.DeletionTimestamp != nil {
		return false, 0
	}
	c := p.Status.Condition(api.DisruptionTarget)
	if c == nil || c.Status != api.ConditionTrue || c.Reason == "TerminationByKubelet" || p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed {
		return false, 0
	}
	return true, max(stalePodDisruptionTimeout-(now-c.LastTransitionTime.MS), 0)
}

// syncStalePodDisruption sets a stale DisruptionTarget condition to
// False: the eviction or deletion it announced never happened.
func (c *Controller) syncStalePodDisruption(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	p, ok := informer.Get[*api.Pod](c.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "")
	}
	tick.Read(p)
	has, after := nonTerminatingPodHasStaleDisruptionCondition(p, tick.Now())
	if !has {
		tick.Explain("pod/%s has no stale DisruptionTarget condition", p.Name)
		return reconcile.Result{}, nil
	}
	if after > 0 {
		return reconcile.Result{RequeueAfter: after}, nil
	}
	next := p.DeepCopy()
	api.UpdatePodCondition(&next.Status, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionFalse}, tick.Now())
	summary := fmt.Sprintf("pod/%s DisruptionTarget True→False (the pod was not deleted within 2m)", p.Name)
	if _, err := tick.UpdateStatus(trace.Realize, next, summary); err != nil {
		return reconcile.Result{}, err
	}
	tick.Explain("%s", summary)
	return reconcile.Result{}, nil
}

// selectorGoString is how the Event prints a *metav1.LabelSelector (its
// generated String method).
func selectorGoString(s *api.LabelSelector) string {
	if s == nil {
		return "nil"
	}
	var b strings.Builder
	b.WriteString("&LabelSelector{MatchLabels:map[string]string{")
	for _, k := range api.SortedKeys(s.MatchLabels) {
		fmt.Fprintf(&b, "%v: %v,", k, s.MatchLabels[k])
	}
	b.WriteString("},MatchExpressions:[]LabelSelectorRequirement{")
	for _, r := range s.MatchExpressions {
		fmt.Fprintf(&b, "LabelSelectorRequirement{Key:%v,Operator:%v,Values:%v,},", r.Key, r.Operator, r.Values)
	}
	b.WriteString("},}")
	return b.String()
}
