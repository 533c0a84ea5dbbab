package kubectl_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// Init containers run one after another before the containers start, and
// sidecars (restartable init containers) start before them, count in
// READY and stop after them, as kubectl v1.34 shows a real cluster's: the
// Kubernetes documentation's examples, pasted as they are.
func TestInitContainersAndSidecars(t *testing.T) {
	for _, tc := range []struct {
		file string
		at   int64
		cmd  string
		want []string // lines the output holds
	}{
		// concepts/workloads/pods/init-containers: two init containers
		// whose until-nslookup loops wait for Services myservice and mydb,
		// which this file does not create: the pod stays Init:0/2, the
		// first init container running (TestInitContainersWaitForServices
		// creates them).
		{"init-containers.yaml", 3_000, "get pods", []string{"myapp-pod   0/1     Init:0/2   0          3s"}},
		{"init-containers.yaml", 360_000, "get pods", []string{"myapp-pod   0/1     Init:0/2   0          6m"}},
		{"init-containers.yaml", 3_000, "get pod myapp-pod -o yaml", []string{
			"    message: 'containers with incomplete status: [init-myservice init-mydb]'",
			"    reason: ContainersNotInitialized",
			"  initContainerStatuses:",
			"        reason: PodInitializing"}},
		{"init-containers.yaml", 360_000, "describe pod myapp-pod", []string{
			"Init Containers:",
			"  init-myservice:",
			"    State:          Running",
			"  init-mydb:",
			"    State:          Waiting",
			"      Reason:       PodInitializing",
			"Containers:",
			"  myapp-container:",
			"  Initialized                 False "}},
		// A Deployment with a logging sidecar: the sidecar starts first
		// and counts in READY.
		{"sidecar-deployment.yaml", 3_000, "get pods", []string{"myapp-7cf46647bb-wrw6t   1/2     PodInitializing   0          3s"}},
		{"sidecar-deployment.yaml", 10_000, "get pods", []string{"myapp-7cf46647bb-wrw6t   2/2     Running   0          10s"}},
		{"sidecar-deployment.yaml", 10_000, "describe deploy myapp", []string{"  Init Containers:", "   logshipper:", "  Containers:", "   myapp:"}},
		// A Job with a sidecar: the sidecar does not keep the pod running;
		// the kubelet stops it once the job's container has ended.
		{"sidecar-job.yaml", 30_000, "get jobs", []string{"myjob   Complete   1/1           5s         30s"}},
		{"sidecar-job.yaml", 30_000, "get pods", []string{"myjob-z4t96   0/2     Completed   0          30s"}},
		{"sidecar-job.yaml", 30_000, "describe pods", []string{"  Normal  Killing    27s   kubelet            Stopping container logshipper"}},
		// Failing init containers: the pod that never restarts fails; the
		// other retries its init container with back-off.
		{"init-failures.yaml", 90_000, "get pods", []string{
			"migrate-once    0/1     Init:Error              0            90s",
			"migrate-retry   0/1     Init:CrashLoopBackOff   4 (7s ago)   90s"}},
		{"init-failures.yaml", 90_000, "describe pod migrate-once", []string{"Status:           Failed", "  Initialized                 False "}},
	} {
		t.Run(tc.file+"/"+tc.cmd, func(t *testing.T) {
			src, err := os.ReadFile("testdata/docs/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			e, sc := testkit.Load(t, src)
			e.RunUntil(tc.at)
			s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
			got := run(t, s, tc.cmd)
			for _, want := range tc.want {
				if !strings.Contains(got.Stdout, want+"\n") {
					t.Errorf("%s lacks\n%s\ngot:\n%s%s", tc.cmd, want, got.Stdout, got.Stderr)
				}
			}
		})
	}
}

// The documentation's walk-through: the pod waits in Init:0/2 while its
// init containers look up myservice and mydb every 2 s; once the Services
// are created (kubectl apply -f services.yaml), each loop's next lookup
// finds its name, the init containers complete one after the other and
// the app runs. A name that resolves is not an assumption: the scenario
// warns of nothing.
func TestInitContainersWaitForServices(t *testing.T) {
	src, err := os.ReadFile("testdata/docs/init-containers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	services, err := os.ReadFile("testdata/docs/init-containers-services.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, sc := testkit.Load(t, src)
	if len(sc.Warnings) != 0 {
		t.Errorf("warnings: %v", sc.Warnings)
	}
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
	e.RunUntil(20_000)
	if got := run(t, s, "get pods"); !strings.Contains(got.Stdout, "myapp-pod   0/1     Init:0/2   0          20s\n") {
		t.Fatalf("before the Services:\n%s%s", got.Stdout, got.Stderr)
	}
	s.Stdin = string(services)
	if got := run(t, s, "apply -f -"); got.Stdout != "service/myservice created\nservice/mydb created\n" {
		t.Fatalf("apply: %+v", got)
	}
	// init-myservice started at 1.75 s and looks every 2 s: 21.75 s is
	// its first lookup after its kubelet saw the Service (20.2 s). Until
	// then it keeps looking.
	e.RunUntil(21_700)
	if got := run(t, s, "get pods"); !strings.Contains(got.Stdout, "Init:0/2") {
		t.Errorf("at 21.7s:\n%s", got.Stdout)
	}
	e.RunUntil(22_000)
	if got := run(t, s, "get pods"); !strings.Contains(got.Stdout, "Init:1/2") {
		t.Errorf("at 22s:\n%s", got.Stdout)
	}
	e.RunUntil(30_000)
	for cmd, want := range map[string]string{
		"get pods": "myapp-pod   1/1     Running   0          30s\n",
		"get pod myapp-pod -o jsonpath={.status.initContainerStatuses[*].state.terminated.reason}": "Completed Completed",
	} {
		if got := run(t, s, cmd); !strings.Contains(got.Stdout, want) {
			t.Errorf("%s: %q, want %q", cmd, got.Stdout, want)
		}
	}
}

// An init container whose command does not say how it ends is assumed to
// end after 5s (it runs to completion), and the scenario says so at its
// image.
func TestInitContainerAssumptionIsWarned(t *testing.T) {
	src, err := os.ReadFile("testdata/docs/init-containers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src = []byte(strings.Replace(string(src), "until nslookup myservice.$(cat /var/run/secrets/kubernetes.io/serviceaccount/namespace).svc.cluster.local; do echo waiting for myservice; sleep 2; done", "./migrate --wait", 1))
	_, sc := testkit.Load(t, src)
	if len(sc.Warnings) != 1 {
		t.Fatalf("%d warnings, want 1: %v", len(sc.Warnings), sc.Warnings)
	}
	want := "line 14:12: spec.initContainers[0].image: image busybox:1.28: no behaviour given in the Scenario's spec.images; `./migrate --wait` is assumed to exit 0 after 5s, because init container init-myservice runs to completion before pod/myapp-pod's containers start. Describe the image (exitAfter, exitCode) to decide otherwise"
	if got := sc.Warnings[0].String(); got != want {
		t.Errorf("warning\n%s\nwant\n%s", got, want)
	}
}

// On deletion the sidecar gets SIGTERM only once the containers have
// stopped (terminationOrdering): with 0.5 s to stop each, the pod is gone
// a second after the kubelet starts, not half a second.
func TestSidecarStopsAfterTheContainers(t *testing.T) {
	src, err := os.ReadFile("testdata/docs/sidecar-deployment.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, sc := testkit.Load(t, src)
	e.RunUntil(10_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	run(t, s, "delete pod myapp-7cf46647bb-wrw6t --wait=false")
	e.RunUntil(11_000) // the kubelet began at 10.2 s; myapp stopped at 10.7 s
	if got := run(t, s, "get pod myapp-7cf46647bb-wrw6t"); !strings.Contains(got.Stdout, "Terminating") {
		t.Fatalf("at 11s the pod is not terminating:\n%s%s", got.Stdout, got.Stderr)
	}
	e.RunUntil(11_500)
	if got := run(t, s, "get pod myapp-7cf46647bb-wrw6t"); got.Stderr != "Error from server (NotFound): pods \"myapp-7cf46647bb-wrw6t\" not found\n" {
		t.Fatalf("at 11.5s the pod is still there:\n%s%s", got.Stdout, got.Stderr)
	}
}

// Deleting a pod stops the init container it is running (Killing, with
// the grace period), an update may change an init container's image but
// not take the init containers away (ValidatePodUpdate), and kubectl set
// image reaches init containers by name.
func TestInitContainersUnderChange(t *testing.T) {
	src, err := os.ReadFile("testdata/docs/init-containers.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, sc := testkit.Load(t, src)
	e.RunUntil(3_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	if got := run(t, s, "set image pod/myapp-pod init-mydb=busybox:1.36"); got.Stdout != "pod/myapp-pod image updated\n" {
		t.Errorf("set image of an init container: %+v", got)
	}
	if got := run(t, s, "get pod myapp-pod -o jsonpath={.spec.initContainers[1].image}"); got.Stdout != "busybox:1.36" {
		t.Errorf("init-mydb's image %q", got.Stdout)
	}
	got := run(t, s, `patch pod myapp-pod --type json -p '[{"op":"remove","path":"/spec/initContainers"}]'`)
	if !strings.Contains(got.Stderr, "The Pod \"myapp-pod\" is invalid: spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,") {
		t.Errorf("removing the init containers: %+v", got)
	}
	run(t, s, "delete pod myapp-pod --wait=false")
	e.RunUntil(3_500)
	if got := run(t, s, "describe pod myapp-pod").Stdout; !strings.Contains(got, "kubelet            Stopping container init-myservice\n") {
		t.Errorf("the running init container is not stopped:\n%s", got)
	}
}

// When a Job's container has ended, its sidecars stop as a deleted pod's
// do: the last declared first (logshipper: SIGTERM at once, 2 s to
// exit), then proxy, whose 1 s preStop hook ran meanwhile, gets SIGTERM
// once logshipper has stopped and takes 1 s. Before, both got SIGTERM at
// once: proxy stopped first.
func TestSidecarsStopInReverseOrderAfterTheJob(t *testing.T) {
	e, s := docSession(t, "sidecars-stop-order.yaml")
	e.RunUntil(60_000)
	finished := func(i int) time.Time {
		t.Helper()
		got := run(t, s, fmt.Sprintf("get pods -o jsonpath={.items[0].status.initContainerStatuses[%d].state.terminated.finishedAt}", i))
		at, err := time.Parse(time.RFC3339, got.Stdout)
		if err != nil {
			t.Fatalf("initContainerStatuses[%d]: %q %s", i, got.Stdout, got.Stderr)
		}
		return at
	}
	done := run(t, s, "get pods -o jsonpath={.items[0].status.containerStatuses[0].state.terminated.finishedAt}")
	job, err := time.Parse(time.RFC3339, done.Stdout)
	if err != nil {
		t.Fatalf("the job's container: %q %s", done.Stdout, done.Stderr)
	}
	// The kubelet notices the job's end at its next sync, within a
	// second; the gaps between the stops are exact.
	proxy, shipper := finished(0), finished(1)
	if d := shipper.Sub(job); d < 2*time.Second || d > 3*time.Second {
		t.Errorf("logshipper stopped %s after the job's container, want 2 s after the kubelet noticed", d)
	}
	if d := proxy.Sub(shipper); d != time.Second {
		t.Errorf("proxy stopped %s after logshipper, want 1 s (SIGTERM when logshipper stopped, its preStop hook over by then)", d)
	}
	if got := run(t, s, "get pods"); !strings.Contains(got.Stdout, "0/3     Completed") {
		t.Errorf("get pods:\n%s", got.Stdout)
	}
}

// A sidecar whose startup probe never passes is killed once the probe has
// failed failureThreshold times (computeInitContainerActions: "Init
// container proxy failed startup probe") and restarted with back-off;
// the container after it never starts. Before, it ran on, never started,
// and was never killed.
func TestSidecarFailingItsStartupProbeIsRestarted(t *testing.T) {
	e, s := docSession(t, "sidecar-startup-fails.yaml")
	// proxy started at 2.25 s; its probe runs at 4.25, 14.25 and 24.25 s.
	e.RunUntil(24_000)
	if got := run(t, s, "get pods"); !strings.Contains(got.Stdout, "web    0/2     Init:0/1   0          24s\n") {
		t.Errorf("before the third failure:\n%s", got.Stdout)
	}
	e.RunUntil(90_000)
	got := run(t, s, "describe pod web")
	for _, want := range []string{
		"      Reason:       CrashLoopBackOff",
		"    Restart Count:  2",
		"  Warning  Unhealthy  10s (x3 over 66s)  kubelet            Startup probe failed: HTTP probe failed with statuscode: 500",
		"  Normal   Killing    10s (x3 over 66s)  kubelet            Init container proxy failed startup probe",
	} {
		if !strings.Contains(got.Stdout, want+"\n") {
			t.Errorf("describe lacks\n%s\ngot:\n%s", want, got.Stdout)
		}
	}
	if got := run(t, s, "get pods"); !strings.Contains(got.Stdout, "web    0/2     Init:CrashLoopBackOff   2 (10s ago)   90s\n") {
		t.Errorf("get pods:\n%s", got.Stdout)
	}
}

// A headless Service's name resolves only once it has a ready endpoint:
// the init container keeps looking every 2 s while db's pod starts, and
// goes on at the first lookup after the Endpoints list it.
func TestInitContainerWaitsForAHeadlessServicesEndpoint(t *testing.T) {
	e, s := docSession(t, "wait-for-headless.yaml")
	e.RunUntil(8_000)
	if got := run(t, s, "get pod app"); !strings.Contains(got.Stdout, "app    0/1     Init:0/1   0          8s\n") {
		t.Errorf("while db starts:\n%s", got.Stdout)
	}
	e.RunUntil(40_000)
	if got := run(t, s, "get pods"); !strings.Contains(got.Stdout, "app    1/1     Running   0          40s\n") {
		t.Fatalf("once db is ready:\n%s", got.Stdout)
	}
	at := func(cmd string) time.Time {
		t.Helper()
		got := run(t, s, cmd)
		v, err := time.Parse(time.RFC3339, got.Stdout)
		if err != nil {
			t.Fatalf("%s: %q %s", cmd, got.Stdout, got.Stderr)
		}
		return v
	}
	ready := at(`get pod db-0 -o jsonpath='{.status.conditions[?(@.type=="Ready")].lastTransitionTime}'`)
	done := at("get pod app -o jsonpath={.status.initContainerStatuses[0].state.terminated.finishedAt}")
	// After db is ready, within a poll (2 s) and the watches' delays.
	if d := done.Sub(ready); d < 0 || d > 3*time.Second { // times in whole seconds
		t.Errorf("the init container finished %s after db-0 became ready", d)
	}
}

// docSession loads testdata/docs/NAME, a documentation example as
// pasted, and a kubectl session on it.
func docSession(t *testing.T, name string) (*engine.Engine, *kubectl.Session) {
	t.Helper()
	src, err := os.ReadFile("testdata/docs/" + name)
	if err != nil {
		t.Fatal(err)
	}
	e, sc := testkit.Load(t, src)
	return e, &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: scenario.DecodeObjects}
}
