package job

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/refmanager"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// syncJobCtx is syncJobCtx: what one sync knows of its Job.
type syncJobCtx struct {
	job                  *api.Job
	pods, activePods     []*api.Pod
	succeeded, failed    int32
	ready                int32
	terminating          int32
	finishedCondition    *api.JobCondition
	uncountedSucceeded   map[string]bool
	uncountedFailed      map[string]bool
	expectedRmFinalizers map[string]bool
	prevSucceededIndexes orderedIntervals
	succeededIndexes     orderedIntervals
	newBackoffRecord     backoffRecord
	requeue              int64 // the earliest AddAfter of the sync, 0 if none
	// startTime is status.startTime as the sync knows it (ms): the
	// tick's instant when the sync sets it, as upstream's metav1.Now()
	// is not rounded to the second until it is written.
	startTime int64
	notes     reconcile.Notes
}

// addAfter records a delayed requeue (enqueueSyncJobWithDelay and the
// deadline's AddAfter); the earliest wins, as in the work queue.
func (ctx *syncJobCtx) addAfter(ms int64) {
	if ms <= 0 {
		ms = 1
	}
	if ctx.requeue == 0 || ms < ctx.requeue {
		ctx.requeue = ms
	}
}

// Reconcile handles a Job key (syncJob) or a pod key (syncOrphanPod).
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	if key.Kind == api.KindPod {
		return reconcile.Result{}, c.syncOrphanPod(tick, key)
	}
	return c.syncJob(tick, key)
}

// syncJob is syncJob: count the Job's pods, decide whether it has
// finished or failed, create or delete pods towards parallelism, and
// write the status, removing the finalizers of the pods it counted.
func (c *Controller) syncJob(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	shared, ok := informer.Get[*api.Job](c.Informer, key)
	if !ok {
		delete(c.expectations, key)
		delete(c.finalizers, key)
		delete(c.backoff, key)
		return reconcile.Gone(tick, key, "the garbage collector removes its pods")
	}
	tick.Read(shared)
	if shared.Spec.ManagedBy != nil && *shared.Spec.ManagedBy != "kubernetes.io/job-controller" {
		tick.Explain("job/%s is managed by %s: not this controller's", shared.Name, *shared.Spec.ManagedBy)
		return reconcile.Result{}, nil
	}
	if shared.Finished() {
		delete(c.backoff, key)
		delete(c.finishedUIDs, shared.UID)
		tick.Explain("job/%s has finished: nothing to do", shared.Name)
		return reconcile.Result{}, nil
	}
	if c.finishedUIDs[shared.UID] {
		tick.Explain("job/%s was marked finished; waits to see that in its cache", shared.Name)
		return reconcile.Result{}, nil
	}
	job := shared.DeepCopy()
	if job.Status.UncountedTerminatedPods == nil {
		job.Status.UncountedTerminatedPods = &api.UncountedTerminatedPods{}
	}
	satisfied := c.expectations.satisfied(key, tick.Now())
	pods, err := c.getPodsForJob(tick, job)
	if err != nil {
		return reconcile.Result{}, err
	}
	ctx := c.newSyncJobCtx(job, pods)
	active := int32(len(ctx.activePods))
	newSucceeded, newFailed := getNewFinishedPods(ctx)
	ctx.succeeded = job.Status.Succeeded + int32(len(newSucceeded)) + int32(len(ctx.uncountedSucceeded))
	ctx.failed = job.Status.Failed + int32(nonIgnoredFailedPodsCount(ctx, newFailed)) + int32(len(ctx.uncountedFailed))
	ctx.start(tick.Now())
	old, had := c.backoff[key]
	ctx.newBackoffRecord = newBackoffRecord(old, had, newSucceeded, newFailed)

	c.evaluateFailure(tick, ctx)
	if job.Indexed() {
		ctx.prevSucceededIndexes, ctx.succeededIndexes = calculateSucceededIndexes(job, pods)
		ctx.succeeded = int32(ctx.succeededIndexes.total())
	}
	var manageErr error
	suspendChanged := false
	if ctx.finishedCondition != nil {
		deletedReady, deleted, err := c.deleteActivePods(tick, job, ctx.activePods)
		if deleted != active || !satisfied {
			// Not finished yet: pods may remain, or not be in the cache yet.
			ctx.finishedCondition = nil
		}
		active -= deleted
		ctx.terminating += deleted
		ctx.ready -= deletedReady
		manageErr = err
	} else {
		managed := false
		if satisfied && job.DeletionTimestamp == nil {
			active, manageErr = c.manageJob(tick, job, ctx)
			managed = true
		} else if !satisfied {
			ctx.notes.Note("waits for its earlier creations/deletions to show up in its cache")
		}
		complete := ctx.succeeded > 0 && active == 0
		if job.Spec.Completions != nil {
			complete = ctx.succeeded >= *job.Spec.Completions && active == 0
		}
		switch {
		case complete:
			ctx.finishedCondition = newCondition(api.JobSuccessCriteriaMet, api.ConditionTrue, "CompletionsReached", "Reached expected number of succeeded pods", tick.Now())
		case managed:
			suspendChanged = c.syncSuspended(tick, job)
		}
	}
	needsUpdate := suspendChanged || active != job.Status.Active || job.Status.Ready == nil || ctx.ready != *job.Status.Ready ||
		job.Status.Terminating == nil || *job.Status.Terminating != ctx.terminating
	job.Status.Active = active
	job.Status.Ready = api.Int32(ctx.ready)
	job.Status.Terminating = api.Int32(ctx.terminating)
	if err := c.trackJobStatusAndRemoveFinalizers(tick, ctx, needsUpdate); err != nil {
		return reconcile.Result{}, fmt.Errorf("tracking status: %w", err)
	}
	c.explain(tick, ctx)
	return reconcile.Result{RequeueAfter: ctx.requeue}, manageErr
}

// start sets status.startTime on the Job's first sync unsuspended, and
// notes the start as the sync knows it.
func (ctx *syncJobCtx) start(now int64) {
	job := ctx.job
	switch {
	case job.Status.StartTime == nil && !job.Suspended():
		t := api.At(now)
		job.Status.StartTime = &t
		ctx.startTime = now
	case job.Status.StartTime != nil:
		ctx.startTime = job.Status.StartTime.MS
	}
}

func (c *Controller) newSyncJobCtx(job *api.Job, pods []*api.Pod) *syncJobCtx {
	ctx := &syncJobCtx{job: job, pods: pods, activePods: filterActivePods(pods),
		uncountedSucceeded:   toSet(job.Status.UncountedTerminatedPods.Succeeded),
		uncountedFailed:      toSet(job.Status.UncountedTerminatedPods.Failed),
		expectedRmFinalizers: c.finalizers.expected(api.KeyOf(job))}
	for _, p := range ctx.activePods {
		if api.IsPodReady(p) {
			ctx.ready++
		}
	}
	ctx.terminating = int32(len(filterTerminatingPods(pods)))
	return ctx
}

// evaluateFailure is syncJob's first evaluation of the Job's end: an
// earlier SuccessCriteriaMet or FailureTarget stands; else a FailJob
// rule, the backoff limit or the active deadline fails it.
func (c *Controller) evaluateFailure(tick reconcile.Tick, ctx *syncJobCtx) {
	job := ctx.job
	if c := job.Condition(api.JobSuccessCriteriaMet); c != nil && c.Status == api.ConditionTrue {
		ctx.finishedCondition = c
		return
	}
	if ft := job.Condition(api.JobFailureTarget); ft != nil && ft.Status == api.ConditionTrue {
		ctx.finishedCondition = newCondition(api.JobFailed, api.ConditionTrue, ft.Reason, ft.Message, tick.Now())
		return
	}
	if msg := getFailJobMessage(job, ctx.pods); msg != nil {
		ctx.finishedCondition = newCondition(api.JobFailureTarget, api.ConditionTrue, "PodFailurePolicy", *msg, tick.Now())
		return
	}
	switch {
	case ctx.failed > *job.Spec.BackoffLimit || pastBackoffLimitOnFailure(job, ctx.pods):
		ctx.finishedCondition = newCondition(api.JobFailureTarget, api.ConditionTrue, "BackoffLimitExceeded", "Job has reached the specified backoff limit", tick.Now())
	case pastActiveDeadline(job, ctx.startTime, tick.Now()):
		ctx.finishedCondition = newCondition(api.JobFailureTarget, api.ConditionTrue, "DeadlineExceeded", "Job was active longer than specified deadline", tick.Now())
	case job.Spec.ActiveDeadlineSeconds != nil && !job.Suspended():
		ctx.addAfter(*job.Spec.ActiveDeadlineSeconds*1000 - (tick.Now() - ctx.startTime))
	}
}

// syncSuspended keeps the Suspended condition in step with spec.suspend,
// with its Events; a resumed Job starts its clock again.
func (c *Controller) syncSuspended(tick reconcile.Tick, job *api.Job) bool {
	var changed bool
	if job.Suspended() {
		job.Status.Conditions, changed = ensureJobConditionStatus(job.Status.Conditions, api.JobSuspended, api.ConditionTrue, "JobSuspended", "Job suspended", tick.Now())
		if changed {
			tick.Event(job, "", api.EventNormal, "Suspended", "Job suspended")
		}
		return changed
	}
	job.Status.Conditions, changed = ensureJobConditionStatus(job.Status.Conditions, api.JobSuspended, api.ConditionFalse, "JobResumed", "Job resumed", tick.Now())
	if changed {
		tick.Event(job, "", api.EventNormal, "Resumed", "Job resumed")
		t := api.At(tick.Now())
		job.Status.StartTime = &t
	}
	return changed
}

// getPodsForJob is getPodsForJob: the Job's pods, claimed by its
// selector; an adopted pod gets the tracking finalizer.
func (c *Controller) getPodsForJob(tick reconcile.Tick, job *api.Job) ([]*api.Pod, error) {
	owned, orphans := refmanager.CachedPods(c.Informer, job)
	return refmanager.ClaimPods(tick, job, job.Spec.Selector, owned, orphans, nil, api.JobTrackingFinalizer)
}

// manageJob is manageJob: delete pods beyond what the Job wants active,
// or create the missing ones once the failure backoff allows, never both
// in one sync. It returns the active count after its writes.
func (c *Controller) manageJob(tick reconcile.Tick, job *api.Job, ctx *syncJobCtx) (int32, error) {
	key := api.KeyOf(job)
	active := int32(len(ctx.activePods))
	parallelism := *job.Spec.Parallelism
	if job.Suspended() {
		rm := activePodsForRemoval(job, ctx.activePods, int(active))
		c.expectations.expectDeletions(key, len(rm), tick.Now())
		removedReady, removed, err := c.deleteJobPods(tick, job, rm, "the Job is suspended")
		ctx.terminating += removed
		ctx.ready -= removedReady
		return active - removed, err
	}
	wantActive := parallelism
	switch {
	case job.Spec.Completions != nil:
		wantActive = max(0, min(*job.Spec.Completions-ctx.succeeded, parallelism))
	case ctx.succeeded > 0:
		wantActive = active
	}
	if rm := activePodsForRemoval(job, ctx.activePods, int(max(0, active-wantActive))); len(rm) > 0 {
		rm = rm[:min(len(rm), maxPodCreateDeletePerSync)]
		c.expectations.expectDeletions(key, len(rm), tick.Now())
		removedReady, removed, err := c.deleteJobPods(tick, job, rm, fmt.Sprintf("too many pods running: %d wanted", wantActive))
		ctx.terminating += removed
		ctx.ready -= removedReady
		return active - removed, err
	}
	var terminating int32
	if onlyReplaceFailedPods(job) {
		terminating = ctx.terminating
	}
	diff := wantActive - terminating - active
	if diff <= 0 {
		return active, nil
	}
	if wait := ctx.newBackoffRecord.remainingTime(tick.Now()); wait > 0 {
		ctx.addAfter(max(wait, syncJobBatchPeriod))
		n := ctx.newBackoffRecord.failuresAfterLastSuccess
		ctx.notes.Note("backs off: the next pod may start in %s, after %d failure%s", fmtMS(wait), n, pluralS(n))
		// v1.34.4 returns 0 here, a status the API server refuses when
		// pods are ready (kubernetes#139428); the fix (kubernetes#139457,
		// in the 1.34 branch as #139752) reports the real count.
		return active, nil
	}
	diff = min(diff, maxPodCreateDeletePerSync)
	var indexes []int
	if job.Indexed() {
		indexes = firstPendingIndexes(ctx, int(diff), int(*job.Spec.Completions))
		diff = int32(len(indexes))
	}
	c.expectations.expectCreations(key, int(diff), tick.Now())
	created, err := c.createPods(tick, job, int(diff), indexes)
	if skipped := int(diff) - created; skipped > 0 {
		for range skipped {
			c.expectations.creationObserved(key)
		}
	}
	if created == 1 {
		ctx.notes.Note("created 1 pod")
	} else {
		ctx.notes.Note("created %d pods", created)
	}
	return active + int32(created), err
}

// createPods creates n pods in slow-start batches (1, 2, 4, …), stopping
// after a batch with a failure; Indexed pods take the given indexes in
// order.
func (c *Controller) createPods(tick reconcile.Tick, job *api.Job, n int, indexes []int) (int, error) {
	t := job.Spec.Template.DeepCopy()
	if job.Indexed() {
		addCompletionIndexEnvVariables(&t)
	}
	if !slices.Contains(t.Finalizers, api.JobTrackingFinalizer) {
		t.Finalizers = append(t.Finalizers, api.JobTrackingFinalizer)
	}
	created := 0
	var firstErr error
	for batch := min(n, 1); n > 0; batch = min(2*batch, n) {
		for range batch {
			ix := unknownCompletionIndex
			if len(indexes) > 0 {
				ix, indexes = indexes[0], indexes[1:]
			}
			if err := c.createPod(tick, job, &t, ix); err != nil {
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			created++
		}
		if firstErr != nil {
			return created, firstErr
		}
		n -= batch
	}
	return created, nil
}

// createPod is CreatePodsWithGenerateName for one pod, with its
// completion index when the Job is Indexed.
func (c *Controller) createPod(tick reconcile.Tick, job *api.Job, t *api.PodTemplateSpec, ix int) error {
	tmpl := t.DeepCopy()
	generateName := job.Name + "-"
	if ix != unknownCompletionIndex {
		if tmpl.Annotations == nil {
			tmpl.Annotations = map[string]string{}
		}
		tmpl.Annotations[api.JobCompletionIndex] = strconv.Itoa(ix)
		if tmpl.Labels == nil {
			tmpl.Labels = map[string]string{}
		}
		tmpl.Labels[api.JobCompletionIndex] = strconv.Itoa(ix)
		tmpl.Spec.Hostname = fmt.Sprintf("%s-%d", job.Name, ix)
		generateName = podGenerateNameWithIndex(job.Name, ix)
	}
	p := &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: generateName, Namespace: job.Namespace, Labels: tmpl.Labels,
		Annotations: tmpl.Annotations, Finalizers: tmpl.Finalizers, OwnerReferences: []api.OwnerReference{api.NewControllerRef(job, "batch/v1")}}, Spec: &tmpl.Spec}
	created, err := tick.Create(trace.Translate, p, "")
	if err != nil {
		tick.Event(job, "", api.EventWarning, "FailedCreate", "Error creating: "+err.Error())
		return err
	}
	tick.Event(job, "", api.EventNormal, "SuccessfulCreate", "Created pod: "+created.Meta().Name)
	return nil
}

// deleteActivePods is deleteActivePods: a failed Job's active pods are
// deleted with their finalizers kept (the tracking removes them); a pod
// already gone counts as deleted.
func (c *Controller) deleteActivePods(tick reconcile.Tick, job *api.Job, pods []*api.Pod) (deletedReady, deleted int32, err error) {
	for _, p := range pods {
		if derr := c.deletePodOf(tick, job, p, "the Job is failing"); derr == nil || notFound(derr) {
			deleted++
		} else if err == nil {
			err = derr
		}
		if api.IsPodReady(p) {
			deletedReady++
		}
	}
	return deletedReady, deleted, err
}

// deleteJobPods is deleteJobPods: the finalizer goes first, then the pod.
// A failure (or a pod already gone) releases its expectation; only other
// errors fail the deletion.
func (c *Controller) deleteJobPods(tick reconcile.Tick, job *api.Job, pods []*api.Pod, why string) (deletedReady, deleted int32, err error) {
	key := api.KeyOf(job)
	fail := func(e error) bool {
		c.expectations.deletionObserved(key)
		if notFound(e) {
			return false
		}
		if err == nil {
			err = e
		}
		return true
	}
	for _, p := range pods {
		if hasJobTrackingFinalizer(p) {
			if e := removeTrackingFinalizer(tick, p, fmt.Sprintf("job/%s removed the tracking finalizer of pod/%s to delete it", job.Name, p.Name)); e != nil {
				if !fail(fmt.Errorf("removing completion finalizer: %w", e)) {
					deleted++
				}
				continue
			}
		}
		if e := c.deletePodOf(tick, job, p, why); e == nil || !fail(e) {
			deleted++
		}
		if api.IsPodReady(p) {
			deletedReady++
		}
	}
	return deletedReady, deleted, err
}

// deletePodOf is RealPodControl.DeletePod, with its Events (none for a
// pod already gone).
func (c *Controller) deletePodOf(tick reconcile.Tick, job *api.Job, p *api.Pod, why string) error {
	err := tick.Delete(trace.Translate, api.KeyOf(p), apiserver.DeleteOptions{}, fmt.Sprintf("job/%s deleted pod/%s (%s)", job.Name, p.Name, why))
	if err != nil {
		if !notFound(err) {
			tick.Event(job, "", api.EventWarning, "FailedDelete", "Error deleting: "+err.Error())
		}
		return err
	}
	tick.Event(job, "", api.EventNormal, "SuccessfulDelete", "Deleted pod: "+p.Name)
	return nil
}

// notFound is apierrors.IsNotFound.
func notFound(err error) bool { return apiserver.IsReason(err, apiserver.ReasonNotFound) }

// activePodsForRemoval is activePodsForRemoval: repeated or out-of-range
// indexes first (Indexed), then the least advanced pods.
func activePodsForRemoval(job *api.Job, pods []*api.Pod, rmAtLeast int) []*api.Pod {
	var rm, left []*api.Pod
	if job.Indexed() {
		rm, left = appendDuplicatedIndexPodsForRemoval(nil, nil, slices.Clone(pods), int(*job.Spec.Completions))
	} else {
		left = slices.Clone(pods)
	}
	if len(rm) < rmAtLeast {
		sortActivePods(left)
		rm = append(rm, left[:rmAtLeast-len(rm)]...)
	}
	return rm
}

func toSet(s []string) map[string]bool {
	m := make(map[string]bool, len(s))
	for _, v := range s {
		m[v] = true
	}
	return m
}

func fmtMS(ms int64) string {
	if ms%1000 == 0 {
		return fmt.Sprintf("%ds", ms/1000)
	}
	return fmt.Sprintf("%.1fs", float64(ms)/1000)
}

// pluralS is the plural's "s" after a count other than 1.
func pluralS(n int32) string {
	if n == 1 {
		return ""
	}
	return "s"
}
