package disruption

import (
	"fmt"
	"maps"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// sync is sync: a PDB gone from the cache needs nothing; a conflict is
// retried as it is; any other failure makes failSafe write
// disruptionsAllowed 0 so no eviction goes through while the status
// cannot be computed. The sync's result is then failSafe's (upstream's
// `return dc.failSafe(ctx, pdb, err)`): once that write went through the
// key is forgotten, not retried; the PDB is synced again when it or one
// of its pods changes.
func (c *Controller) sync(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	pdb, ok := informer.Get[*api.PodDisruptionBudget](c.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "")
	}
	tick.Read(pdb)
	res, err := c.trySync(tick, pdb)
	if err == nil || apiserver.IsReason(err, apiserver.ReasonConflict) {
		return res, err
	}
	return reconcile.Result{}, failSafe(tick, pdb, err)
}

// trySync computes the status from the cache and writes it if it
// changed; a disrupted pod not yet deleting brings the PDB back when its
// two minutes are up.
func (c *Controller) trySync(tick reconcile.Tick, pdb *api.PodDisruptionBudget) (reconcile.Result, error) {
	pods := c.getPodsForPdb(pdb)
	if len(pods) == 0 {
		tick.Event(pdb, "", api.EventNormal, "NoPods", "No matching pods found")
	}
	expected, desired, unmanaged, err := c.getExpectedPodCount(tick, pdb, pods)
	if err != nil {
		tick.Event(pdb, "", api.EventWarning, "CalculateExpectedPodCountFailed", "Failed to calculate the number of expected pods: "+err.Error())
		return reconcile.Result{}, err
	}
	if len(unmanaged) > 0 {
		tick.Event(pdb, "", api.EventWarning, "UnmanagedPods", fmt.Sprintf("Pods selected by this PodDisruptionBudget (selector: %v) were found "+
			"to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. "+
			"To account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.", selectorGoString(pdb.Spec.Selector)))
	}
	now := tick.Now()
	disrupted, recheck := buildDisruptedPodMap(tick, pods, pdb, now)
	healthy := countHealthyPods(pods, disrupted, now)
	if err := updatePdbStatus(tick, pdb, healthy, desired, expected, disrupted, len(pods), len(unmanaged)); err != nil {
		return reconcile.Result{}, err
	}
	if recheck >= 0 {
		return reconcile.Result{RequeueAfter: recheck - now + recheckRateLimit}, nil
	}
	return reconcile.Result{}, nil
}

// countHealthyPods counts the Ready pods that are neither deleting nor
// expected to be (a disruptedPods entry younger than DeletionTimeout).
func countHealthyPods(pods []*api.Pod, disrupted map[string]api.Time, now int64) int32 {
	var n int32
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		if t, ok := disrupted[p.Name]; ok && t.MS+DeletionTimeout > now {
			continue
		}
		if api.IsPodReady(p) {
			n++
		}
	}
	return n
}

// buildDisruptedPodMap keeps the disruptedPods entries of pods that still
// exist and are not deleting yet, dropping (with a NotDeleted Event) those
// older than DeletionTimeout; it returns when the oldest kept one
// expires (-1: none).
func buildDisruptedPodMap(tick reconcile.Tick, pods []*api.Pod, pdb *api.PodDisruptionBudget, now int64) (map[string]api.Time, int64) {
	result := map[string]api.Time{}
	recheck := int64(-1)
	if pdb.Status.DisruptedPods == nil {
		return result, recheck
	}
	for _, p := range pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		t, ok := pdb.Status.DisruptedPods[p.Name]
		if !ok {
			continue
		}
		expected := t.MS + DeletionTimeout
		if expected < now {
			// Upstream's message names the namespace twice.
			tick.Event(p, "", api.EventWarning, "NotDeleted", fmt.Sprintf("Pod was expected by PDB %s/%s to be deleted but it wasn't", pdb.Namespace, pdb.Namespace))
			continue
		}
		if recheck < 0 || expected < recheck {
			recheck = expected
		}
		result[p.Name] = t
	}
	return result, recheck
}

// updatePdbStatus writes the status when anything in it changed:
// disruptionsAllowed is currentHealthy − desiredHealthy, at least 0, and
// 0 while no pods are expected (so a PDB whose pods have not appeared
// yet is safe).
func updatePdbStatus(tick reconcile.Tick, pdb *api.PodDisruptionBudget, healthy, desired, expected int32, disrupted map[string]api.Time, matched, unmanaged int) error {
	allowed := healthy - desired
	if expected <= 0 || allowed <= 0 {
		allowed = 0
	}
	st := &pdb.Status
	if st.CurrentHealthy == healthy && st.DesiredHealthy == desired && st.ExpectedPods == expected && st.DisruptionsAllowed == allowed &&
		semanticEqual(st.DisruptedPods, disrupted) && st.ObservedGeneration == pdb.Generation && pdb.ConditionsAreUpToDate() {
		tick.Explain("pdb/%s is up to date: %s", pdb.Name, statusLine(&pdb.Status))
		return nil
	}
	next := pdb.DeepCopy()
	next.Status = api.PodDisruptionBudgetStatus{CurrentHealthy: healthy, DesiredHealthy: desired, ExpectedPods: expected, DisruptionsAllowed: allowed,
		DisruptedPods: disrupted, ObservedGeneration: pdb.Generation, Conditions: next.Status.Conditions}
	api.UpdateDisruptionAllowedCondition(next, tick.Now())
	if len(next.Status.DisruptedPods) == 0 {
		next.Status.DisruptedPods = nil // an empty map is not serialised
	}
	summary := fmt.Sprintf("pdb/%s: %s", pdb.Name, statusLine(&next.Status))
	if _, err := tick.UpdateStatus(trace.Aggregate, next, summary); err != nil {
		return err
	}
	tick.Explain("%s", explainStatus(pdb, &next.Status, matched, unmanaged))
	return nil
}

// semanticEqual is apiequality.Semantic.DeepEqual of two disruptedPods
// maps: nil and empty are equal.
func semanticEqual(a, b map[string]api.Time) bool {
	return maps.Equal(a, b)
}

// failSafe sets disruptionsAllowed to 0 with DisruptionAllowed False
// SyncFailed carrying the error. It returns the write's error only.
func failSafe(tick reconcile.Tick, pdb *api.PodDisruptionBudget, cause error) error {
	next := pdb.DeepCopy()
	next.Status.DisruptionsAllowed = 0
	if next.Status.Conditions == nil {
		next.Status.Conditions = []api.Condition{}
	}
	api.SetCondition(&next.Status.Conditions, api.Condition{Type: api.DisruptionAllowedCondition, Status: api.ConditionFalse, Reason: api.SyncFailedReason,
		Message: cause.Error(), ObservedGeneration: next.Status.ObservedGeneration}, tick.Now())
	summary := fmt.Sprintf("pdb/%s: disruptionsAllowed 0 (SyncFailed: %s)", pdb.Name, cause)
	if _, err := tick.UpdateStatus(trace.Aggregate, next, summary); err != nil {
		return err
	}
	tick.Explain("pdb/%s: cannot compute its status (%s), so it allows no disruption until it can", pdb.Name, cause)
	return nil
}

// statusLine is the status as the trace summarises it.
func statusLine(st *api.PodDisruptionBudgetStatus) string {
	return fmt.Sprintf("expectedPods %d, desiredHealthy %d, currentHealthy %d, disruptionsAllowed %d", st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy, st.DisruptionsAllowed)
}

// explainStatus says, for a learner, what the budget now allows and why.
func explainStatus(pdb *api.PodDisruptionBudget, st *api.PodDisruptionBudgetStatus, matched, unmanaged int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "pdb/%s: %d healthy of %d selected pod(s); %s → needs %d healthy: ", pdb.Name, st.CurrentHealthy, matched, budgetWords(&pdb.Spec, st.ExpectedPods), st.DesiredHealthy)
	switch {
	case st.ExpectedPods <= 0:
		b.WriteString("no pods are expected yet, so it allows no disruption")
	case st.DisruptionsAllowed == 1:
		b.WriteString("allows 1 disruption")
	case st.DisruptionsAllowed > 1:
		fmt.Fprintf(&b, "allows %d disruptions", st.DisruptionsAllowed)
	case st.DesiredHealthy >= st.ExpectedPods:
		b.WriteString("none to spare, so it allows no disruption now or ever; every eviction is refused (429) until minAvailable is lowered, maxUnavailable used or replicas raised")
	default:
		b.WriteString("allows no disruption until more pods are healthy; an eviction is refused (429) meanwhile")
	}
	if n := len(st.DisruptedPods); n > 0 {
		fmt.Fprintf(&b, "; %d evicted pod(s) not yet seen deleting count as gone", n)
	}
	if unmanaged > 0 {
		fmt.Fprintf(&b, "; %d pod(s) have no controller", unmanaged)
	}
	return b.String()
}

// budgetWords is the spec as a sentence: "minAvailable 2", "maxUnavailable
// 25% of the 4 its controllers want".
func budgetWords(sp *api.PodDisruptionBudgetSpec, expected int32) string {
	switch {
	case sp.MaxUnavailable != nil:
		return fmt.Sprintf("maxUnavailable %s of the %d its controllers want", sp.MaxUnavailable, expected)
	case sp.MinAvailable != nil && sp.MinAvailable.IsString:
		return fmt.Sprintf("minAvailable %s of the %d its controllers want", sp.MinAvailable, expected)
	case sp.MinAvailable != nil:
		return fmt.Sprintf("minAvailable %s", sp.MinAvailable)
	}
	return "no minAvailable or maxUnavailable"
}
