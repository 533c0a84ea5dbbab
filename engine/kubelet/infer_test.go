package kubelet

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// sh is a busybox container that runs script.
func sh(script string) api.Container {
	return api.Container{Name: "c", Image: "busybox:1.28", Command: []string{"/bin/sh", "-c", script}}
}

// What a container does without a spec.images entry, read from its
// command as the Kubernetes documentation's examples write them.
func TestInfer(t *testing.T) {
	execProbe := func(cmd ...string) *api.Probe { return &api.Probe{Exec: &api.ExecAction{Command: cmd}} }
	livenessExec := api.Container{Name: "liveness", Image: "registry.k8s.io/busybox:1.27.2",
		Args:          []string{"/bin/sh", "-c", "touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600"},
		LivenessProbe: execProbe("cat", "/tmp/healthy")}
	readinessExec := sh("sleep 10; echo ok > /tmp/ready 2>/dev/null; sleep 3600")
	readinessExec.ReadinessProbe = execProbe("sh", "-c", "test -f /tmp/ready")
	forever := int64(-1)
	for _, tc := range []struct {
		name      string
		c         api.Container
		policy    string
		exitAfter int64 // -1: runs until stopped
		code      int32
		assumed   bool
		liveness  int64
		ready     int64
	}{
		{"the pi Job: a program Infer does not know, not restarted", api.Container{Name: "pi", Image: "perl:5.34.0", Command: []string{"perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"}}, "Never", 5000, 0, true, 0, 0},
		{"the same program restarted: a server", api.Container{Name: "pi", Image: "perl:5.34.0", Command: []string{"perl", "app.pl"}}, "Always", forever, 0, false, 0, 0},
		{"the image's entrypoint in a Job", api.Container{Name: "c", Image: "example/batch:1"}, "OnFailure", 5000, 0, true, 0, 0},
		{"the image's entrypoint in a Deployment", api.Container{Name: "c", Image: "example/api:1"}, "", forever, 0, false, 0, 0},
		{"nginx in a one-shot pod still serves", api.Container{Name: "c", Image: "registry.k8s.io/nginx-slim:0.8"}, "Never", forever, 0, false, 0, 0},
		{"the hello CronJob", sh("date; echo Hello from the Kubernetes cluster"), "OnFailure", 100, 0, false, 0, 0},
		{"sleep 3600 in a Deployment exits after an hour", api.Container{Name: "c", Image: "busybox", Command: []string{"sleep", "3600"}}, "Always", 3_600_000, 0, false, 0, 0},
		{"busybox's args are its command line", api.Container{Name: "c", Image: "busybox", Args: []string{"sleep", "1m"}}, "Never", 60_000, 0, false, 0, 0},
		{"exit 1", sh("exit 1"), "Never", 100, 1, false, 0, 0},
		{"false", api.Container{Name: "c", Image: "busybox", Command: []string{"false"}}, "Never", 100, 1, false, 0, 0},
		{"a script that sleeps then exits 3", sh("echo start; sleep 5; sleep 0.5; exit 3; sleep 100"), "Never", 5500, 3, false, 0, 0},
		{"a for loop", sh("for i in 1 2 3; do echo $i; sleep 2; done"), "Never", 6000, 0, false, 0, 0},
		{"while true", sh("while true; do echo hello; sleep 10; done"), "Never", forever, 0, false, 0, 0},
		{"until a server answers", sh("until wget -q http://myservice:8080/; do echo waiting; sleep 2; done"), "Never", 5000, 0, true, 0, 0},
		{"until a name outside the cluster resolves", sh("until nslookup example.com; do sleep 2; done"), "Never", 5000, 0, true, 0, 0},
		{"until a name read from a variable resolves", sh("until nslookup $SERVICE; do sleep 2; done"), "Never", 5000, 0, true, 0, 0},
		{"branches that differ", sh("if [ -f /x ]; then exit 0; else exit 1; fi"), "Never", 5000, 0, true, 0, 0},
		{"branches that agree", sh("if [ -f /x ]; then echo a; else echo b; fi; sleep 2"), "Never", 2000, 0, false, 0, 0},
		{"sleep infinity", api.Container{Name: "c", Image: "busybox", Command: []string{"sleep", "infinity"}}, "Never", forever, 0, false, 0, 0},
		{"tail -f", sh("tail -f /dev/null"), "Never", forever, 0, false, 0, 0},
		{"python's http.server", api.Container{Name: "c", Image: "python:3", Command: []string{"python3", "-m", "http.server", "8000"}}, "Never", forever, 0, false, 0, 0},
		{"the liveness-exec example", livenessExec, "", 630_000, 0, false, 30_000, 0},
		{"a readiness file written after 10s", readinessExec, "", 3_610_000, 0, false, 0, 10_000},
		{"agnhost liveness", api.Container{Name: "liveness", Image: "registry.k8s.io/e2e-test-images/agnhost:2.40", Args: []string{"liveness"}}, "", forever, 0, false, 10_000, 0},
		{"a sleep of a variable", sh("sleep $DELAY"), "Never", 5000, 0, true, 0, 0},
		{"a comment is not a command", sh("echo hi # sleep 100"), "Never", 100, 0, false, 0, 0},
		{"a for without done", sh("for i in 1 2 3"), "Never", 5000, 0, true, 0, 0},
		{"options after -c", api.Container{Name: "c", Image: "busybox", Command: []string{"sh", "-c", "-e", "sleep 2"}}, "Never", 2000, 0, false, 0, 0},
		{"bash -o pipefail -c", api.Container{Name: "c", Image: "bash", Command: []string{"bash", "-o", "pipefail", "-ec", "sleep 3; exit 4"}}, "Never", 3000, 4, false, 0, 0},
		{"done as a loop item", sh("for x in start done; do sleep 1; done"), "Never", 2000, 0, false, 0, 0},
		{"echo done inside a loop", sh("for x in a b; do echo done; sleep 1; done"), "Never", 2000, 0, false, 0, 0},
		{"nested loops", sh("for a in 1 2; do for b in 1 2 3; do sleep 1; done; done"), "Never", 6000, 0, false, 0, 0},
		{"a brace expansion", sh("for i in {1..10}; do sleep 1; done"), "Never", 5000, 0, true, 0, 0},
		{"a command substitution", sh("for i in $(seq 1 5); do sleep 1; done"), "Never", 5000, 0, true, 0, 0},
		{"arithmetic is a word", sh("echo $((1+2)); sleep 1"), "Never", 1000, 0, false, 0, 0},
		{"exit after ||", sh("test -f /x || exit 1; sleep 2"), "Never", 5000, 0, true, 0, 0},
		{"a quick command after &&", sh("test -f /x && echo yes; sleep 2"), "Never", 2000, 0, false, 0, 0},
		{"a server in the background", sh("nginx & sleep 5"), "Never", 5000, 0, false, 0, 0},
		{"a pipeline that never ends", sh("yes | head -n 5"), "Never", 5000, 0, true, 0, 0},
		{"if without else", sh("if [ -z \"$X\" ]; then echo missing; exit 1; fi; exec nginx"), "Always", forever, 0, false, 0, 0},
		{"nested if", sh("if a; then if b; then echo; else echo; fi; else echo; fi; sleep 3"), "Never", 3000, 0, false, 0, 0},
		{"exit keeps the last code", sh("false; exit"), "Never", 100, 1, false, 0, 0},
		{"sleeps past a century", sh("sleep 9e15; sleep 9e15; sleep 9e15; sleep 9e15; sleep 9e15"), "Never", forever, 0, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inf := Infer(&api.PodSpec{RestartPolicy: tc.policy}, &tc.c)
			b := inf.Behavior
			want := tc.exitAfter
			if want < 0 {
				want = 0
			}
			if b.ExitAfterMS != want || b.ExitCode != tc.code || inf.Assumed != tc.assumed || b.LivenessFailAfterMS != tc.liveness || b.ReadyMS != tc.ready {
				t.Errorf("exit after %d code %d assumed %v liveness fails after %d ready after %d (%s); want %d, %d, %v, %d, %d",
					b.ExitAfterMS, b.ExitCode, inf.Assumed, b.LivenessFailAfterMS, b.ReadyMS, inf.Reason, want, tc.code, tc.assumed, tc.liveness, tc.ready)
			}
			if inf.Reason == "" || b.PullMS != DefaultBehavior.PullMS || strings.Contains(inf.Reason, "after `;`") {
				t.Errorf("reason %q, pull %d", inf.Reason, b.PullMS)
			}
		})
	}
}

// A described image keeps its behaviour whatever the command.
func TestBehaviorsOfADescribedImage(t *testing.T) {
	bs := Behaviors{"app:1": {PullMS: 10, StartMS: 20}}
	c := api.Container{Name: "c", Image: "app:1", Command: []string{"sleep", "5"}}
	if got := bs.Of(&api.PodSpec{RestartPolicy: "Never"}, &c); got != bs["app:1"] {
		t.Errorf("got %+v", got)
	}
}

// Any command line, however odd, gives a behaviour: no panic, no
// negative time, and a container that exits does so after it starts.
func FuzzInfer(f *testing.F) {
	for _, s := range []string{"touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600", "for i in 1 2; do sleep 1; done",
		"if a; then b; elif c; then d; else e; fi", "while sleep 1; do :; done", "echo 'unterminated", "exit 300", "sleep 1e400", "\\", "fi done for in",
		"for i in 1 2 3", "for x in done; do :; done", "if a; then", "for a in 1 2 3 4 5 6 7 8 9; do for b in 1 2 3 4 5 6 7 8 9; do for c in 1 2 3 4 5 6 7 8 9; do for d in 1 2 3 4 5 6 7 8 9; do for e in 1 2 3; do sleep 1; done; done; done; done; done",
		"echo $(date", "a && b || c | d & e", "{ sleep 1; }", "`x"} {
		f.Add(s, "Never", "cat /tmp/healthy")
	}
	f.Fuzz(func(t *testing.T, script, policy, probe string) {
		c := api.Container{Name: "c", Image: "busybox", Command: []string{"sh", "-c", script},
			LivenessProbe: &api.Probe{Exec: &api.ExecAction{Command: []string{"sh", "-c", probe}}}}
		inf := Infer(&api.PodSpec{RestartPolicy: policy}, &c)
		b := inf.Behavior
		if b.ExitAfterMS < 0 || b.LivenessFailAfterMS < 0 || b.ReadyMS < 0 || b.ExitCode < 0 || b.ExitCode > 255 || inf.Reason == "" {
			t.Errorf("%q: %+v (%s)", script, b, inf.Reason)
		}
	})
}

// Durations in the reasons read as people write them.
func TestHumanMS(t *testing.T) {
	for ms, want := range map[int64]string{100: "100ms", 5000: "5s", 5500: "5.5s", 60_000: "1m", 90_000: "1m30s", 3_600_000: "1h", 3_630_000: "1h0m30s", 630_000: "10m30s", 0: "0s"} {
		if got := humanMS(ms); got != want {
			t.Errorf("humanMS(%d) = %q, want %q", ms, got, want)
		}
	}
}

// A loop that waits for a Service's name to resolve (wait.go): the
// documentation's init containers example, a name in another namespace,
// a wait before a server, and the rest of the script after the loop.
func TestInferWait(t *testing.T) {
	for _, tc := range []struct {
		name, script, policy string
		want                 Wait
		code                 int32
		assumed              bool
	}{
		{"the documentation's init container", "until nslookup myservice.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for myservice; sleep 2; done",
			"Always", Wait{Service: "myservice", PollMS: 2000, AfterMS: quickMS}, 0, false},
		{"another namespace, then a job", "echo start; sleep 1; until nslookup mydb.other; do sleep 1; done; echo ok; sleep 5; exit 3",
			"Never", Wait{Service: "mydb", Namespace: "other", AtMS: 1000, PollMS: 1000, AfterMS: 5000}, 3, false},
		{"while not, then a server", "while ! getent hosts db.prod.svc.cluster.local; do sleep 3; done; exec nginx",
			"Always", Wait{Service: "db", Namespace: "prod", PollMS: 3000, AfterMS: -1}, 0, false},
		{"a loop without a sleep", "until host cache; do :; done",
			"Never", Wait{Service: "cache", PollMS: quickMS, AfterMS: quickMS}, 0, false},
		{"then something unknown", "until nslookup db; do sleep 2; done; ./migrate",
			"Never", Wait{Service: "db", PollMS: 2000, AfterMS: DefaultRunMS}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			spec := &api.PodSpec{RestartPolicy: tc.policy, InitContainers: []api.Container{sh(tc.script)}}
			c := sh(tc.script)
			if tc.policy == "Always" {
				spec.InitContainers = nil // a regular container, restarted
			}
			inf := Infer(spec, &c)
			b := inf.Behavior
			if b.Wait != tc.want || b.ExitCode != tc.code || inf.Assumed != tc.assumed || b.ExitAfterMS != 0 {
				t.Errorf("wait %+v, code %d, assumed %v, exit after %d (%s); want %+v, %d, %v",
					b.Wait, b.ExitCode, inf.Assumed, b.ExitAfterMS, inf.Reason, tc.want, tc.code, tc.assumed)
			}
			if !strings.Contains(inf.Reason, "waits for Service "+tc.want.Service) {
				t.Errorf("reason %q", inf.Reason)
			}
		})
	}
}
