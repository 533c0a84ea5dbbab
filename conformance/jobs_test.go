package conformance

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// jobImages are the images the Job and CronJob scenarios run: pods that
// succeed after 10 s, that fail with exit code 1 after 5 s, that fail
// with exit code 42, and that run 90 s.
const jobImages = `    "example/pi:v1": {pull: 1s, start: 1s, exitAfter: 10s, exitCode: 0}
    "example/pi:fail": {pull: 1s, start: 1s, exitAfter: 5s, exitCode: 1}
    "example/pi:42": {pull: 1s, start: 1s, exitAfter: 5s, exitCode: 42}
    "example/pi:long": {pull: 1s, start: 1s, exitAfter: 90s, exitCode: 0}
`

// at is an action of a scenario: a kubectl command at a time.
func at(when, command string) string {
	return fmt.Sprintf("    - at: %s\n      kubectl: %s\n", when, command)
}

// deleteJobPods deletes, as kubectl delete pod -l
// batch.kubernetes.io/job-name=<job> would, the Job's pods that are not
// being deleted.
func deleteJobPods(job string) func(t *testing.T, e *engine.Engine) {
	return func(t *testing.T, e *engine.Engine) {
		t.Helper()
		for _, o := range e.Store().List(api.KindPod, "default") {
			p := o.(*api.Pod)
			if p.Labels[api.LabelJobName] != job || p.DeletionTimestamp != nil {
				continue
			}
			tk := e.Act(engine.KubectlActor, api.KeyOf(p), func(tick reconcile.Tick) error {
				return tick.Delete(trace.Translate, api.KeyOf(p), apiserver.DeleteOptions{}, "kubectl delete pod "+p.Name)
			})
			if tk.Err() != "" {
				t.Fatal(tk.Err())
			}
		}
	}
}

// jobScenario is a Job "pi" with the given extra spec lines (indented
// two spaces), restart policy and image, and actions (indented four).
func jobScenario(spec, restartPolicy, image, actions string) string {
	return fmt.Sprintf(`apiVersion: batch/v1
kind: Job
metadata: {name: pi}
spec:
%s  template:
    spec:
      restartPolicy: %s
      containers:
        - name: pi
          image: %q
          resources: {requests: {cpu: 1m, memory: 1Mi}}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 3
  nodes: {count: 2}
  images:
%s  actions:
%s`, spec, restartPolicy, image, jobImages, actions)
}

// withQuota adds a pod quota to a scenario.
func withQuota(src string, pods int) string {
	return strings.Replace(src, "\n  seed: ", fmt.Sprintf("\n  quota: {pods: %d}\n  seed: ", pods), 1)
}

// cronJobScenario is a CronJob "report" with the given schedule, extra
// spec lines (indented two spaces), image, and actions (indented four).
func cronJobScenario(schedule, spec, image, actions string) string {
	return fmt.Sprintf(`apiVersion: batch/v1
kind: CronJob
metadata: {name: report}
spec:
  schedule: %q
%s  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Never
          containers:
            - name: report
              image: %q
              resources: {requests: {cpu: 1m, memory: 1Mi}}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 5
  nodes: {count: 2}
  images:
%s  actions:
%s`, schedule, spec, image, jobImages, actions)
}

// Job scenarios: every Job controller tick agrees with upstream's
// syncJob (or syncOrphanPod), every TTL-after-finished tick with its
// processJob, or differs only as allowances.go allows.
func TestJobs(t *testing.T) {
	const failurePolicy = "  podFailurePolicy:\n    rules:\n" +
		"      - {action: Ignore, onExitCodes: {operator: In, values: [1]}}\n" +
		"      - {action: FailJob, onExitCodes: {containerName: pi, operator: In, values: [42]}}\n"
	for _, tc := range []struct {
		name, spec, restartPolicy, image, actions string
		ttl                                       bool
		acts                                      []timed
		quota                                     int
	}{{
		name: "completions-3-parallelism-2",
		spec: "  completions: 3\n  parallelism: 2\n",
	}, {
		// Three failures: the replacements wait 10 s and 20 s, then
		// BackoffLimitExceeded.
		name:  "backoff-limit",
		spec:  "  backoffLimit: 2\n",
		image: "example/pi:fail",
	}, {
		// Failures while other pods run: the backoff holds the
		// replacements back with pods active.
		name:  "backoff-parallel",
		spec:  "  completions: 4\n  parallelism: 3\n  backoffLimit: 3\n",
		image: "example/pi:fail",
	}, {
		// Pods by index, three at a time; one killed mid-run is
		// replaced under its index.
		name:    "indexed",
		spec:    "  completionMode: Indexed\n  completions: 10\n  parallelism: 3\n",
		actions: "    - {at: 8s, kill-pod: batch.kubernetes.io/job-completion-index=1}\n",
	}, {
		// The deadline passes with pods running: they are deleted,
		// FailureTarget then Failed (DeadlineExceeded).
		name:  "active-deadline",
		spec:  "  activeDeadlineSeconds: 30\n  completions: 2\n  parallelism: 2\n",
		image: "example/pi:long",
	}, {
		// Exit code 42 matches the FailJob rule at once.
		name:  "pod-failure-policy-fail-job",
		spec:  failurePolicy + "  completions: 2\n  parallelism: 2\n",
		image: "example/pi:42",
	}, {
		// Exit code 1 matches the Ignore rule: the failures do not
		// count (backoffLimit 0 is never exceeded), though they still
		// back off; the deadline ends it.
		name:  "pod-failure-policy-ignore",
		spec:  failurePolicy + "  backoffLimit: 0\n  activeDeadlineSeconds: 100\n",
		image: "example/pi:fail",
	}, {
		// Created suspended, resumed, suspended again mid-run (its pods
		// deleted), resumed.
		name: "suspend-resume",
		spec: "  suspend: true\n  completions: 4\n  parallelism: 2\n",
		actions: at("10s", `patch job/pi -p '{"spec":{"suspend":false}}'`) +
			at("16s", `patch job/pi -p '{"spec":{"suspend":true}}'`) +
			at("30s", `patch job/pi -p '{"spec":{"suspend":false}}'`),
	}, {
		// Deleted 30 s after it completes, in the foreground.
		name: "ttl-after-finished",
		spec: "  ttlSecondsAfterFinished: 30\n  completions: 2\n  parallelism: 2\n",
		ttl:  true,
	}, {
		// A failed Job with a TTL of 0: deleted as soon as it fails.
		name:  "ttl-zero-failed",
		spec:  "  ttlSecondsAfterFinished: 0\n  backoffLimit: 0\n",
		image: "example/pi:fail",
		ttl:   true,
	}, {
		// Containers restarted in place: the restarts reach the
		// backoff limit (pastBackoffLimitOnFailure).
		name:          "restart-on-failure",
		spec:          "  backoffLimit: 2\n",
		restartPolicy: "OnFailure",
		image:         "example/pi:fail",
	}, {
		// The Job deleted while its pods run: their tracking finalizer
		// goes once no Job owns them (syncOrphanPod).
		name:    "deleted-while-running",
		spec:    "  completions: 3\n  parallelism: 3\n",
		image:   "example/pi:long",
		actions: at("10s", `delete job/pi`),
	}, {
		name:    "orphaned-pods",
		spec:    "  completions: 2\n  parallelism: 2\n",
		image:   "example/pi:long",
		actions: at("10s", `delete job/pi --cascade=orphan`),
	}, {
		// Parallelism scaled down and up while pods run.
		name:  "scale-parallelism",
		spec:  "  completions: 6\n  parallelism: 3\n",
		image: "example/pi:long",
		actions: at("10s", `patch job/pi -p '{"spec":{"parallelism":1}}'`) +
			at("30s", `patch job/pi -p '{"spec":{"parallelism":4}}'`),
	}, {
		// No completions: done once a pod succeeds and none is left
		// running.
		name: "work-queue",
		spec: "  parallelism: 3\n",
	}, {
		// Indexed with failures: each failed index is retried.
		name:  "indexed-failing",
		spec:  "  completionMode: Indexed\n  completions: 4\n  parallelism: 2\n  backoffLimit: 3\n",
		image: "example/pi:fail",
	}, {
		// An Indexed Job scaled elastically (completions and
		// parallelism together), down and up.
		name:  "indexed-elastic",
		spec:  "  completionMode: Indexed\n  completions: 4\n  parallelism: 4\n",
		image: "example/pi:long",
		actions: at("10s", `patch job/pi -p '{"spec":{"completions":2,"parallelism":2}}'`) +
			at("30s", `patch job/pi -p '{"spec":{"completions":5,"parallelism":5}}'`),
	}, {
		// A pod deleted: with TerminatingOrFailed it counts as failed
		// and is replaced at once.
		name:  "pod-deleted",
		spec:  "  completions: 2\n  parallelism: 2\n",
		image: "example/pi:long",
		acts:  []timed{{at: 10_000, do: deleteJobPods("pi")}},
	}, {
		// With podReplacementPolicy Failed, only once it has failed.
		name:  "pod-deleted-replace-failed",
		spec:  "  completions: 2\n  parallelism: 2\n  podReplacementPolicy: Failed\n",
		image: "example/pi:long",
		acts:  []timed{{at: 10_000, do: deleteJobPods("pi")}},
	}, {
		// A node lost under the Job's pods: evicted, counted, replaced.
		name:    "node-unreachable",
		spec:    "  completions: 4\n  parallelism: 4\n",
		image:   "example/pi:long",
		actions: "    - at: 10s\n      node: node-1\n      condition: Unreachable\n",
	}, {
		// Deleted in the foreground while running.
		name:    "deleted-foreground",
		spec:    "  completions: 2\n  parallelism: 2\n",
		image:   "example/pi:long",
		actions: at("10s", `delete job/pi --cascade=foreground`),
	}, {
		// Suspended while its pods back off after failures.
		name:  "suspend-during-backoff",
		spec:  "  completions: 2\n  parallelism: 2\n  backoffLimit: 6\n",
		image: "example/pi:fail",
		actions: at("20s", `patch job/pi -p '{"spec":{"suspend":true}}'`) +
			at("40s", `patch job/pi -p '{"spec":{"suspend":false}}'`),
	}, {
		// A pod quota of 3 under parallelism 6: creations refused
		// (FailedCreate), the slow start stopping at the first failed
		// batch, retried as pods finish.
		name:  "pod-quota",
		spec:  "  completions: 8\n  parallelism: 6\n",
		quota: 3,
	}, {
		// The TTL changed after the Job finished.
		name:    "ttl-changed",
		spec:    "  ttlSecondsAfterFinished: 600\n",
		ttl:     true,
		actions: at("30s", `patch job/pi -p '{"spec":{"ttlSecondsAfterFinished":20}}'`),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			rp, image := tc.restartPolicy, tc.image
			if rp == "" {
				rp = "Never"
			}
			if image == "" {
				image = "example/pi:v1"
			}
			if tc.actions == "" {
				tc.actions = "    []\n"
			}
			want := []string{"job-controller"}
			if tc.ttl {
				want = append(want, "ttl-after-finished-controller")
			}
			src := jobScenario(tc.spec, rp, image, tc.actions)
			if tc.quota > 0 {
				src = withQuota(src, tc.quota)
			}
			reportFor(t, runActing(t, src, 20*60_000, tc.acts...), want...)
		})
	}
}

// CronJob scenarios: every CronJob controller tick agrees with
// upstream's ControllerV2.sync at the tick's time, with the same
// requeue, or differs only as allowances.go allows; the Job controller's
// ticks on the Jobs it creates too.
func TestCronJobs(t *testing.T) {
	suspend := at("6m30s", `patch cronjob report -p '{"spec":{"suspend":true}}'`)
	for _, tc := range []struct {
		name, schedule, spec, image, actions string
		jobSpec                              string // the Job template's spec lines, indented six spaces
	}{{
		// Jobs of 90 s every minute: the runs that find one still
		// running are skipped.
		name:     "forbid",
		schedule: "*/1 * * * *",
		spec:     "  concurrencyPolicy: Forbid\n",
		image:    "example/pi:long",
		actions:  suspend,
	}, {
		// The running Job is deleted and replaced.
		name:     "replace",
		schedule: "*/1 * * * *",
		spec:     "  concurrencyPolicy: Replace\n",
		image:    "example/pi:long",
		actions:  suspend,
	}, {
		name:     "allow",
		schedule: "*/1 * * * *",
		image:    "example/pi:long",
		actions:  suspend,
	}, {
		// Suspended over several schedule times, resumed within and
		// then past the starting deadline.
		name:     "starting-deadline-suspend",
		schedule: "*/2 * * * *",
		spec:     "  startingDeadlineSeconds: 30\n",
		image:    "example/pi:v1",
		actions: at("2m30s", `patch cronjob report -p '{"spec":{"suspend":true}}'`) +
			at("6m20s", `patch cronjob report -p '{"spec":{"suspend":false}}'`) +
			at("6m50s", `patch cronjob report -p '{"spec":{"suspend":true}}'`) +
			at("9m", `patch cronjob report -p '{"spec":{"suspend":false}}'`) +
			at("12m30s", `patch cronjob report -p '{"spec":{"suspend":true}}'`),
	}, {
		// One successful and one failed Job kept: older ones deleted.
		name:     "history-limits",
		schedule: "*/1 * * * *",
		spec:     "  successfulJobsHistoryLimit: 1\n  failedJobsHistoryLimit: 1\n",
		image:    "example/pi:v1",
		actions: at("3m30s", `set image cronjob/report report=example/pi:fail`) +
			at("6m30s", `set image cronjob/report report=example/pi:v1`) +
			at("9m30s", `patch cronjob report -p '{"spec":{"suspend":true}}'`),
	}, {
		// The schedule changed mid-story.
		name:     "schedule-change",
		schedule: "*/3 * * * *",
		image:    "example/pi:v1",
		actions: at("4m", `patch cronjob report -p '{"spec":{"schedule":"*/1 * * * *"}}'`) +
			at("7m30s", `patch cronjob report -p '{"spec":{"suspend":true}}'`),
	}, {
		// In a time zone: 02:00 in Asia/Kolkata (UTC+5:30) is 20:30 UTC.
		name:     "time-zone",
		schedule: "*/30 * * * *",
		spec:     "  timeZone: Asia/Kolkata\n",
		image:    "example/pi:v1",
		actions:  at("95m", `patch cronjob report -p '{"spec":{"suspend":true}}'`),
	}, {
		// Replace deletes running Jobs whose pods still carry the
		// tracking finalizer; then the CronJob itself goes.
		name:     "replace-then-delete",
		schedule: "*/1 * * * *",
		spec:     "  concurrencyPolicy: Replace\n  successfulJobsHistoryLimit: 0\n",
		image:    "example/pi:long",
		actions:  at("4m30s", `delete cronjob report`),
	}, {
		// Finished Jobs deleted by their TTL before the history limit
		// would: the CronJob sees them go.
		name:     "job-ttl",
		schedule: "*/1 * * * *",
		jobSpec:  "      ttlSecondsAfterFinished: 30\n",
		image:    "example/pi:v1",
		actions:  at("5m30s", `patch cronjob report -p '{"spec":{"suspend":true}}'`),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			src := cronJobScenario(tc.schedule, tc.spec, tc.image, tc.actions)
			src = strings.Replace(src, "    spec:\n      template:", "    spec:\n"+tc.jobSpec+"      template:", 1)
			reportFor(t, run(t, []byte(src), 120*60_000), "cronjob-controller", "job-controller")
		})
	}
}

// randomJob is one generated Job: its spec lines (indented two spaces),
// restart policy and image.
type randomJob struct {
	name, spec, restartPolicy, image string
}

// newRandomJob draws a Job: completions or a work queue, parallelism,
// Indexed, a backoff limit, a pod failure policy, an active deadline, a
// TTL, created suspended, the pod replacement policy, and an image that
// succeeds, fails, fails with 42, or runs long.
func newRandomJob(rng *rand.Rand, name string) randomJob {
	j := randomJob{name: name, restartPolicy: "Never"}
	var b strings.Builder
	line := func(f string, args ...any) { fmt.Fprintf(&b, "  "+f+"\n", args...) }
	completions := rng.IntN(3) > 0
	if completions {
		line("completions: %d", 1+rng.IntN(6))
		if rng.IntN(5) < 2 {
			line("completionMode: Indexed")
		}
	}
	line("parallelism: %d", 1+rng.IntN(4))
	if rng.IntN(4) > 0 {
		line("backoffLimit: %d", rng.IntN(5))
	}
	policy := rng.IntN(4) == 0
	switch {
	case policy:
		line("podFailurePolicy:\n    rules:\n      - {action: %s, onExitCodes: {operator: In, values: [1]}}\n      - {action: FailJob, onExitCodes: {operator: In, values: [42]}}\n      - {action: %s, onExitCodes: {operator: In, values: [137]}}",
			[]string{"Ignore", "Count"}[rng.IntN(2)], []string{"Ignore", "Count", "FailJob"}[rng.IntN(3)])
	case rng.IntN(5) == 0:
		line("podReplacementPolicy: Failed")
	case rng.IntN(5) == 0:
		j.restartPolicy = "OnFailure"
	}
	if rng.IntN(5) == 0 {
		line("activeDeadlineSeconds: %d", 20+rng.IntN(100))
	}
	if rng.IntN(4) == 0 {
		line("ttlSecondsAfterFinished: %d", rng.IntN(60))
	}
	if rng.IntN(6) == 0 {
		line("suspend: true")
	}
	j.spec = b.String()
	j.image = []string{"example/pi:v1", "example/pi:v1", "example/pi:fail", "example/pi:42", "example/pi:long"}[rng.IntN(5)]
	return j
}

// randomJobScenario is one or two generated Jobs and up to five actions
// on them in their first two minutes: kills of their pods, suspends and
// resumes, parallelism changes, a node lost and found, a deletion.
func randomJobScenario(rng *rand.Rand) string {
	var docs, actions strings.Builder
	jobs := []randomJob{newRandomJob(rng, "j0")}
	if rng.IntN(2) == 0 {
		jobs = append(jobs, newRandomJob(rng, "j1"))
	}
	for _, j := range jobs {
		fmt.Fprintf(&docs, "apiVersion: batch/v1\nkind: Job\nmetadata: {name: %s}\nspec:\n%s  template:\n    spec:\n      restartPolicy: %s\n"+
			"      containers:\n        - {name: pi, image: %q, resources: {requests: {cpu: 1m, memory: 1Mi}}}\n---\n", j.name, j.spec, j.restartPolicy, j.image)
	}
	for range rng.IntN(6) {
		when := fmt.Sprintf("%dms", 2000+rng.IntN(118_000))
		j := jobs[rng.IntN(len(jobs))].name
		switch rng.IntN(7) {
		case 0, 1:
			fmt.Fprintf(&actions, "    - at: %s\n      kill-pod: batch.kubernetes.io/job-name=%s\n", when, j)
		case 2:
			actions.WriteString(at(when, fmt.Sprintf(`patch job/%s -p '{"spec":{"suspend":%v}}'`, j, rng.IntN(2) == 0)))
		case 3:
			actions.WriteString(at(when, fmt.Sprintf(`patch job/%s -p '{"spec":{"parallelism":%d}}'`, j, rng.IntN(5))))
		case 4:
			fmt.Fprintf(&actions, "    - at: %s\n      node: node-%d\n      condition: %s\n", when, 1+rng.IntN(2), []string{"NotReady", "Unreachable", "Ready"}[rng.IntN(3)])
		case 5:
			actions.WriteString(at(when, fmt.Sprintf("delete job/%s --cascade=%s", j, []string{"background", "foreground", "orphan"}[rng.IntN(3)])))
		case 6:
			actions.WriteString(at(when, fmt.Sprintf(`patch job/%s -p '{"spec":{"activeDeadlineSeconds":%d}}'`, j, 5+rng.IntN(60))))
		}
	}
	if actions.Len() == 0 {
		actions.WriteString("    []\n")
	}
	return fmt.Sprintf("%sapiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  seed: %d\n  nodes: {count: 2}\n  images:\n%s  actions:\n%s",
		docs.String(), rng.IntN(1000), jobImages, actions.String())
}

// Generated Jobs: random specs under random kills, suspends, scales,
// node faults and deletions.
func TestRandomJobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 12))
	for i := range scenarios() {
		src := randomJobScenario(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			rep := run(t, []byte(src), 20*60_000)
			if len(rep.Unexplained()) > 0 {
				t.Logf("scenario:\n%s", src)
			}
			reportFor(t, rep, "job-controller")
		})
	}
}

// randomCronJobScenario is a generated CronJob: a schedule of one to
// three minutes, a concurrency policy, a starting deadline, history
// limits, a Job template from newRandomJob, and suspends, resumes,
// schedule changes and a deletion of a Job in its first twelve minutes.
func randomCronJobScenario(rng *rand.Rand) string {
	var spec, actions strings.Builder
	fmt.Fprintf(&spec, "  concurrencyPolicy: %s\n", []string{"Allow", "Forbid", "Replace"}[rng.IntN(3)])
	if rng.IntN(3) == 0 {
		fmt.Fprintf(&spec, "  startingDeadlineSeconds: %d\n", 5+rng.IntN(120))
	}
	if rng.IntN(2) == 0 {
		fmt.Fprintf(&spec, "  successfulJobsHistoryLimit: %d\n  failedJobsHistoryLimit: %d\n", rng.IntN(3), rng.IntN(3))
	}
	schedule := fmt.Sprintf("*/%d * * * *", 1+rng.IntN(3))
	for range rng.IntN(5) {
		when := fmt.Sprintf("%dms", 30_000+rng.IntN(690_000))
		switch rng.IntN(4) {
		case 0, 1:
			actions.WriteString(at(when, fmt.Sprintf(`patch cronjob report -p '{"spec":{"suspend":%v}}'`, rng.IntN(2) == 0)))
		case 2:
			actions.WriteString(at(when, fmt.Sprintf(`patch cronjob report -p '{"spec":{"schedule":"*/%d * * * *"}}'`, 1+rng.IntN(3))))
		case 3:
			actions.WriteString(at(when, fmt.Sprintf("delete cronjob report --cascade=%s", []string{"background", "orphan"}[rng.IntN(2)])))
		}
	}
	actions.WriteString(at("13m", `patch cronjob report -p '{"spec":{"suspend":true}}'`))
	j := newRandomJob(rng, "")
	src := cronJobScenario(schedule, spec.String(), j.image, actions.String())
	src = strings.Replace(src, "restartPolicy: Never", "restartPolicy: "+j.restartPolicy, 1)
	var jobSpec strings.Builder
	for _, l := range strings.SplitAfter(j.spec, "\n") {
		if l != "" && l != "  suspend: true\n" {
			jobSpec.WriteString("    " + l)
		}
	}
	return strings.Replace(src, "    spec:\n      template:", "    spec:\n"+jobSpec.String()+"      template:", 1)
}

// Generated CronJobs.
func TestRandomCronJobs(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 13))
	for i := range scenarios() / 5 {
		src := randomCronJobScenario(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			rep := run(t, []byte(src), 20*60_000)
			if len(rep.Unexplained()) > 0 {
				t.Logf("scenario:\n%s", src)
			}
			reportFor(t, rep, "cronjob-controller")
		})
	}
}
