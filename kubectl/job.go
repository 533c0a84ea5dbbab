package kubectl

// This file prints Jobs: their get columns (pkg/printers/internalversion
// printJob) and describe (k8s.io/kubectl pkg/describe JobDescriber).

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/stateflow/stateflow/engine/api"
)

// jobRow is printJob: STATUS, COMPLETIONS and DURATION, then the
// template's containers, images and the selector when wide.
func jobRow(j *api.Job, name string, wide bool, now int64) []string {
	r := []string{name, JobStatus(j), jobCompletions(j), jobDuration(j, now), age(j.CreationTimestamp, now)}
	if wide {
		r = append(r, containerNames(&j.Spec.Template.Spec), images(&j.Spec.Template.Spec), j.Spec.Selector.String())
	}
	return r
}

// JobStatus is printJob's STATUS: the first of Complete, Failed,
// Terminating (a deletion timestamp), Suspended, FailureTarget and
// SuccessCriteriaMet that holds (a condition counts only when True),
// else Running.
func JobStatus(j *api.Job) string {
	switch {
	case j.HasCondition(api.JobComplete):
		return "Complete"
	case j.HasCondition(api.JobFailed):
		return "Failed"
	case j.DeletionTimestamp != nil:
		return "Terminating"
	case j.HasCondition(api.JobSuspended):
		return "Suspended"
	case j.HasCondition(api.JobFailureTarget):
		return "FailureTarget"
	case j.HasCondition(api.JobSuccessCriteriaMet):
		return "SuccessCriteriaMet"
	}
	return "Running"
}

// jobCompletions is printJob's COMPLETIONS: succeeded over completions,
// or, for a work queue (no completions), over 1, "of" the parallelism
// when more than one pod may run.
func jobCompletions(j *api.Job) string {
	if c := j.Spec.Completions; c != nil {
		return fmt.Sprintf("%d/%d", j.Status.Succeeded, *c)
	}
	if p := j.Spec.Parallelism; p != nil && *p > 1 {
		return fmt.Sprintf("%d/1 of %d", j.Status.Succeeded, *p)
	}
	return fmt.Sprintf("%d/1", j.Status.Succeeded)
}

// jobDuration is printJob's DURATION: empty before the Job starts, the
// time since it started while it has no completion time (a failed Job
// never gets one), then how long it took.
func jobDuration(j *api.Job, now int64) string {
	st := j.Status
	switch {
	case st.StartTime == nil:
		return ""
	case st.CompletionTime == nil:
		return humanDuration(now - st.StartTime.MS)
	}
	return humanDuration(st.CompletionTime.MS - st.StartTime.MS)
}

// humanDuration is duration.HumanDuration of ms milliseconds.
func humanDuration(ms int64) string {
	return duration.HumanDuration(time.Duration(ms) * time.Millisecond)
}

// describeJob is describeJob: the spec's counts and limits, the start
// and completion times, the pods' counts from the status, the completed
// indexes of an Indexed Job, and the pod template.
func (s *Session) describeJob(w *prefixWriter, j *api.Job) {
	w.line(0, "Name:\t%s", j.Name)
	w.line(0, "Namespace:\t%s", j.Namespace)
	w.line(0, "Selector:\t%s", describeSelector(j.Spec.Selector))
	mapLines(w, 0, "Labels", j.Labels, "=")
	annotationLines(w, j.Annotations)
	if ref := j.ControllerRef(); ref != nil {
		w.line(0, "Controlled By:\t%s/%s", ref.Kind, ref.Name)
	}
	jobSpecLines(w, &j.Spec)
	jobTimeLines(w, j)
	if d := j.Spec.ActiveDeadlineSeconds; d != nil {
		w.line(0, "Active Deadline Seconds:\t%ds", *d)
	}
	st := j.Status
	if st.Ready == nil {
		w.line(0, "Pods Statuses:\t%d Active / %d Succeeded / %d Failed", st.Active, st.Succeeded, st.Failed)
	} else {
		w.line(0, "Pods Statuses:\t%d Active (%d Ready) / %d Succeeded / %d Failed", st.Active, *st.Ready, st.Succeeded, st.Failed)
	}
	if j.Indexed() {
		w.line(0, "Completed Indexes:\t%s", capIndexes(st.CompletedIndexes, 50))
	}
	w.line(0, "Pod Template:")
	templateLines(w, 1, &j.Spec.Template)
}

// jobSpecLines are the spec fields describeJob prints when they are set
// (the API server defaults all but completions and the TTL).
func jobSpecLines(w *prefixWriter, sp *api.JobSpec) {
	if sp.Parallelism != nil {
		w.line(0, "Parallelism:\t%d", *sp.Parallelism)
	}
	if sp.Completions != nil {
		w.line(0, "Completions:\t%d", *sp.Completions)
	} else {
		w.line(0, "Completions:\t<unset>")
	}
	if sp.CompletionMode != nil {
		w.line(0, "Completion Mode:\t%s", *sp.CompletionMode)
	}
	if sp.Suspend != nil {
		w.line(0, "Suspend:\t%v", *sp.Suspend)
	}
	if sp.BackoffLimit != nil {
		w.line(0, "Backoff Limit:\t%d", *sp.BackoffLimit)
	}
	if sp.TTLSecondsAfterFinished != nil {
		w.line(0, "TTL Seconds After Finished:\t%d", *sp.TTLSecondsAfterFinished)
	}
}

// jobTimeLines are Start Time, Completed At and the Duration between
// them, each when the status has what it needs.
func jobTimeLines(w *prefixWriter, j *api.Job) {
	st := j.Status
	if st.StartTime != nil {
		w.line(0, "Start Time:\t%s", timestamp(*st.StartTime))
	}
	if st.CompletionTime != nil {
		w.line(0, "Completed At:\t%s", timestamp(*st.CompletionTime))
	}
	if st.StartTime != nil && st.CompletionTime != nil {
		w.line(0, "Duration:\t%s", humanDuration(st.CompletionTime.MS-st.StartTime.MS))
	}
}

// describeSelector is a selector as describe prints it
// (LabelSelectorAsSelector's String): empty when it selects nothing or
// everything.
func describeSelector(sel *api.LabelSelector) string {
	if s := sel.String(); s != "<none>" {
		return s
	}
	return ""
}

// capIndexes is capIndexesListOrNone: the completed indexes cut after
// the first comma past softLimit bytes, "<none>" when there are none.
func capIndexes(indexes string, softLimit int) string {
	if indexes == "" {
		return "<none>"
	}
	ix := softLimit
	for ; ix < len(indexes); ix++ {
		if indexes[ix] == ',' {
			break
		}
	}
	if ix >= len(indexes) {
		return indexes
	}
	return indexes[:ix+1] + "..."
}
