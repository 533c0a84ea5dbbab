package claim_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/claim"
	"github.com/stateflow/stateflow/examples"
)

// shippedFile is an example or a lesson, named by its path in the
// repository.
type shippedFile struct {
	path string
	src  []byte
}

func shipped() []shippedFile {
	var out []shippedFile
	for _, ex := range examples.All() {
		out = append(out, shippedFile{"examples/" + ex.Name + ".yaml", []byte(ex.Source)})
	}
	for _, ex := range examples.Lessons() {
		out = append(out, shippedFile{"examples/lessons/" + ex.Name + ".yaml", []byte(ex.Source)})
	}
	return out
}

// Every claim of every example's header and every lesson holds in the
// simulation; a claim it contradicts fails the test with its file, line
// and column and what the simulation read instead. Every example states
// claims, and so does every step of every lesson, so that a step whose
// goto moves to where its text is no longer true fails too.
func TestEveryClaim(t *testing.T) {
	files := shipped()
	if len(files) < 30 {
		t.Fatalf("%d shipped files", len(files))
	}
	total := 0
	for _, f := range files {
		t.Run(f.path, func(t *testing.T) {
			file, err := claim.Read(f.path, f.src)
			if err != nil {
				t.Fatal(err)
			}
			if len(file.Claims) == 0 {
				t.Errorf("%s states no claim", f.path)
			}
			if l := file.Scenario.Lesson; l != nil {
				for i, s := range l.Steps {
					if len(s.Claims) == 0 {
						t.Errorf("%s:%d: step %d states no claim", f.path, s.Line, i+1)
					}
				}
			}
			failures, err := file.Check()
			if err != nil {
				t.Fatal(err)
			}
			for _, fl := range failures {
				t.Error(fl)
			}
			total += len(file.Claims)
		})
	}
	t.Logf("%d claims in %d files", total, len(files))
}

// A fixture of deliberately false claims fails at each one, naming its
// file, line and column, what the simulation read, and where: a number
// at a time, a bound in a window, a never that happens, something that
// never comes, two facts that turn true apart, a field read from several
// objects, and a lesson step whose goto lands before its text is true.
func TestFalseClaimsFail(t *testing.T) {
	const name = "testdata/false-claims.yaml"
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	failures, err := claim.Check(name, src)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`testdata/false-claims.yaml:7:11: at 10s, deploy/web {.status.readyReplicas} = 3: false at 10s, after tick 33 (2.750s): deploy/web {.status.readyReplicas} reads "2"`,
		`testdata/false-claims.yaml:9:11: always, count pods -l app=web < 2: false at tick 8 (0.200s): count pods -l app=web reads "2"`,
		`testdata/false-claims.yaml:10:11: never, deploy/web condition Available = True: true at tick 31 (2.650s): deploy/web condition Available reads "True"`,
		`testdata/false-claims.yaml:12:11: at some tick, count pods -l app=web = 5: false at every tick from tick 0 (0.000s) to tick 34 (601.000s); the last read at tick 31 (2.650s): count pods -l app=web reads "2"`,
		`testdata/false-claims.yaml:13:11: in the same tick, count rs -l app=web = 1 and count pods -l app=web = 2: no tick from tick 0 (0.000s) to tick 34 (601.000s) turns them true together: count rs -l app=web = 1 turns true first at tick 2 (0.100s); count pods -l app=web = 2 turns true first at tick 8 (0.200s)`,
		`testdata/false-claims.yaml:15:11: at 10s, pod/web-* {.status.phase} = Running: at tick 33 (2.750s): pod/web-* matches 2 objects`,
		`testdata/false-claims.yaml:56:11: rs/web-* {.status.readyReplicas} = 2: false at step 2's tick 27 (1.550s): rs/web-* {.status.readyReplicas} reads "" (empty)`,
	}
	if len(failures) != len(want) {
		t.Errorf("%d failures, want %d:", len(failures), len(want))
	}
	for i, w := range want {
		if i >= len(failures) || !strings.HasPrefix(failures[i].String(), w) {
			got := "(none)"
			if i < len(failures) {
				got = failures[i].String()
			}
			t.Errorf("failure %d:\n got %s\nwant %s…", i+1, got, w)
		}
	}
}

// A claim that does not read, and an expect line that would not be read,
// are errors at their file, line and column, before anything runs: in
// the opening comment, in a lesson step (the column inside the claim
// counted from where its text begins in the file), in the lesson's own
// claims and in the closing comment.
func TestClaimErrorsNamePlace(t *testing.T) {
	src := []byte(`# bad
# expect: at 10s, deploy/web {.status.readyReplicas} == 2
# expect: deploy/web {.status.readyReplicas} = 2
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: web:1}]}
# expect: never, count pods = 9
---
apiVersion: stateflow/v1alpha1
kind: Lesson
metadata: {name: bad}
spec:
  steps:
    - text: one
      goto: {tick: 1}
      claims:
        - count pods -x = 1
        - "count pods = 1 or 2"
  claims:
    - count pods = 1
# expect: at 1s count pods
`)
	_, err := claim.Read("bad.yaml", src)
	var errs claim.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("%T %v", err, err)
	}
	want := []string{
		"bad.yaml:2:54: expected an operator (=, !=, <, <=, >, >=, contains or !contains, with spaces around it) after deploy/web {.status.readyReplicas}",
		"bad.yaml:3:11: begin with when it holds: at 30s, at tick 12, at the end, always, never, at some tick, in the same tick or in the same write",
		"bad.yaml:12:1: an expect line inside the file is not checked: move it into the opening comment (or the closing one)",
		"bad.yaml:22:22: -x is not a selection flag",
		"bad.yaml:23:27: expected and (another fact) or the end of the claim",
		"bad.yaml:25:7: begin with when it holds",
		"bad.yaml:26:27: expected an operator",
	}
	got := strings.Split(errs.Error(), "\n")
	if len(got) != len(want) {
		t.Errorf("%d errors, want %d:\n%s", len(got), len(want), errs)
	}
	for i := range min(len(got), len(want)) {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("error %d:\n got %s\nwant %s…", i+1, got[i], want[i])
		}
	}
	if _, err := claim.Read("broken.yaml", []byte("kind: Deployment\nspec: {replicas: -1}\n")); err == nil || !strings.HasPrefix(err.Error(), "broken.yaml:") {
		t.Errorf("a scenario error does not name the file: %v", err)
	}
}

// "In the same write" tells one write from one tick: job-backoff's Job
// gets FailureTarget and Failed in one sync of the job-controller (its
// header says so, in the same tick), but in two status writes, with the
// pod's finalizer removed between them; the Deployment of the fixture
// gets readyReplicas 2 and availableReplicas 2 in one write.
func TestSameWrite(t *testing.T) {
	ex, _ := examples.Get("job-backoff")
	src := ex.Source + "# expect: in the same write, job/pi condition FailureTarget = True and job/pi condition Failed = True\n"
	failures, err := claim.Check("job-backoff.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "in the same write, job/pi condition FailureTarget = True and job/pi condition Failed = True: they turn true together at tick 44 (51.350s), but in 2 writes of job/pi, not one"
	if len(failures) != 1 || !strings.HasSuffix(failures[0].String(), want) {
		t.Errorf("failures %v\nwant one ending %s", failures, want)
	}
	fixture, err := os.ReadFile("testdata/false-claims.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src = string(fixture) + "# expect: in the same write, deploy/web {.status.readyReplicas} = 2 and deploy/web {.status.availableReplicas} = 2\n"
	file, err := claim.Read("false-claims.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(file.Claims, func(w *claim.Written) bool { return w.Claim.When.Timing == claim.SameWrite })
	if i < 0 {
		t.Fatal("the appended claim was not read")
	}
	last := file.Claims[i]
	failures, err = file.Check()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range failures {
		if f.Pos.Line == last.Pos.Line {
			t.Errorf("the Deployment's one status write: %s", f)
		}
	}
}

// A step with claims that does not resolve to a tick fails once, at the
// step's line, saying why; its claims are not read.
func TestUnresolvedStep(t *testing.T) {
	fixture, err := os.ReadFile("testdata/false-claims.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(fixture), "goto: {at: 2s}", "goto: {tick: 99999}", 1)
	failures, err := claim.Check("false-claims.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	last := failures[len(failures)-1].String()
	if want := "false-claims.yaml:53: step 2: does not resolve: it goes to tick 99999, but the simulation ends at tick 34"; last != want {
		t.Errorf("got  %s\nwant %s", last, want)
	}
}

// The crash-loop lesson's last step says the pod is in CrashLoopBackOff.
// At 60 s it is; moved back to 50 s, where the back-off has just ended and
// the container is being created again, the step's claim fails, naming
// the step and what the pod said instead.
func TestMovedStepFails(t *testing.T) {
	ex, ok := examples.Lesson("crash-loop")
	if !ok {
		t.Fatal("no crash-loop lesson")
	}
	moved := strings.Replace(ex.Source, "goto: {at: 60s}", "goto: {at: 50s}", 1)
	if moved == ex.Source {
		t.Fatal("the lesson's last step no longer goes to 60s")
	}
	failures, err := claim.Check("crash-loop.yaml", []byte(moved))
	if err != nil {
		t.Fatal(err)
	}
	if len(failures) == 0 {
		t.Fatal("the moved step's claims still hold")
	}
	got := failures[0].String()
	if !strings.Contains(got, "false at step 4's tick") || !strings.Contains(got, `reads "ContainerCreating"`) {
		t.Errorf("the moved step fails as %s", got)
	}
}
