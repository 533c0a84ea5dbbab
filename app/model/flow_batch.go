package model

// This file draws CronJobs over their Jobs and Jobs over their pods: a
// CronJob at the Deployments' row (it creates Jobs on a clock, as a
// Deployment creates ReplicaSets), each Job at the ReplicaSets' row, its
// pods below. A Job's box says how far it has got towards its
// completions and how it ended.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/kubectl"
)

// cronJob places a CronJob above its Jobs, oldest first, and returns the
// lowest y used.
func (l *layout) cronJob(cj *api.CronJob, owned map[string][]api.Object) int {
	start := l.x
	var jobs []*api.Job
	for _, o := range owned[cj.UID] {
		if j, ok := o.(*api.Job); ok {
			jobs = append(jobs, j)
		}
	}
	slices.SortFunc(jobs, func(a, b *api.Job) int {
		return cmp.Or(cmp.Compare(a.CreationTimestamp.MS, b.CreationTimestamp.MS), strings.Compare(a.Name, b.Name))
	})
	bottom := rowPods
	x := start
	for _, j := range jobs {
		w, b := l.job(j, owned[j.UID], x)
		x += w + margin
		bottom = max(bottom, b)
	}
	title := "cj/" + cj.Name
	lines := cronJobLines(cj)
	w := widthFor(boxW, title, lines)
	width := max(x-start-margin, w)
	b := l.add(l.objectBox(cj, start+(width-w)/2, rowDeploy, w, boxH))
	b.Title, b.Lines = title, lines
	switch {
	case cj.DeletionTimestamp != nil:
		b.Status = "gone"
	case cj.Suspended():
		b.Status = "warn"
	case len(cj.Status.Active) > 0:
		b.Status = "progress"
	default:
		b.Status = "ok"
	}
	b.Stale = l.stale(cj, engine.CronJobController, func(o api.Object) string {
		return fmt.Sprintf("%d active", len(o.(*api.CronJob).Status.Active))
	})
	l.x = start + width + 2*margin
	return bottom
}

// cronJobLines: the schedule and policy, then what runs and when it last
// started.
func cronJobLines(cj *api.CronJob) []string {
	sched := cj.Spec.Schedule
	if cj.Spec.TimeZone != nil {
		sched += " " + *cj.Spec.TimeZone
	}
	first := fmt.Sprintf("%s · %s", sched, cj.Spec.ConcurrencyPolicy)
	if cj.Suspended() {
		first += " · suspended"
	}
	last := "never run"
	if t := cj.Status.LastScheduleTime; t != nil {
		last = "last run " + t.Wall().Format("15:04:05")
	}
	return []string{first, fmt.Sprintf("active %d · %s", len(cj.Status.Active), last)}
}

// job places a Job and its pods at x; it returns the width used and the
// lowest y.
func (l *layout) job(j *api.Job, children []api.Object, x int) (int, int) {
	var pods []*api.Pod
	for _, o := range children {
		if p, ok := o.(*api.Pod); ok {
			pods = append(pods, p)
		}
	}
	title := "job/" + j.Name
	lines := jobLines(j)
	cols := min(max(len(pods), 1), podsPerRow)
	w := widthFor(boxW, title, lines)
	width := max(cols*(podW+podGap)-podGap, w)
	b := l.add(l.objectBox(j, x+(width-w)/2, rowRS, w, boxH))
	b.Title, b.Lines = title, lines
	b.Status = jobBoxStatus(j)
	// The Job's status is read by its CronJob's controller, if it has
	// one, else only by the Job controller itself.
	reader := engine.JobController
	if ref := j.ControllerRef(); ref != nil && ref.Kind == api.KindCronJob {
		reader = engine.CronJobController
	}
	b.Stale = l.stale(j, reader, func(o api.Object) string {
		return kubectl.JobStatus(o.(*api.Job))
	})
	return width, l.podsBelow(j.UID, pods, x, width, engine.JobController)
}

// jobLines: the state with the completions, then the pods now and the
// reason it ended (or, Indexed, the indexes done).
func jobLines(j *api.Job) []string {
	st := j.Status
	want := "1"
	if j.Spec.Completions != nil {
		want = fmt.Sprint(*j.Spec.Completions)
	}
	first := fmt.Sprintf("%s · %d/%s done · %d failed", kubectl.JobStatus(j), st.Succeeded, want, st.Failed)
	second := fmt.Sprintf("active %d · ready %d · backoffLimit %d", st.Active, derefInt(st.Ready), derefInt(j.Spec.BackoffLimit))
	for _, t := range []string{api.JobComplete, api.JobFailed, api.JobFailureTarget, api.JobSuccessCriteriaMet} {
		if c := j.Condition(t); c != nil && c.Status == api.ConditionTrue && c.Reason != "" {
			second = fmt.Sprintf("%s: %s", t, c.Reason)
			break
		}
	}
	if j.Indexed() && st.CompletedIndexes != "" && !j.Finished() {
		second = "indexes done " + st.CompletedIndexes
	}
	return []string{first, second}
}

func derefInt(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// jobBoxStatus colours a Job: done, failed or failing, with failures so
// far, running.
func jobBoxStatus(j *api.Job) string {
	switch {
	case j.DeletionTimestamp != nil:
		return "gone"
	case j.HasCondition(api.JobComplete):
		return "ok"
	case j.HasCondition(api.JobFailed) || j.HasCondition(api.JobFailureTarget):
		return "bad"
	case j.Status.Failed > 0 || j.Suspended():
		return "warn"
	}
	return "progress"
}
