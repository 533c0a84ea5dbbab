package job

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
)

// This file is what syncJob asks of single pods: whether one counts as
// failed, which are new since the last count, and upstream's
// controller.ActivePods order.

// isPodFailed is isPodFailed: Failed, or (unless only failed pods are
// replaced) being deleted before it succeeded.
func isPodFailed(p *api.Pod, job *api.Job) bool {
	if p.Status.Phase == api.PodFailed {
		return true
	}
	if onlyReplaceFailedPods(job) {
		return false
	}
	return p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded
}

// onlyReplaceFailedPods: podReplacementPolicy Failed, or a pod failure
// policy.
func onlyReplaceFailedPods(job *api.Job) bool {
	return job.Spec.PodReplacementPolicy != nil && *job.Spec.PodReplacementPolicy == api.ReplaceFailed || job.Spec.PodFailurePolicy != nil
}

// getNewFinishedPods is the tracked pods that finished since the last
// count: not uncounted yet, not waiting for their finalizer's removal,
// with a valid index when the Job is Indexed.
func getNewFinishedPods(ctx *syncJobCtx) (succeeded, failed []*api.Pod) {
	valid := func(p *api.Pod, uncounted map[string]bool) bool {
		if !hasJobTrackingFinalizer(p) || uncounted[p.UID] || ctx.expectedRmFinalizers[p.UID] {
			return false
		}
		if ctx.job.Indexed() {
			ix := getCompletionIndex(p.Annotations)
			return ix != unknownCompletionIndex && ix < int(*ctx.job.Spec.Completions)
		}
		return true
	}
	for _, p := range ctx.pods {
		if valid(p, ctx.uncountedSucceeded) && p.Status.Phase == api.PodSucceeded {
			succeeded = append(succeeded, p)
		}
		if valid(p, ctx.uncountedFailed) && isPodFailed(p, ctx.job) {
			failed = append(failed, p)
		}
	}
	return succeeded, failed
}

// nonIgnoredFailedPodsCount leaves out failures an Ignore rule matches.
func nonIgnoredFailedPodsCount(ctx *syncJobCtx, failed []*api.Pod) int {
	n := len(failed)
	if ctx.job.Spec.PodFailurePolicy != nil {
		for _, p := range failed {
			if _, counts, _ := matchPodFailurePolicy(ctx.job.Spec.PodFailurePolicy, p); !counts {
				n--
			}
		}
	}
	return n
}

// getFailJobMessage is the FailJob message of the first failed pod a
// FailJob rule matches.
func getFailJobMessage(job *api.Job, pods []*api.Pod) *string {
	if job.Spec.PodFailurePolicy == nil {
		return nil
	}
	for _, p := range pods {
		if isPodFailed(p, job) {
			if msg, _, _ := matchPodFailurePolicy(job.Spec.PodFailurePolicy, p); msg != nil {
				return msg
			}
		}
	}
	return nil
}

// pastBackoffLimitOnFailure: with restartPolicy OnFailure, the restarts
// of the running and pending pods' containers reach the backoff limit.
func pastBackoffLimitOnFailure(job *api.Job, pods []*api.Pod) bool {
	if job.Spec.Template.Spec.RestartPolicy != "OnFailure" {
		return false
	}
	var restarts int32
	for _, p := range pods {
		if p.Status.Phase == api.PodRunning || p.Status.Phase == api.PodPending {
			for _, cs := range p.Status.ContainerStatuses {
				restarts += cs.RestartCount
			}
		}
	}
	if *job.Spec.BackoffLimit == 0 {
		return restarts > 0
	}
	return restarts >= *job.Spec.BackoffLimit
}

// pastActiveDeadline: the Job, started at start (ms), has been active
// activeDeadlineSeconds.
func pastActiveDeadline(job *api.Job, start, now int64) bool {
	if job.Spec.ActiveDeadlineSeconds == nil || job.Status.StartTime == nil || job.Suspended() {
		return false
	}
	return now-start >= *job.Spec.ActiveDeadlineSeconds*1000
}

// filterActivePods is controller.FilterActivePods.
func filterActivePods(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if api.IsPodActive(p) {
			out = append(out, p)
		}
	}
	return out
}

// filterTerminatingPods is controller.FilterTerminatingPods: being
// deleted, not finished.
func filterTerminatingPods(pods []*api.Pod) []*api.Pod {
	var out []*api.Pod
	for _, p := range pods {
		if p.DeletionTimestamp != nil && p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
			out = append(out, p)
		}
	}
	return out
}

// sortActivePods is sort.Sort(controller.ActivePods): unassigned,
// pending, not ready, ready for less time, more restarts and newer pods
// first. (Stable: pods equal under every rule keep their order.)
func sortActivePods(pods []*api.Pod) {
	slices.SortStableFunc(pods, func(a, b *api.Pod) int {
		if activePodLess(a, b) {
			return -1
		}
		if activePodLess(b, a) {
			return 1
		}
		return 0
	})
}

func activePodLess(a, b *api.Pod) bool {
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	if pa, pb := phaseOrdinal(a.Status.Phase), phaseOrdinal(b.Status.Phase); pa != pb {
		return pa < pb
	}
	ra, rb := api.IsPodReady(a), api.IsPodReady(b)
	if ra != rb {
		return !ra
	}
	if ra && rb {
		if ta, tb := readyTime(a), readyTime(b); ta != tb {
			return afterOrZero(ta, tb)
		}
	}
	if ma, mb := maxRestarts(a), maxRestarts(b); ma != mb {
		return ma > mb
	}
	if ta, tb := a.CreationTimestamp, b.CreationTimestamp; ta != tb {
		return afterOrZero(ta, tb)
	}
	return false
}

func phaseOrdinal(phase string) int {
	switch phase {
	case api.PodPending:
		return 0
	case "Unknown":
		return 1
	case api.PodRunning:
		return 2
	}
	return 0
}

func readyTime(p *api.Pod) api.Time {
	if c := p.Status.Condition(api.PodReady); c != nil && c.Status == api.ConditionTrue {
		return c.LastTransitionTime
	}
	return api.Time{}
}

// afterOrZero: a zero time first, then the later one.
func afterOrZero(a, b api.Time) bool {
	if !a.Set || !b.Set {
		return !a.Set
	}
	return a.MS > b.MS
}

func maxRestarts(p *api.Pod) int32 {
	var m int32
	for _, cs := range p.Status.ContainerStatuses {
		m = max(m, cs.RestartCount)
	}
	return m
}
