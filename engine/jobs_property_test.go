package engine_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

// randomJob is a Job scenario drawn from rng: completions, parallelism,
// backoffLimit, NonIndexed or Indexed, pods that succeed or fail after a
// random time, pods killed mid-run and (sometimes) a suspension that is
// lifted.
func randomJob(rng *rand.Rand) (src string, parallelism, backoffLimit int) {
	completions, parallelism, backoffLimit := 1+rng.IntN(8), 1+rng.IntN(4), rng.IntN(4)
	mode := "NonIndexed"
	if rng.IntN(2) == 0 {
		mode = "Indexed"
	}
	code := 0
	if rng.IntN(3) == 0 {
		code = 1
	}
	actions := ""
	for i := 0; i < rng.IntN(3); i++ {
		actions += fmt.Sprintf("    - {at: %dms, kill-pod: \"batch.kubernetes.io/job-name=work\"}\n", 1000+rng.IntN(30000))
	}
	if rng.IntN(3) == 0 {
		at := 2000 + rng.IntN(20000)
		actions += fmt.Sprintf("    - {at: %dms, kubectl: \"patch job work -p '{\\\"spec\\\":{\\\"suspend\\\":true}}'\"}\n", at)
		actions += fmt.Sprintf("    - {at: %dms, kubectl: \"patch job work -p '{\\\"spec\\\":{\\\"suspend\\\":false}}'\"}\n", at+5000+rng.IntN(20000))
	}
	if actions != "" {
		actions = "  actions:\n" + actions
	}
	src = fmt.Sprintf(`apiVersion: batch/v1
kind: Job
metadata: {name: work}
spec:
  completions: %d
  parallelism: %d
  backoffLimit: %d
  completionMode: %s
  template:
    spec:
      restartPolicy: Never
      containers: [{name: w, image: "w:1"}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: %d
  nodes: {count: 3}
  images:
    "w:1": {pull: %dms, start: 300ms, exitAfter: %dms, exitCode: %d}
%s`, completions, parallelism, backoffLimit, mode, rng.Uint64()%1000, rng.IntN(3000), 1000+rng.IntN(8000), code, actions)
	return src, parallelism, backoffLimit
}

// Random Jobs: the Job never has more active pods (neither finished nor
// being deleted) than its parallelism; a pod that replaces failures
// starts no earlier than 10 s × 2^(n−1) (capped at 10 min) after the
// n-th failure since the last success finished; and once settled, every
// pod has been counted (succeeded and failed match the pods the trace
// saw finish), none keeps the tracking finalizer, and a Job past its
// backoffLimit has failed. The oracle is the pods' versions in the trace
// and docs/fidelity-workloads.md §4.4, not the controller.
func TestJobProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 4))
	for i := 0; i < 24; i++ {
		src, parallelism, backoffLimit := randomJob(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			e, _ := testkit.Load(t, []byte(src))
			if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				t.Fatal(err)
			}
			succeeded, failed := checkJobTrace(t, e, parallelism)
			j := getJob(t, e, "work")
			if !j.Finished() && !j.Suspended() {
				t.Fatalf("settled but neither finished nor suspended: %+v\n%s", j.Status, src)
			}
			if j.Status.Succeeded != int32(succeeded) && !j.Indexed() || j.Status.Failed != int32(failed) {
				t.Errorf("status succeeded %d failed %d; the trace saw %d succeed and %d fail\n%s", j.Status.Succeeded, j.Status.Failed, succeeded, failed, src)
			}
			if failed > backoffLimit && !j.HasCondition(api.JobComplete) && (!j.HasCondition(api.JobFailed) || j.Condition(api.JobFailed).Reason != "BackoffLimitExceeded") {
				t.Errorf("%d failures past backoffLimit %d, conditions %s", failed, backoffLimit, conditionList(j.Status.Conditions))
			}
			for _, p := range testkit.Pods(e, "default") {
				if slices.Contains(p.Finalizers, api.JobTrackingFinalizer) {
					t.Errorf("pod/%s keeps the tracking finalizer", p.Name)
				}
			}
		})
	}
}

// checkJobTrace walks the trace: active pods against parallelism, and the
// backoff before each creation. It returns how many pods succeeded and
// how many failed (Failed, or deleted before succeeding) while they still
// carried the tracking finalizer.
func checkJobTrace(t *testing.T, e *engine.Engine, parallelism int) (succeeded, failed int) {
	t.Helper()
	pods := map[string]*api.Pod{}
	counted := map[string]bool{}
	var failures int   // since the last success
	var lastFail int64 // when the last of them finished
	var suspended bool // no backoff is owed across a suspension's deletions
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if j, ok := eff.After.(*api.Job); ok {
				suspended = j.Suspended()
			}
			if eff.Object.Kind != api.KindPod {
				continue
			}
			p, _ := eff.After.(*api.Pod)
			if eff.Op == trace.Create && failures > 0 && !suspended {
				if wait := backoffFor(failures); tk.Time < lastFail+wait {
					t.Errorf("tick %d: pod/%s created %s after %d failures, the last at %s (backoff %s)", tk.Seq, p.Name, trace.FormatTime(tk.Time), failures, trace.FormatTime(lastFail), trace.FormatTime(wait))
				}
			}
			if p == nil {
				p = eff.Before.(*api.Pod)
				delete(pods, p.Name)
			} else {
				pods[p.Name] = p
			}
			if counted[p.Name] || !slices.Contains(p.Finalizers, api.JobTrackingFinalizer) {
				// A pod is counted through its tracking finalizer: one
				// released first (a suspended Job deletes its pods that
				// way) is never counted.
				continue
			}
			switch {
			case p.Status.Phase == api.PodSucceeded:
				counted[p.Name], succeeded, failures = true, succeeded+1, 0
			case p.Status.Phase == api.PodFailed || p.DeletionTimestamp != nil:
				counted[p.Name], failed, failures = true, failed+1, failures+1
				lastFail = finishedAt(p, tk.Time)
			}
		}
		active := 0
		for _, p := range pods {
			if api.IsPodActive(p) {
				active++
			}
		}
		if active > parallelism {
			t.Fatalf("tick %d: %d active pods, parallelism %d", tk.Seq, active, parallelism)
		}
	}
	return succeeded, failed
}

// backoffFor is §4.4: 10 s × 2^(n−1), at most 10 minutes.
func backoffFor(n int) int64 {
	d := int64(10_000)
	for i := 1; i < n && d < 600_000; i++ {
		d *= 2
	}
	return min(d, 600_000)
}

// finishedAt is when a failed pod's container finished (seconds, as the
// API stores it), or the tick's time for a pod deleted before it ran.
func finishedAt(p *api.Pod, now int64) int64 {
	for _, cs := range p.Status.ContainerStatuses {
		if t := cs.State.Terminated; t != nil {
			return t.FinishedAt.MS
		}
	}
	return now - now%1000
}
