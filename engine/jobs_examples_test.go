package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// The story tests of the Job and CronJob examples read the trace and the
// API server, not the controllers: what a learner would check with
// kubectl get -w.

// jobPodFailures lists, in order, each pod of a Job that failed, with
// when it was created and when its container finished.
type podRun struct {
	name              string
	created, finished int64
}

func jobPods(e *engine.Engine, job string) []podRun {
	var out []podRun
	idx := map[string]int{}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			p, ok := eff.After.(*api.Pod)
			if !ok || p.Labels[api.LabelJobName] != job {
				continue
			}
			i, seen := idx[p.Name]
			if !seen {
				idx[p.Name], i = len(out), len(out)
				out = append(out, podRun{name: p.Name, created: tk.Time, finished: -1})
			}
			for _, cs := range p.Status.ContainerStatuses {
				if t := cs.State.Terminated; t != nil && out[i].finished < 0 {
					out[i].finished = t.FinishedAt.MS
				}
			}
		}
	}
	return out
}

// jobStatuses is every status the API server stored for a Job, in order.
func jobStatuses(e *engine.Engine, name string) []api.JobStatus {
	var out []api.JobStatus
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if j, ok := eff.After.(*api.Job); ok && j.Name == name && eff.Op == trace.Update {
				out = append(out, j.Status)
			}
		}
	}
	return out
}

func conditionList(cs []api.JobCondition) string {
	var parts []string
	for _, c := range cs {
		parts = append(parts, fmt.Sprintf("%s=%s %s", c.Type, c.Status, c.Reason))
	}
	return strings.Join(parts, ", ")
}

func getJob(t *testing.T, e *engine.Engine, name string) *api.Job {
	t.Helper()
	o, ok := e.Store().Get(api.Key{Kind: api.KindJob, Namespace: "default", Name: name})
	if !ok {
		t.Fatalf("job/%s is gone", name)
	}
	return o.(*api.Job)
}

// checkJobBackoff: pi's pods fail one after the other; the second starts
// at least 10 s after the first failed, the third at least 20 s after
// the second; after the third failure (backoffLimit 2) FailureTarget is
// written before Failed, both BackoffLimitExceeded, with the Warning
// Event; ok completes with SuccessCriteriaMet then Complete; no pod keeps
// the tracking finalizer.
func checkJobBackoff(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	runs := jobPods(e, "pi")
	if len(runs) != 3 {
		t.Fatalf("pi ran %d pods, want 3 (backoffLimit 2): %+v", len(runs), runs)
	}
	for i, wait := range []int64{10_000, 20_000} {
		prev, next := runs[i], runs[i+1]
		if prev.finished < 0 || next.created < prev.finished+wait {
			t.Errorf("%s created at %s, %s finished at %s: want a backoff of at least %s", next.name, trace.FormatTime(next.created), prev.name, trace.FormatTime(prev.finished), trace.FormatTime(wait))
		}
		if next.created > prev.finished+wait+3_000 {
			t.Errorf("%s created at %s, more than 3 s after its backoff ended", next.name, trace.FormatTime(next.created))
		}
	}
	pi := getJob(t, e, "pi")
	if got := conditionList(pi.Status.Conditions); got != "FailureTarget=True BackoffLimitExceeded, Failed=True BackoffLimitExceeded" {
		t.Errorf("pi conditions %s", got)
	}
	if pi.Status.Failed != 3 || pi.Status.Active != 0 || pi.Status.CompletionTime != nil {
		t.Errorf("pi status %+v", pi.Status)
	}
	interim := slices.ContainsFunc(jobStatuses(e, "pi"), func(s api.JobStatus) bool {
		return strings.Contains(conditionList(s.Conditions), "FailureTarget") && !strings.Contains(conditionList(s.Conditions), "Failed=")
	})
	if !interim {
		t.Error("pi never stored the interim FailureTarget condition alone")
	}
	if n := countEvents(e, "BackoffLimitExceeded", "Job has reached the specified backoff limit"); n != 1 {
		t.Errorf("%d BackoffLimitExceeded Events", n)
	}
	for _, ev := range eventsWith(e, "BackoffLimitExceeded") {
		if ev.Type != api.EventWarning {
			t.Errorf("BackoffLimitExceeded is a %s Event, want Warning", ev.Type)
		}
	}
	ok := getJob(t, e, "ok")
	if got := conditionList(ok.Status.Conditions); got != "SuccessCriteriaMet=True CompletionsReached, Complete=True CompletionsReached" || ok.Status.CompletionTime == nil || ok.Status.Succeeded != 1 {
		t.Errorf("ok status: %s, %+v", got, ok.Status)
	}
	if n := countEvents(e, "Completed", "Job completed"); n != 1 {
		t.Errorf("%d Completed Events", n)
	}
	for _, p := range testkit.List[*api.Pod](e, api.KindPod, "default") {
		if slices.Contains(p.Finalizers, api.JobTrackingFinalizer) {
			t.Errorf("pod/%s still has the tracking finalizer", p.Name)
		}
	}
}

// checkJobIndexed: never more than three running pods; each pod carries
// its index (name, label, annotation, hostname, JOB_COMPLETION_INDEX);
// each batch of new pods takes the lowest pending indexes (the killed
// index 1 first); completedIndexes reads "0,2", "0-4", "0-7", "0-9",
// and the Job ends Complete with one failure.
func checkJobIndexed(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	active := map[string]bool{}
	done := map[int]bool{}
	var gap bool
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			switch o := eff.After.(type) {
			case *api.Pod:
				active[o.Name] = api.IsPodActive(o)
				if eff.Op == trace.Create {
					checkIndexedPod(t, o, done)
				}
			case *api.Job:
				ixs := parseIndexes(o.Status.CompletedIndexes)
				if !slices.Contains(ixs, 1) && slices.ContainsFunc(ixs, func(i int) bool { return i > 1 }) {
					gap = true
				}
				for _, ix := range ixs {
					done[ix] = true
				}
			}
		}
		n := 0
		for _, a := range active {
			if a {
				n++
			}
		}
		if n > 3 {
			t.Fatalf("tick %d: %d pods running, parallelism is 3", tk.Seq, n)
		}
	}
	if !gap {
		t.Error("completedIndexes never showed the gap at index 1")
	}
	if got := strings.Join(completedSequence(e, "render"), " → "); got != "0,2 → 0-4 → 0-7 → 0-9" {
		t.Errorf("completedIndexes %s", got)
	}
	if got := createdIndexBatches(e); got != "0 1 2 | 1 3 4 | 5 6 7 | 8 9" {
		t.Errorf("indexes created, by batch: %s; want the lowest pending each time", got)
	}
	j := getJob(t, e, "render")
	if j.Status.CompletedIndexes != "0-9" || j.Status.Succeeded != 10 || j.Status.Failed != 1 || !j.HasCondition(api.JobComplete) {
		t.Errorf("render status %+v", j.Status)
	}
}

// checkIndexedPod checks a new pod's index: in range, not done, with its
// label, hostname and environment.
func checkIndexedPod(t *testing.T, p *api.Pod, done map[int]bool) {
	ix := p.Annotations[api.JobCompletionIndex]
	if p.Labels[api.JobCompletionIndex] != ix || !strings.HasPrefix(p.Name, "render-"+ix+"-") || p.Spec.Hostname != "render-"+ix {
		t.Errorf("pod/%s: index annotation %q, label %q, hostname %q", p.Name, ix, p.Labels[api.JobCompletionIndex], p.Spec.Hostname)
	}
	var n int
	if _, err := fmt.Sscan(ix, &n); err != nil || n < 0 || n > 9 || done[n] {
		t.Errorf("pod/%s for index %q, already done or out of range", p.Name, ix)
	}
	env := p.Spec.Containers[0].Env
	if len(env) != 1 || env[0].Name != "JOB_COMPLETION_INDEX" || env[0].ValueFrom == nil || env[0].ValueFrom.FieldRef.FieldPath != "metadata.labels['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("pod/%s env %+v", p.Name, env)
	}
}

// parseIndexes reads "0-2,4" (test oracle, independent of the controller).
func parseIndexes(s string) []int {
	var out []int
	for _, part := range strings.Split(s, ",") {
		var a, b int
		if n, _ := fmt.Sscanf(part, "%d-%d", &a, &b); n == 2 {
			for i := a; i <= b; i++ {
				out = append(out, i)
			}
		} else if n == 1 {
			out = append(out, a)
		}
	}
	return out
}

// checkCronJobConcurrency: Jobs named by the minute, with the scheduled
// time annotation; Forbid skips while its Job runs and starts the due run
// late, Replace deletes its running Job every minute and none completes;
// one finished Forbid Job is kept; nothing starts after the suspension.
func checkCronJobConcurrency(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	created := map[string][]string{}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if j, ok := eff.After.(*api.Job); ok && eff.Op == trace.Create {
				owner := j.ControllerRef().Name
				created[owner] = append(created[owner], fmt.Sprintf("%s@%s", strings.TrimPrefix(j.Name, owner+"-"), trace.FormatTime(tk.Time)))
				if tk.Time > 390_000 {
					t.Errorf("job/%s created at %s, after the suspension", j.Name, trace.FormatTime(tk.Time))
				}
				if j.Name == "report-forbid-28928161" && j.Annotations[api.CronJobScheduledTimestamp] != "2025-01-01T00:01:00Z" {
					t.Errorf("scheduled timestamp %q", j.Annotations[api.CronJobScheduledTimestamp])
				}
			}
		}
	}
	if got := strings.Join(created["report-replace"], " "); got != "28928161@60.100s 28928162@120.100s 28928163@180.100s 28928164@240.100s 28928165@300.100s 28928166@360.100s" {
		t.Errorf("Replace created %s", got)
	}
	forbid := created["report-forbid"]
	if len(forbid) < 3 || !strings.HasPrefix(forbid[0], "28928161@60.100s") || !strings.HasPrefix(forbid[1], "28928162@") || strings.HasSuffix(forbid[1], "@120.100s") {
		t.Errorf("Forbid created %v: want 00:01 on time and 00:02 late", forbid)
	}
	if countEvents(e, "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid") < 3 {
		t.Error("fewer than 3 JobAlreadyActive Events")
	}
	if countEvents(e, "SuccessfulDelete", "Deleted job report-replace-") != 5 {
		t.Error("Replace did not delete each of its 5 replaced Jobs")
	}
	var forbidDone int
	for _, j := range testkit.List[*api.Job](e, api.KindJob, "default") {
		switch owner := j.ControllerRef().Name; {
		case owner == "report-replace" && j.HasCondition(api.JobComplete) && j.Name != "report-replace-28928166":
			t.Errorf("replaced job/%s completed", j.Name)
		case owner == "report-forbid" && j.HasCondition(api.JobComplete):
			forbidDone++
		}
	}
	if forbidDone != 1 {
		t.Errorf("%d finished Forbid Jobs kept, successfulJobsHistoryLimit is 1", forbidDone)
	}
}

// completedSequence is each distinct completedIndexes the Job's status
// showed, in order.
func completedSequence(e *engine.Engine, name string) []string {
	var out []string
	for _, st := range jobStatuses(e, name) {
		if s := st.CompletedIndexes; s != "" && (len(out) == 0 || out[len(out)-1] != s) {
			out = append(out, s)
		}
	}
	return out
}

// createdIndexBatches is the completion indexes of the pods each tick
// created, tick by tick.
func createdIndexBatches(e *engine.Engine) string {
	var batches []string
	for _, tk := range e.Trace() {
		var ixs []string
		for _, eff := range tk.Effects {
			if p, ok := eff.After.(*api.Pod); ok && eff.Op == trace.Create {
				ixs = append(ixs, p.Annotations[api.JobCompletionIndex])
			}
		}
		if len(ixs) > 0 {
			batches = append(batches, strings.Join(ixs, " "))
		}
	}
	return strings.Join(batches, " | ")
}
