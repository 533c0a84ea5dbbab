package job

import (
	"fmt"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// trackJobStatusAndRemoveFinalizers is trackJobStatusAndRemoveFinalizers:
// finished pods go into uncountedTerminatedPods (written first), their
// finalizers are removed, and they move into the counters; an interim
// condition is written before the finalizers go, the terminal one once
// nothing is left to count or to terminate.
func (c *Controller) trackJobStatusAndRemoveFinalizers(tick reconcile.Tick, ctx *syncJobCtx, needsFlush bool) error {
	job := ctx.job
	indexed := job.Indexed()
	if indexed {
		slices.SortStableFunc(ctx.pods, func(a, b *api.Pod) int {
			return getCompletionIndex(a.Annotations) - getCompletionIndex(b.Annotations)
		})
	}
	withFinalizer := map[string]bool{}
	for _, p := range ctx.pods {
		if hasJobTrackingFinalizer(p) && !ctx.expectedRmFinalizers[p.UID] {
			withFinalizer[p.UID] = true
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&job.Status, withFinalizer) {
		needsFlush = true
	}
	uncounted := job.Status.UncountedTerminatedPods
	var toRemove []*api.Pod
	var newIndexes []int
	reachedMax := false
	for _, p := range ctx.pods {
		if !hasJobTrackingFinalizer(p) || ctx.expectedRmFinalizers[p.UID] {
			continue
		}
		failed := isPodFailed(p, job)
		if !canRemoveFinalizer(ctx, p, failed) {
			continue
		}
		toRemove = append(toRemove, p)
		switch {
		case p.Status.Phase == api.PodSucceeded && !ctx.uncountedFailed[p.UID]:
			if indexed {
				if ix := getCompletionIndex(p.Annotations); ix != unknownCompletionIndex && ix < int(*job.Spec.Completions) && !ctx.prevSucceededIndexes.has(ix) {
					newIndexes = append(newIndexes, ix)
					needsFlush = true
				}
			} else if !ctx.uncountedSucceeded[p.UID] {
				needsFlush = true
				uncounted.Succeeded = append(uncounted.Succeeded, p.UID)
			}
		case failed || ctx.finishedCondition != nil && ctx.finishedCondition.Type != api.JobSuccessCriteriaMet:
			ix := getCompletionIndex(p.Annotations)
			if !ctx.uncountedFailed[p.UID] && (!indexed || ix != unknownCompletionIndex && ix < int(*job.Spec.Completions)) {
				if _, counts, _ := matchPodFailurePolicy(job.Spec.PodFailurePolicy, p); counts {
					needsFlush = true
					uncounted.Failed = append(uncounted.Failed, p.UID)
				}
			}
		}
		if len(newIndexes)+len(uncounted.Succeeded)+len(uncounted.Failed) >= maxUncountedPods {
			reachedMax = true
			break
		}
	}
	if indexed {
		ctx.succeededIndexes = ctx.succeededIndexes.withOrderedIndexes(newIndexes)
		if s := ctx.succeededIndexes.String(); s != job.Status.CompletedIndexes {
			needsFlush = true
			job.Status.CompletedIndexes = s
		}
		job.Status.Succeeded = int32(ctx.succeededIndexes.total())
	}
	if fc := ctx.finishedCondition; fc != nil && fc.Type == api.JobFailureTarget {
		job.Status.Conditions = append(job.Status.Conditions, *fc)
		needsFlush = true
		ctx.finishedCondition = newCondition(api.JobFailed, api.ConditionTrue, fc.Reason, fc.Message, tick.Now())
	}
	if fc := ctx.finishedCondition; fc != nil && fc.Type == api.JobSuccessCriteriaMet {
		if !job.HasCondition(api.JobSuccessCriteriaMet) {
			job.Status.Conditions = append(job.Status.Conditions, *fc)
			needsFlush = true
		}
		ctx.finishedCondition = newCondition(api.JobComplete, api.ConditionTrue, fc.Reason, fc.Message, tick.Now())
	}
	needsFlush, err := c.flushUncountedAndRemoveFinalizers(tick, ctx, toRemove, withFinalizer, needsFlush)
	if err != nil {
		return err
	}
	finished := !reachedMax && enactJobFinished(tick, ctx)
	if !finished && !needsFlush {
		return nil
	}
	if _, err := c.updateJobStatus(tick, ctx, "counted"); err != nil {
		return fmt.Errorf("removing uncounted pods from status: %w", err)
	}
	if finished {
		recordJobFinished(tick, ctx.job, ctx.finishedCondition)
		c.finishedUIDs[ctx.job.UID] = true
	}
	return nil
}

// canRemoveFinalizer is canRemoveFinalizer: when the Job is going or has
// finished, or the pod succeeded or failed.
func canRemoveFinalizer(ctx *syncJobCtx, p *api.Pod, failed bool) bool {
	return ctx.job.DeletionTimestamp != nil || ctx.finishedCondition != nil || p.Status.Phase == api.PodSucceeded || failed
}

// flushUncountedAndRemoveFinalizers writes the status with the new
// uncounted pods (and an interim condition), then removes the pods'
// finalizers and moves them into the counters. It returns whether the
// status still has changes to write.
func (c *Controller) flushUncountedAndRemoveFinalizers(tick reconcile.Tick, ctx *syncJobCtx, toRemove []*api.Pod, withFinalizer map[string]bool, needsFlush bool) (bool, error) {
	if needsFlush {
		if _, err := c.updateJobStatus(tick, ctx, "uncounted"); err != nil {
			return needsFlush, fmt.Errorf("adding uncounted pods to status: %w", err)
		}
		c.backoff[api.KeyOf(ctx.job)] = ctx.newBackoffRecord
		needsFlush = false
	}
	var rmErr error
	if len(toRemove) > 0 {
		uids := make([]string, len(toRemove))
		for i, p := range toRemove {
			uids[i] = p.UID
		}
		key := api.KeyOf(ctx.job)
		c.finalizers.expectFinalizersRemoved(key, uids)
		for _, p := range toRemove {
			err := removeTrackingFinalizer(tick, p, fmt.Sprintf("job/%s counted pod/%s (%s) and removed its tracking finalizer", ctx.job.Name, p.Name, p.Status.Phase))
			if err != nil {
				c.finalizers.finalizerRemovalObserved(key, p.UID)
				if !notFound(err) {
					if rmErr == nil {
						rmErr = fmt.Errorf("removing tracking finalizer: %w", err)
					}
					continue
				}
			}
			delete(withFinalizer, p.UID)
		}
	}
	if cleanUncountedPodsWithoutFinalizers(&ctx.job.Status, withFinalizer) {
		needsFlush = true
	}
	if rmErr != nil && needsFlush {
		if _, err := c.updateJobStatus(tick, ctx, "partly counted"); err != nil {
			return needsFlush, fmt.Errorf("removing uncounted pods from status: %w", err)
		}
	}
	return needsFlush, rmErr
}

// cleanUncountedPodsWithoutFinalizers moves the uncounted pods whose
// finalizer is gone into the counters.
func cleanUncountedPodsWithoutFinalizers(st *api.JobStatus, withFinalizer map[string]bool) bool {
	u := st.UncountedTerminatedPods
	keep := func(uids []string) []string {
		var out []string
		for _, uid := range uids {
			if withFinalizer[uid] {
				out = append(out, uid)
			}
		}
		return out
	}
	updated := false
	if n := keep(u.Succeeded); len(n) != len(u.Succeeded) {
		st.Succeeded += int32(len(u.Succeeded) - len(n))
		u.Succeeded, updated = n, true
	}
	if n := keep(u.Failed); len(n) != len(u.Failed) {
		st.Failed += int32(len(u.Failed) - len(n))
		u.Failed, updated = n, true
	}
	return updated
}

// removeTrackingFinalizer removes batch.kubernetes.io/job-tracking from a
// pod as upstream's patch does ($deleteFromPrimitiveList/finalizers): the
// API server applies it to the pod as it stores it, so what others wrote
// since the controller's cache saw the pod (the garbage collector's
// removal of its ownerReference, say) stays.
func removeTrackingFinalizer(tick reconcile.Tick, p *api.Pod, summary string) error {
	o, ok := tick.LiveGet(api.KeyOf(p))
	if !ok {
		return apiserver.NotFound(api.KindPod, p.Name)
	}
	live := o.(*api.Pod)
	if !hasJobTrackingFinalizer(live) {
		return nil // the patch changes nothing
	}
	cp := *live
	cp.Finalizers = slices.DeleteFunc(slices.Clone(live.Finalizers), func(f string) bool { return f == api.JobTrackingFinalizer })
	if len(cp.Finalizers) == 0 {
		cp.Finalizers = nil
	}
	_, err := tick.Update(trace.Translate, &cp, summary)
	return err
}

// updateJobStatus writes the status and keeps the stored Job for the
// rest of the sync.
func (c *Controller) updateJobStatus(tick reconcile.Tick, ctx *syncJobCtx, what string) (*api.Job, error) {
	st := ctx.job.Status
	out, err := tick.UpdateStatus(trace.Aggregate, ctx.job, fmt.Sprintf("job/%s status: %d active, %d ready, %d succeeded, %d failed", ctx.job.Name, st.Active, derefOr(st.Ready), st.Succeeded, st.Failed))
	if err != nil {
		return nil, err
	}
	ctx.job = out.(*api.Job).DeepCopy()
	return ctx.job, nil
}

func derefOr(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// enactJobFinished is enactJobFinished: the terminal condition, once no
// pod is uncounted and none is terminating.
func enactJobFinished(tick reconcile.Tick, ctx *syncJobCtx) bool {
	fc := ctx.finishedCondition
	if fc == nil {
		return false
	}
	if u := ctx.job.Status.UncountedTerminatedPods; u != nil && len(u.Succeeded)+len(u.Failed) > 0 {
		ctx.notes.Note("waits to count %d more pods before it is %s", len(u.Succeeded)+len(u.Failed), fc.Type)
		return false
	}
	if ctx.terminating > 0 {
		ctx.notes.Note("waits for %d terminating pods before it is %s", ctx.terminating, fc.Type)
		return false
	}
	ctx.job.Status.Conditions, _ = ensureJobConditionStatus(ctx.job.Status.Conditions, fc.Type, fc.Status, fc.Reason, fc.Message, tick.Now())
	if fc.Type == api.JobComplete {
		t := fc.LastTransitionTime
		ctx.job.Status.CompletionTime = &t
	}
	return true
}

// recordJobFinished is recordJobFinished's Events.
func recordJobFinished(tick reconcile.Tick, job *api.Job, fc *api.JobCondition) {
	if fc.Type == api.JobComplete {
		if job.Spec.Completions != nil && job.Status.Succeeded > *job.Spec.Completions {
			tick.Event(job, "", api.EventWarning, "TooManySucceededPods", "Too many succeeded pods running after completion count reached")
		}
		tick.Event(job, "", api.EventNormal, "Completed", "Job completed")
		return
	}
	tick.Event(job, "", api.EventWarning, fc.Reason, fc.Message)
}

func newCondition(t, status, reason, message string, now int64) *api.JobCondition {
	at := api.At(now)
	return &api.JobCondition{Type: t, Status: status, LastProbeTime: at, LastTransitionTime: at, Reason: reason, Message: message}
}

// ensureJobConditionStatus sets a condition, or adds it unless it would
// be False.
func ensureJobConditionStatus(list []api.JobCondition, t, status, reason, message string, now int64) ([]api.JobCondition, bool) {
	for i := range list {
		if list[i].Type != t {
			continue
		}
		if c := &list[i]; c.Status != status || c.Reason != reason || c.Message != message {
			*c = *newCondition(t, status, reason, message, now)
			return list, true
		}
		return list, false
	}
	if status != api.ConditionFalse {
		return append(list, *newCondition(t, status, reason, message, now)), true
	}
	return list, false
}
