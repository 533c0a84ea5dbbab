package eviction

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// MaxDisruptedPodSize is how many unconfirmed evictions a budget may
// hold before the API server refuses more.
const MaxDisruptedPodSize = 2000

// Outcome says what an eviction that went through did, for the caller's
// explanation.
type Outcome struct {
	// PDB is the budget that allowed it ("" when none applied).
	PDB string
	// Allowed is the budget's disruptionsAllowed after this one.
	Allowed int32
	// Why is how the pod went without taking a disruption from a
	// budget ("" when it took one).
	Why string
}

// Evict is the Eviction subresource's Create for pod key: it deletes the
// pod with opts (the eviction's DeleteOptions) when no budget forbids
// it, or returns the API server's error (NotFound, 429 TooManyRequests,
// 403, 500).
func Evict(tick reconcile.Tick, key api.Key, opts apiserver.DeleteOptions) (Outcome, error) {
	o, ok := tick.LiveGet(key)
	if !ok {
		return Outcome{}, apiserver.NotFound(api.KindPod, key.Name)
	}
	pod := o.(*api.Pod)
	if why := canIgnorePDB(pod); why != "" {
		return Outcome{Why: why}, addConditionAndDeletePod(tick, pod, opts)
	}
	pdbs := podDisruptionBudgets(tick, pod)
	switch {
	case len(pdbs) > 1:
		return Outcome{}, &apiserver.StatusError{Reason: apiserver.ReasonInternalError,
			Message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support."}
	case len(pdbs) == 0:
		return Outcome{Why: "no PodDisruptionBudget selects it"}, addConditionAndDeletePod(tick, pod, opts)
	}
	pdb := pdbs[0]
	if !api.IsPodReady(pod) {
		st := &pdb.Status
		if p := pdb.Spec.UnhealthyPodEvictionPolicy; p != nil && *p == api.AlwaysAllow {
			return Outcome{PDB: pdb.Name, Allowed: st.DisruptionsAllowed, Why: fmt.Sprintf("it is not ready and pdb/%s has unhealthyPodEvictionPolicy AlwaysAllow", pdb.Name)},
				addConditionAndDeletePod(tick, pod, opts)
		}
		if st.CurrentHealthy >= st.DesiredHealthy && st.DesiredHealthy > 0 {
			return Outcome{PDB: pdb.Name, Allowed: st.DisruptionsAllowed, Why: fmt.Sprintf("it is not ready and pdb/%s is healthy without it (%d of %d)", pdb.Name, st.CurrentHealthy, st.DesiredHealthy)},
				addConditionAndDeletePod(tick, pod, opts)
		}
	}
	allowed, err := checkAndDecrement(tick, pod.Name, pdb)
	if err != nil {
		return Outcome{PDB: pdb.Name}, err
	}
	return Outcome{PDB: pdb.Name, Allowed: allowed}, addConditionAndDeletePod(tick, pod, opts)
}

// canIgnorePDB: a pod that is not running (Pending, Succeeded, Failed)
// or already deleting is no disruption to budget for. It returns why, or
// "".
func canIgnorePDB(p *api.Pod) string {
	switch {
	case p.DeletionTimestamp != nil:
		return "it is already being deleted"
	case p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed:
		return "it has finished (" + p.Status.Phase + ")"
	case p.Status.Phase == api.PodPending || p.Status.Phase == "":
		return "it is Pending"
	}
	return ""
}

// podDisruptionBudgets lists, from the API server, the budgets of the
// pod's namespace whose selector matches its labels (an empty selector
// matches every pod).
func podDisruptionBudgets(tick reconcile.Tick, pod *api.Pod) []*api.PodDisruptionBudget {
	var out []*api.PodDisruptionBudget
	for _, o := range tick.LiveList(api.KindPodDisruptionBudget, pod.Namespace) {
		if pdb := o.(*api.PodDisruptionBudget); pdb.Spec.Selector.AsSelector().Matches(labels.Set(pod.Labels)) {
			out = append(out, pdb)
		}
	}
	return out
}

// checkAndDecrement takes one disruption from the budget, or refuses:
// 429 while the controller has not seen its latest spec or when it
// allows none, 403 when its status is impossible. It returns the
// disruptions left.
func checkAndDecrement(tick reconcile.Tick, podName string, pdb *api.PodDisruptionBudget) (int32, error) {
	st := &pdb.Status
	switch {
	case st.ObservedGeneration < pdb.Generation:
		return 0, tooManyRequests(fmt.Sprintf("The disruption budget %s is still being processed by the server.", pdb.Name))
	case st.DisruptionsAllowed < 0:
		return 0, forbidden(pdb.Name, "pdb disruptions allowed is negative")
	case len(st.DisruptedPods) > MaxDisruptedPodSize:
		return 0, forbidden(pdb.Name, "DisruptedPods map too big - too many evictions not confirmed by PDB controller")
	case st.DisruptionsAllowed == 0:
		return 0, tooManyRequests(fmt.Sprintf("The disruption budget %s needs %d healthy pods and has %d currently", pdb.Name, st.DesiredHealthy, st.CurrentHealthy))
	}
	next := pdb.DeepCopy()
	next.Status.DisruptionsAllowed--
	if next.Status.DisruptionsAllowed == 0 {
		api.UpdateDisruptionAllowedCondition(next, tick.Now())
	}
	if next.Status.DisruptedPods == nil {
		next.Status.DisruptedPods = map[string]api.Time{}
	}
	next.Status.DisruptedPods[podName] = api.At(tick.Now())
	summary := fmt.Sprintf("pdb/%s: eviction of pod/%s takes a disruption: disruptionsAllowed %d→%d", pdb.Name, podName, st.DisruptionsAllowed, next.Status.DisruptionsAllowed)
	// A write the eviction request makes (translate), not a summary of
	// the layer below: that is the disruption controller's.
	if _, err := tick.UpdateStatus(trace.Translate, next, summary); err != nil {
		return 0, err
	}
	return next.Status.DisruptionsAllowed, nil
}

// addConditionAndDeletePod marks the pod DisruptionTarget=True
// (EvictionByEvictionAPI) and deletes it with the eviction's options.
func addConditionAndDeletePod(tick reconcile.Tick, pod *api.Pod, opts apiserver.DeleteOptions) error {
	next := pod.DeepCopy()
	if api.UpdatePodCondition(&next.Status, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "EvictionByEvictionAPI",
		Message: "Eviction API: evicting"}, tick.Now()) {
		o, err := tick.UpdateStatus(trace.Translate, next, fmt.Sprintf("pod/%s DisruptionTarget=True (EvictionByEvictionAPI)", pod.Name))
		if err != nil {
			return err
		}
		pod = o.(*api.Pod)
	}
	if opts.UID == "" {
		opts.UID = pod.UID
	}
	return tick.Delete(trace.Translate, api.KeyOf(pod), opts, fmt.Sprintf("evicted pod/%s", pod.Name))
}

// tooManyRequests is the 429 a budget answers, with its cause.
func tooManyRequests(cause string) error {
	return &apiserver.StatusError{Reason: apiserver.ReasonTooManyRequests, Message: "Cannot evict pod as it would violate the pod's disruption budget.",
		Causes: []string{cause}}
}

// forbidden is errors.NewForbidden for the budget (its resource named in
// the singular, as the registry does).
func forbidden(name, why string) error {
	return &apiserver.StatusError{Reason: apiserver.ReasonForbidden, Message: fmt.Sprintf("poddisruptionbudget.policy %q is forbidden: %s", name, why)}
}
