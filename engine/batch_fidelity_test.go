package engine_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// The worked examples of docs/fidelity-workloads.md §4.10 (Job) and §5.6
// (CronJob), checked against the trace, the API server and kubectl.

const batchScenario = `apiVersion: stateflow/v1alpha1
kind: Scenario
metadata:
  name: batch
spec:
  seed: 2
  nodes: {count: 2}
%s`

func loadBatch(t *testing.T, manifests, spec string) (*engine.Engine, *kubectl.Session) {
	t.Helper()
	src := manifests + "---\n" + fmt.Sprintf(batchScenario, spec)
	e, sc := testkit.Load(t, []byte(src))
	return e, &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
}

func jobManifest(name, spec, image string) string {
	return fmt.Sprintf(`apiVersion: batch/v1
kind: Job
metadata:
  name: %s
spec:
%s  template:
    spec:
      restartPolicy: Never
      containers:
        - name: pi
          image: %s
`, name, spec, image)
}

// kubectlLine runs a kubectl get and returns its second line.
func kubectlLine(t *testing.T, k *kubectl.Session, args string) string {
	t.Helper()
	res := k.Run("get " + args)
	if res.Code != 0 {
		t.Fatalf("kubectl get %s: %s", args, res.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	if len(lines) < 2 {
		t.Fatalf("kubectl get %s: %q", args, res.Stdout)
	}
	return strings.Join(strings.Fields(lines[1]), " ")
}

// §4.10: pi, completions 3, parallelism 2, pods that run 10 s: two pods at
// once, a third when the first two succeed, Complete at about 22 s with
// both conditions and the Completed Event.
func TestJobWorkedCompletions(t *testing.T) {
	e, k := loadBatch(t, jobManifest("pi", "  completions: 3\n  parallelism: 2\n", "example/pi:v1"), `  images:
    "example/pi:v1": {exitAfter: 10s, exitCode: 0}`)
	e.RunUntil(5_000)
	if got := kubectlLine(t, k, "job pi"); got != "pi Running 0/3 5s 5s" {
		t.Errorf("at 5s: %q", got)
	}
	if n := countEvents(e, "SuccessfulCreate", "Created pod: pi-"); n != 2 {
		t.Errorf("at 5s, %d pods created, want 2", n)
	}
	e.RunUntil(30_000)
	runs := jobPods(e, "pi")
	if len(runs) != 3 || runs[2].created < 10_000 || runs[2].created > 13_000 {
		t.Fatalf("pods %+v: want a third at about 11 s", runs)
	}
	j := getJob(t, e, "pi")
	if got := conditionList(j.Status.Conditions); got != "SuccessCriteriaMet=True CompletionsReached, Complete=True CompletionsReached" {
		t.Errorf("conditions %s", got)
	}
	if c := j.Condition(api.JobComplete); c == nil || c.Message != "Reached expected number of succeeded pods" || c.LastTransitionTime.MS < 20_000 || c.LastTransitionTime.MS > 25_000 {
		t.Errorf("Complete condition %+v", c)
	}
	if got := kubectlLine(t, k, "job pi"); !strings.HasPrefix(got, "pi Complete 3/3 2") || !strings.HasSuffix(got, " 30s") {
		t.Errorf("at 30s: %q, want pi Complete 3/3 22s 30s (±2 s)", got)
	}
	if countEvents(e, "Completed", "Job completed") != 1 {
		t.Error("no Completed Event")
	}
}

// §4.10: backoffLimit 2, pods that exit 1 after 5 s: failures at about
// 5, 20 and 45 s, the pods created at 0, ≥ 15 and ≥ 40 s; FailureTarget,
// then Failed, BackoffLimitExceeded; COMPLETIONS 0/1.
func TestJobWorkedBackoff(t *testing.T) {
	e, k := loadBatch(t, jobManifest("pi", "  backoffLimit: 2\n", "example/pi:bad"), `  images:
    "example/pi:bad": {exitAfter: 5s, exitCode: 1}`)
	e.RunUntil(60_000)
	runs := jobPods(e, "pi")
	if len(runs) != 3 {
		t.Fatalf("pods %+v", runs)
	}
	for i, want := range []struct{ created, failed int64 }{{0, 5_000}, {15_000, 20_000}, {40_000, 45_000}} {
		r := runs[i]
		if r.created < want.created || r.created > want.created+2_000 || r.finished < want.failed || r.finished > want.failed+2_000 {
			t.Errorf("pod %d created %s, failed %s; want about %s and %s", i+1, trace.FormatTime(r.created), trace.FormatTime(r.finished), trace.FormatTime(want.created), trace.FormatTime(want.failed))
		}
	}
	if got := conditionList(getJob(t, e, "pi").Status.Conditions); got != "FailureTarget=True BackoffLimitExceeded, Failed=True BackoffLimitExceeded" {
		t.Errorf("conditions %s", got)
	}
	if got := kubectlLine(t, k, "job pi"); !strings.HasPrefix(got, "pi Failed 0/1 ") {
		t.Errorf("kubectl: %q", got)
	}
	if countEvents(e, "BackoffLimitExceeded", "Job has reached the specified backoff limit") != 1 {
		t.Error("no BackoffLimitExceeded Event")
	}
}

// §4.10: Indexed, 3/3: pods pi-0-xxxxx … with hostnames pi-0 …, and
// completedIndexes growing by ranges to "0-2".
func TestJobWorkedIndexed(t *testing.T) {
	e, _ := loadBatch(t, jobManifest("pi", "  completions: 3\n  parallelism: 3\n  completionMode: Indexed\n", "example/pi:v1"), `  images:
    "example/pi:v1": {exitAfter: 10s, exitCode: 0}`)
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	var hosts []string
	for _, p := range testkit.Pods(e, "default") {
		ix := p.Labels[api.JobCompletionIndex]
		if !strings.HasPrefix(p.Name, "pi-"+ix+"-") || len(p.Name) != len("pi-0-")+5 {
			t.Errorf("pod name %s for index %s", p.Name, ix)
		}
		hosts = append(hosts, p.Spec.Hostname)
	}
	slices.Sort(hosts)
	if strings.Join(hosts, " ") != "pi-0 pi-1 pi-2" {
		t.Errorf("hostnames %v", hosts)
	}
	var seen []string
	for _, st := range jobStatuses(e, "pi") {
		if s := st.CompletedIndexes; s != "" && (len(seen) == 0 || seen[len(seen)-1] != s) {
			seen = append(seen, s)
		}
	}
	if len(seen) == 0 || seen[len(seen)-1] != "0-2" {
		t.Errorf("completedIndexes %v, want to end at 0-2", seen)
	}
}

// createCronJob creates a CronJob as kubectl apply would, now.
func createCronJob(t *testing.T, e *engine.Engine, cj *api.CronJob) {
	t.Helper()
	tk := e.Act(engine.KubectlActor, api.KeyOf(cj), func(tick reconcile.Tick) error {
		_, err := tick.Create(trace.Translate, cj, "kubectl apply")
		return err
	})
	if tk.Err() != "" {
		t.Fatal(tk.Err())
	}
}

func helloCronJob(schedule string, deadline *int64, policy string) *api.CronJob {
	return &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "hello", Namespace: "default"}, Spec: api.CronJobSpec{
		Schedule: schedule, StartingDeadlineSeconds: deadline, ConcurrencyPolicy: policy,
		JobTemplate: api.JobTemplateSpec{Spec: api.JobSpec{Template: api.PodTemplateSpec{Spec: api.PodSpec{
			RestartPolicy: "Never", Containers: []api.Container{{Name: "hello", Image: "example/hello:v1"}}}}}}}}
}

// at is a wall-clock time of 2025-01-01 in virtual ms.
func at(h, m, s int) int64 { return int64(h*3600+m*60+s) * 1000 }

func jobsCreated(e *engine.Engine) []string {
	var out []string
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if j, ok := eff.After.(*api.Job); ok && eff.Op == trace.Create {
				out = append(out, j.Name+"@"+api.At(tk.Time).Wall().Format("15:04:05"))
			}
		}
	}
	return out
}

// §5.6: hello, */5, created 10:02:30, Jobs of 20 s: hello-28928765 at
// 10:05 with its scheduled-timestamp annotation, ACTIVE 1 in kubectl, the
// requeue at 10:10:00.1, SawCompletedJob and lastSuccessfulTime, and
// after the fourth success the first Job deleted (history limit 3).
func TestCronJobWorkedSchedule(t *testing.T) {
	e, k := loadBatch(t, "", `  images:
    "example/hello:v1": {exitAfter: 20s, exitCode: 0}`)
	e.RunUntil(at(10, 2, 30))
	createCronJob(t, e, helloCronJob("*/5 * * * *", nil, ""))
	e.RunUntil(at(10, 5, 5))
	if got := kubectlLine(t, k, "cronjob hello"); got != "hello */5 * * * * <none> False 1 5s 2m35s" {
		t.Errorf("kubectl at 10:05:05: %q", got)
	}
	j := getJob(t, e, "hello-28928765")
	if got := j.Annotations[api.CronJobScheduledTimestamp]; got != "2025-01-01T10:05:00Z" {
		t.Errorf("annotation %q", got)
	}
	if countEvents(e, "SuccessfulCreate", "Created job hello-28928765") != 1 {
		t.Error("no Created job Event")
	}
	var requeue bool
	for _, tk := range e.Trace() {
		requeue = requeue || tk.Component == "cronjob-controller" && tk.Time == at(10, 10, 0)+100
	}
	e.RunUntil(at(10, 25, 30))
	for _, tk := range e.Trace() {
		requeue = requeue || tk.Component == "cronjob-controller" && tk.Time == at(10, 10, 0)+100
	}
	if !requeue {
		t.Error("no cronjob-controller tick at 10:10:00.100")
	}
	if countEvents(e, "SawCompletedJob", "Saw completed job: hello-28928765, condition: Complete") != 1 {
		t.Error("no SawCompletedJob Event")
	}
	cj := testkit.List[*api.CronJob](e, api.KindCronJob, "default")[0]
	if cj.Status.LastSuccessfulTime == nil || len(cj.Status.Active) != 0 {
		t.Errorf("status %+v", cj.Status)
	}
	if got := strings.Join(jobsCreated(e), " "); !strings.HasPrefix(got, "hello-28928765@10:05:00 hello-28928770@10:10:00 hello-28928775@10:15:00 hello-28928780@10:20:00 hello-28928785@10:25:00") {
		t.Errorf("jobs %s", got)
	}
	if countEvents(e, "SuccessfulDelete", "Deleted job hello-28928765") != 1 {
		t.Error("the first Job was not deleted after the fourth success")
	}
}

// §5.6: Forbid, with a Job that runs from 10:05 past 10:15: 10:10 is
// skipped (JobAlreadyActive) and never caught up; 10:15 starts late,
// when the Job has finished.
func TestCronJobWorkedForbid(t *testing.T) {
	e, _ := loadBatch(t, "", `  images:
    "example/hello:v1": {exitAfter: 11m, exitCode: 0}`)
	e.RunUntil(at(10, 2, 30))
	createCronJob(t, e, helloCronJob("*/5 * * * *", nil, api.ForbidConcurrent))
	e.RunUntil(at(10, 19, 0))
	got := jobsCreated(e)
	if len(got) != 2 || !strings.HasPrefix(got[0], "hello-28928765@10:05") || !strings.HasPrefix(got[1], "hello-28928775@10:16") {
		t.Errorf("jobs %v: want 10:05, then 10:15 started late at 10:16, and never 10:10", got)
	}
	if countEvents(e, "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid") < 2 {
		t.Error("want JobAlreadyActive at 10:10 and 10:15")
	}
}

// §5.6: the controller does not see the CronJob from 10:04 to 10:31 (its
// watch lags 28m40s). With startingDeadlineSeconds 60 nothing starts at
// 10:31:10 (10:30 is more than 60 s late); without it only 10:30 starts,
// not the five runs missed before it.
func TestCronJobWorkedMissedTimes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		deadline *int64
		want     string
	}{{"deadline 60", api.Int64(60), ""}, {"no deadline", nil, "hello-28928790@10:31:10"}} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := loadBatch(t, "", `  latency: {cronjob-controller: 28m40s}
  images:
    "example/hello:v1": {exitAfter: 20s, exitCode: 0}`)
			e.RunUntil(at(10, 2, 30))
			createCronJob(t, e, helloCronJob("*/5 * * * *", tc.deadline, ""))
			e.RunUntil(at(10, 32, 0))
			if got := strings.Join(jobsCreated(e), " "); got != tc.want {
				t.Errorf("jobs %q, want %q", got, tc.want)
			}
		})
	}
}

// §4.8: ttlSecondsAfterFinished 10: the ttl-after-finished-controller
// deletes the Job 10 s after its Complete condition, in the foreground,
// so its pod goes before it; no Event.
func TestJobTTLAfterFinished(t *testing.T) {
	e, _ := loadBatch(t, jobManifest("pi", "  ttlSecondsAfterFinished: 10\n", "example/pi:v1"), `  images:
    "example/pi:v1": {exitAfter: 5s, exitCode: 0}`)
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	var complete, marked, podGone, jobGone int64 = -1, -1, -1, -1
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			switch o := eff.After.(type) {
			case *api.Job:
				if complete < 0 && o.HasCondition(api.JobComplete) {
					complete = o.Condition(api.JobComplete).LastTransitionTime.MS
				}
				if marked < 0 && o.DeletionTimestamp != nil && tk.Component == "ttl-after-finished-controller" && slices.Contains(o.Finalizers, "foregroundDeletion") {
					marked = tk.Time
				}
			case nil:
				switch eff.Object.Kind {
				case api.KindPod:
					podGone = tk.Time
				case api.KindJob:
					jobGone = tk.Time
				}
			}
		}
	}
	if complete < 0 || marked < complete+10_000 || marked > complete+11_000 {
		t.Errorf("Complete at %s, marked for foreground deletion at %s: want 10 s later", trace.FormatTime(complete), trace.FormatTime(marked))
	}
	if podGone < marked || jobGone < podGone {
		t.Errorf("pod gone at %s, job gone at %s: want the pod first (foreground)", trace.FormatTime(podGone), trace.FormatTime(jobGone))
	}
	for _, ev := range testkit.Events(e, "default") {
		if ev.Source.Component == "ttl-after-finished-controller" {
			t.Errorf("the TTL controller recorded an Event: %s %s", ev.Reason, ev.Message)
		}
	}
}

// §4.6: a Job created suspended gets Suspended=True (JobSuspended) and
// the Suspended Event, runs nothing and has no startTime; resumed by a
// patch at 20 s it gets Suspended=False (JobResumed), the Resumed Event
// and a startTime of then.
func TestJobSuspendResume(t *testing.T) {
	e, _ := loadBatch(t, jobManifest("pi", "  suspend: true\n", "example/pi:v1"), `  images:
    "example/pi:v1": {exitAfter: 5s, exitCode: 0}
  actions:
    - at: 20s
      kubectl: patch job pi -p '{"spec":{"suspend":false}}'`)
	e.RunUntil(15_000)
	j := getJob(t, e, "pi")
	if c := j.Condition(api.JobSuspended); c == nil || c.Status != "True" || c.Reason != "JobSuspended" || c.Message != "Job suspended" || j.Status.StartTime != nil || len(jobPods(e, "pi")) != 0 {
		t.Fatalf("suspended job %+v, pods %v", j.Status, jobPods(e, "pi"))
	}
	if countEvents(e, "Suspended", "Job suspended") != 1 {
		t.Error("no Suspended Event")
	}
	e.RunUntil(40_000)
	j = getJob(t, e, "pi")
	if c := j.Condition(api.JobSuspended); c == nil || c.Status != "False" || c.Reason != "JobResumed" || c.Message != "Job resumed" {
		t.Errorf("Suspended condition after the resume: %+v", c)
	}
	if j.Status.StartTime == nil || j.Status.StartTime.MS < 20_000 || j.Status.StartTime.MS > 21_000 || !j.HasCondition(api.JobComplete) {
		t.Errorf("resumed job %+v", j.Status)
	}
	if countEvents(e, "Resumed", "Job resumed") != 1 {
		t.Error("no Resumed Event")
	}
}

// §4.5: a FailJob rule on exit code 42 fails the Job at the first such
// failure, with the rule's message; an Ignore rule's failures do not
// count towards backoffLimit 0 (though the pod failure backoff still
// spaces its pods, as upstream's backoff record counts every failure).
func TestJobPodFailurePolicy(t *testing.T) {
	policy := `  backoffLimit: 0
  podFailurePolicy:
    rules:
      - {action: FailJob, onExitCodes: {containerName: pi, operator: In, values: [42]}}
      - {action: Ignore, onExitCodes: {operator: In, values: [1]}}
`
	e, _ := loadBatch(t, jobManifest("ignored", policy, "example/pi:flaky")+"---\n"+jobManifest("fatal", policy, "example/pi:fatal"), `  images:
    "example/pi:flaky": {exitAfter: 3s, exitCode: 1}
    "example/pi:fatal": {exitAfter: 3s, exitCode: 42}`)
	e.RunUntil(45_000)
	fatal := getJob(t, e, "fatal")
	runs := jobPods(e, "fatal")
	want := fmt.Sprintf("Container pi for pod default/%s failed with exit code 42 matching FailJob rule at index 0", runs[0].name)
	if c := fatal.Condition(api.JobFailed); c == nil || c.Reason != "PodFailurePolicy" || c.Message != want || len(runs) != 1 {
		t.Errorf("fatal: %+v after %d pods; want Failed PodFailurePolicy %q", c, len(runs), want)
	}
	ignored := getJob(t, e, "ignored")
	if ignored.Finished() || ignored.Status.Failed != 0 || len(jobPods(e, "ignored")) < 3 {
		t.Errorf("ignored: %+v with %d pods; want it still running, its failures not counted", ignored.Status, len(jobPods(e, "ignored")))
	}
}

// §4.3: activeDeadlineSeconds 12 with pods that run 60 s: at 12 s the
// Job fails with DeadlineExceeded and its running pod is deleted.
func TestJobActiveDeadline(t *testing.T) {
	e, _ := loadBatch(t, jobManifest("pi", "  activeDeadlineSeconds: 12\n", "example/pi:slow"), `  images:
    "example/pi:slow": {exitAfter: 60s, exitCode: 0}`)
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	j := getJob(t, e, "pi")
	c := j.Condition(api.JobFailed)
	if c == nil || c.Reason != "DeadlineExceeded" || c.Message != "Job was active longer than specified deadline" || j.Status.Failed != 1 {
		t.Fatalf("status %+v", j.Status)
	}
	if ft := j.Condition(api.JobFailureTarget); ft == nil || ft.LastTransitionTime.MS < 12_000 || ft.LastTransitionTime.MS > 13_000 {
		t.Errorf("FailureTarget %+v, want at 12 s", ft)
	}
	if n := countEvents(e, "DeadlineExceeded", "Job was active longer than specified deadline"); n != 1 {
		t.Errorf("%d DeadlineExceeded Events", n)
	}
	deleted := false
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if p, ok := eff.After.(*api.Pod); ok && tk.Component == "job-controller" && p.DeletionTimestamp != nil && (eff.Before == nil || eff.Before.Meta().DeletionTimestamp == nil) {
				deleted = deleted || tk.Time >= 12_000 && tk.Time < 14_000
			}
		}
	}
	if !deleted {
		t.Error("the job-controller did not delete the running pod at the deadline")
	}
}
