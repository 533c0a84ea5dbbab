package kubectl

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// printJob's STATUS takes the first of Complete, Failed, Terminating,
// Suspended, FailureTarget and SuccessCriteriaMet that holds; a
// condition counts only when True.
func TestJobStatusOrder(t *testing.T) {
	cond := func(types ...string) []api.JobCondition {
		var cs []api.JobCondition
		for _, ty := range types {
			status := api.ConditionTrue
			if ty == "Suspended=False" {
				ty, status = api.JobSuspended, api.ConditionFalse
			}
			cs = append(cs, api.JobCondition{Type: ty, Status: status})
		}
		return cs
	}
	now := api.At(1000)
	for _, tc := range []struct {
		conds    []api.JobCondition
		deleting bool
		want     string
	}{
		{nil, false, "Running"},
		{cond("Suspended=False"), false, "Running"},
		{cond(api.JobSuccessCriteriaMet), false, "SuccessCriteriaMet"},
		{cond(api.JobSuccessCriteriaMet, api.JobFailureTarget), false, "FailureTarget"},
		{cond(api.JobFailureTarget, api.JobSuspended), false, "Suspended"},
		{cond(api.JobSuspended), true, "Terminating"},
		{cond(api.JobFailureTarget, api.JobFailed), true, "Failed"},
		{cond(api.JobFailed, api.JobComplete), true, "Complete"},
		{cond(api.JobSuccessCriteriaMet, api.JobComplete), false, "Complete"},
	} {
		j := &api.Job{Status: api.JobStatus{Conditions: tc.conds}}
		if tc.deleting {
			j.DeletionTimestamp = &now
		}
		if got := JobStatus(j); got != tc.want {
			t.Errorf("%v (deleting %v): %s, want %s", tc.conds, tc.deleting, got, tc.want)
		}
	}
}

// COMPLETIONS counts against completions, or for a work queue against 1
// "of" the parallelism when it is above 1; DURATION is empty before the
// start, grows until the completion time, and a Failed Job has none.
func TestJobCompletionsAndDuration(t *testing.T) {
	start, done := api.At(10_000), api.At(95_000)
	for _, tc := range []struct {
		completions, parallelism *int32
		start, completion        *api.Time
		wantCompletions, wantDur string
	}{
		{api.Int32(3), api.Int32(2), nil, nil, "2/3", ""},
		{nil, api.Int32(1), &start, nil, "2/1", "110s"},
		{nil, api.Int32(4), &start, &done, "2/1 of 4", "85s"},
		{nil, nil, &start, &done, "2/1", "85s"},
	} {
		j := &api.Job{Spec: api.JobSpec{Completions: tc.completions, Parallelism: tc.parallelism},
			Status: api.JobStatus{Succeeded: 2, StartTime: tc.start, CompletionTime: tc.completion}}
		if got := jobCompletions(j); got != tc.wantCompletions {
			t.Errorf("completions %v parallelism %v: %s, want %s", tc.completions, tc.parallelism, got, tc.wantCompletions)
		}
		if got := jobDuration(j, 120_000); got != tc.wantDur {
			t.Errorf("start %v completion %v: duration %q, want %q", tc.start, tc.completion, got, tc.wantDur)
		}
	}
}

// Completed Indexes is cut after the first comma past 50 bytes.
func TestCapIndexes(t *testing.T) {
	long := "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42"
	for _, tc := range []struct{ in, want string }{
		{"", "<none>"},
		{"0-2", "0-2"},
		{long, "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,..."},
		{long[:51], long[:51]},
	} {
		if got := capIndexes(tc.in, 50); got != tc.want {
			t.Errorf("capIndexes(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
