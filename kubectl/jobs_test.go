package kubectl_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/kubectl"
)

// jobsSession is testdata/jobs.yaml just after kubectl apply created its
// objects, before any controller has acted.
func jobsSession(t testing.TB) *kubectl.Session {
	t.Helper()
	return appliedSession(t, "testdata/jobs.yaml", api.Key{Kind: api.KindCronJob, Namespace: "default", Name: "hello"})
}

// jobsAt is testdata/jobs.yaml at ms.
func jobsAt(t testing.TB, ms int64) *kubectl.Session {
	t.Helper()
	s := jobsSession(t)
	s.Cluster.RunUntil(ms)
	return s
}

func job(t testing.TB, s *kubectl.Session, name string) *api.Job {
	t.Helper()
	o, ok := s.Cluster.Store().Get(api.Key{Kind: api.KindJob, Namespace: "default", Name: name})
	if !ok {
		t.Fatalf("job %s is gone", name)
	}
	return o.(*api.Job)
}

// advanceJob steps the simulation until cond holds of Job name.
func advanceJob(t testing.TB, s *kubectl.Session, name, what string, cond func(*api.Job) bool) {
	t.Helper()
	for range 5000 {
		if cond(job(t, s, name)) {
			return
		}
		if s.Cluster.Step() == nil {
			break
		}
	}
	t.Fatalf("the simulation never reached: %s", what)
}

// The stages of the scenario the golden transcript stops at, each a
// condition on one Job.
var jobStages = map[string]struct {
	job  string
	cond func(*api.Job) bool
}{
	// pi's first two pods run and are Ready (parallelism 2).
	"# pi's first two pods are Ready": {"pi", func(j *api.Job) bool { return j.Status.Ready != nil && *j.Status.Ready == 2 }},
	// pi's first two pods have succeeded; the third runs.
	"# pi has two completions": {"pi", func(j *api.Job) bool { return j.Status.Succeeded == 2 && j.Status.Active == 1 }},
	// once, suspended, has no pods left.
	"# once is suspended": {"once", func(j *api.Job) bool { return j.HasCondition(api.JobSuspended) && j.Status.Active == 0 }},
}

// jobsTranscript is testdata/jobs.golden's commands, from the moment the
// objects exist. Lines starting with "#" advance the simulation: to a
// stage of jobStages or to a time ("# at 65s").
var jobsTranscript = []string{
	"get jobs",
	"get cronjobs",
	"# pi's first two pods are Ready",
	"get jobs -o wide",
	"get cj -o wide",
	"get pods -l job-name=pi",
	"describe job pi",
	"# pi has two completions",
	"get job pi indexed",
	"describe job indexed",
	"get pods -l app=indexed -L batch.kubernetes.io/job-completion-index",
	"describe pod -l batch.kubernetes.io/job-completion-index=1",
	"# at 30s",
	"get jobs --show-labels",
	"get jobs.batch --field-selector status.successful=3 -o name",
	"get job indexed -o yaml",
	"get job pi -o jsonpath={.status.conditions[*].reason}",
	"get pods -l job-name=broken",
	"# at 65s",
	"get all",
	"get jobs,cronjobs -A",
	"describe job broken",
	"get job broken -o json",
	"describe cronjob hello",
	"describe job -l app=hello",
	"get cj hello -o yaml",
	"get events --field-selector involvedObject.kind=CronJob",
	"create job manual --from=cronjob/hello",
	"get jobs -l app=hello -o custom-columns='NAME:.metadata.name,OWNER:.metadata.ownerReferences[0].name,INSTANTIATE:.metadata.annotations.cronjob\\.kubernetes\\.io/instantiate'",
	"describe job manual",
	"create job once --image=example/pi:v1 -- perl -e 1",
	"get job once -o yaml",
	"create cronjob nightly --image=example/hello:v1 --schedule='0 3 * * *' --restart=Never",
	"create cj quick --image=example/hello:v1 --schedule=@hourly --dry-run=client -o yaml",
	"get cj",
	"describe cj nightly",
	"create job nope --from=cronjob/missing",
	"create job nope --from=deployment/web",
	"create job nope --from=cronjob",
	"create job nope --from=hello",
	"create job nope",
	"create job --image=example/pi:v1",
	"create job nope --image=example/pi:v1 --from=cj/hello",
	"create job nope --from=cj/hello -- date",
	"create job manual --from=cj/hello",
	"create cronjob bad --image=example/hello:v1",
	"create cronjob bad --schedule='61 * * * *' --image=example/hello:v1",
	"create cronjob bad --schedule='* * * * *' --image=example/hello:v1 --restart=Always",
	"create deployment web --image=example/pi:v1",
	"get job nope",
	"describe cronjob nope",
	"delete job nope",
	"set image cronjob/hello hello=example/hello:v2",
	"patch cj hello -p '{\"spec\":{\"jobTemplate\":{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"hello\",\"env\":[{\"name\":\"GREETING\",\"value\":\"hi\"}]}]}}}}}}'",
	"patch cj nightly -p '{\"spec\":{\"timeZone\":\"Europe/Paris\",\"startingDeadlineSeconds\":60,\"concurrencyPolicy\":\"Forbid\"}}'",
	"get cj nightly -o wide",
	"describe cj nightly",
	"set image job/pi pi=example/pi:v2",
	"set image job/pi nope=example/pi:v2",
	"patch job pi --type=merge -p '{\"spec\":{\"template\":{\"spec\":{\"restartPolicy\":\"OnFailure\"}}}}'",
	"patch job once -p '{\"spec\":{\"suspend\":true}}'",
	"rollout status job/pi",
	"rollout history jobs pi",
	"rollout undo cronjob/hello",
	"scale job pi --replicas=2",
	"label job pi tier=batch",
	"annotate cj hello note=hourly",
	"# once is suspended",
	"get job once pi -L tier",
	"patch job once -p '{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"once\",\"args\":[\"-w\"]}]}}}}'",
	"describe job once",
	"# at 2m10s",
	"get cj hello",
	"get jobs -l app=hello -o wide",
	"patch cronjob hello -p '{\"spec\":{\"suspend\":true}}'",
	"delete job pi --cascade=foreground",
	"get job pi",
	"delete job indexed --cascade=orphan",
	"delete cronjob nightly",
	"delete job once --cascade=foreground",
	"get job once",
	"# at 5m",
	"get cj",
	"get jobs",
	"get pods -l app=indexed",
	"describe cj hello",
	"delete job hello-28928161",
	"delete cj hello",
	"get jobs -w",
	"# at 11m",
	"get all",
}

func TestJobsGolden(t *testing.T) {
	s := jobsSession(t)
	var b strings.Builder
	for _, line := range jobsTranscript {
		if note, ok := strings.CutPrefix(line, "# "); ok {
			advanceJobs(t, s, line)
			b.WriteString("# " + note + ": now " + trace.FormatTime(s.Cluster.Now()) + "\n\n")
			continue
		}
		res := run(t, s, line)
		b.WriteString("$ kubectl " + line + "\n" + res.Output())
		if res.Code != 0 {
			b.WriteString("[exit " + string(rune('0'+res.Code)) + "]\n")
		}
		b.WriteString("\n")
	}
	golden(t, "testdata/jobs.golden", b.String())
}

// advanceJobs moves the simulation as a "#" line of jobsTranscript says.
func advanceJobs(t *testing.T, s *kubectl.Session, line string) {
	t.Helper()
	if st, ok := jobStages[line]; ok {
		advanceJob(t, s, st.job, line, st.cond)
		return
	}
	d, err := time.ParseDuration(strings.TrimPrefix(line, "# at "))
	if err != nil {
		t.Fatal(err)
	}
	s.Cluster.RunUntil(d.Milliseconds())
}

// apply changes a CronJob's spec and a Job's mutable fields, keeping the
// selector and template labels the API server generated; a Job's pod
// template is immutable once it has started, and the API server's error
// says so.
func TestJobsApply(t *testing.T) {
	s := jobsAt(t, 30_000)
	s.Stdin = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
  labels: {app: hello}
spec:
  schedule: "*/5 * * * *"
  concurrencyPolicy: Forbid
  jobTemplate:
    metadata:
      labels: {app: hello}
      annotations: {owner: ops}
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: hello
              image: example/hello:v1
---
apiVersion: batch/v1
kind: Job
metadata:
  name: broken
spec:
  backoffLimit: 3
  ttlSecondsAfterFinished: 600
  template:
    spec:
      restartPolicy: Never
      containers:
        - name: main
          image: example/broken:v1
---
apiVersion: batch/v1
kind: Job
metadata:
  name: indexed
spec:
  completions: 3
  parallelism: 3
  completionMode: Indexed
  activeDeadlineSeconds: 600
  template:
    metadata:
      labels: {app: indexed}
    spec:
      restartPolicy: Never
      containers:
        - name: worker
          image: example/pi:v2
`
	res := run(t, s, "apply -f -")
	if res.Stdout != "cronjob.batch/hello configured\njob.batch/broken configured\n" ||
		res.Stderr != "The Job \"indexed\" is invalid: spec.template: Invalid value: core.PodTemplateSpec{…}: field is immutable\n" || res.Code != 1 {
		t.Errorf("apply: %+v", res)
	}
	if out := run(t, s, "get cj hello --no-headers").Stdout; out != "hello   */5 * * * *   <none>   False   0   <none>   30s\n" {
		t.Errorf("get cj hello: %q", out)
	}
	out := run(t, s, "describe cj hello").Stdout
	if !strings.Contains(out, "\nSchedule:                      */5 * * * *\nConcurrency Policy:            Forbid\n") {
		t.Errorf("describe cj hello:\n%s", out)
	}
	j := job(t, s, "broken")
	if *j.Spec.BackoffLimit != 3 || j.Spec.Selector.MatchLabels[api.LabelControllerUID] != j.UID || j.Spec.Template.Labels[api.LabelJobName] != "broken" {
		t.Errorf("broken after apply: backoffLimit %d, selector %v, template labels %v", *j.Spec.BackoffLimit, j.Spec.Selector, j.Spec.Template.Labels)
	}
	if img := job(t, s, "indexed").Spec.Template.Spec.Containers[0].Image; img != "example/pi:v1" {
		t.Errorf("the refused apply changed indexed's image to %s", img)
	}
	// With backoffLimit 3, broken's third failure is not its last.
	s.Cluster.RunUntil(65_000)
	if out := run(t, s, "get job broken --no-headers").Stdout; out != "broken   Running   0/1   65s   65s\n" {
		t.Errorf("get job broken: %q", out)
	}
}
