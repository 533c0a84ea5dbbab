package model

// This file draws CronJobs over their Jobs and Jobs over their pods: a
// CronJob at the Deployments' row (it creates Jobs on a clock, as a
// Deployment creates ReplicaSets), each Job at the ReplicaSets' row, its
// pods below. A Job's box says how far it has got towards its
// completions and how it ended.

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/kubectl"
)

// cronJob is a CronJob's lane: it over its Jobs, oldest first.
func (s *scene) cronJob(cj *api.CronJob, owned map[string][]api.Object) *lane {
	jobs := ownedOldestFirst[*api.Job](owned[cj.UID])
	ln := &lane{id: api.KeyOf(cj).String()}
	for _, j := range jobs {
		ln.owners = append(ln.owners, s.job(j, owned[j.UID]))
	}
	ln.top = []*Box{s.kindBox(cj, cronJobLines(cj), cronJobStatus(cj))}
	return ln
}

// cronJobStatus: gone while deleted, a warning while suspended, in
// progress while a Job runs.
func cronJobStatus(cj *api.CronJob) string {
	switch {
	case cj.DeletionTimestamp != nil:
		return "gone"
	case cj.Suspended():
		return "warn"
	case len(cj.Status.Active) > 0:
		return "progress"
	}
	return "ok"
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

// job is a Job over its pods.
func (s *scene) job(j *api.Job, children []api.Object) *owner {
	return s.podsOf(s.kindBox(j, jobLines(j), jobBoxStatus(j)), j.UID, children)
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
