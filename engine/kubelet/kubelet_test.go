package kubelet

import (
	"testing"
	"unsafe"

	"github.com/stateflow/stateflow/engine/api"
)

func TestGoDuration(t *testing.T) {
	for ms, want := range map[int64]string{0: "0s", 10_000: "10s", 80_000: "1m20s", 160_000: "2m40s", 300_000: "5m0s", 1_500: "1.5s", 250: "250ms"} {
		if got := goDuration(ms); got != want {
			t.Errorf("goDuration(%d) = %q, want %q", ms, got, want)
		}
	}
}

func TestCrashLoopBackoffSequence(t *testing.T) {
	var b int64
	var got []int64
	for i := 0; i < 8; i++ {
		b = nextBackoff(b)
		got = append(got, b/1000)
	}
	want := []int64{10, 20, 40, 80, 160, 300, 300, 300}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("backoff %v, want %v", got, want)
		}
	}
}

func TestGetPhase(t *testing.T) {
	running := api.ContainerStatus{State: api.ContainerState{Running: &api.ContainerStateRunning{}}}
	waiting := api.ContainerStatus{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "ContainerCreating"}}}
	crashloop := api.ContainerStatus{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1}}}
	done := api.ContainerStatus{State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 0}}}
	failed := api.ContainerStatus{State: api.ContainerState{Terminated: &api.ContainerStateTerminated{ExitCode: 1}}}
	podInit := api.ContainerStatus{State: api.ContainerState{Waiting: &api.ContainerStateWaiting{Reason: "PodInitializing"}}}
	yes, no := true, false
	started, starting := running, running
	started.Started, starting.Started = &yes, &no
	always := &api.Pod{Spec: &api.PodSpec{RestartPolicy: "Always"}}
	never := &api.Pod{Spec: &api.PodSpec{RestartPolicy: "Never"}}
	sidecar := api.ContainerRestartPolicyAlways
	withInit := func(policy string, restartable bool) *api.Pod {
		ic := api.Container{Name: "init"}
		if restartable {
			ic.RestartPolicy = &sidecar
		}
		return &api.Pod{Spec: &api.PodSpec{RestartPolicy: policy, InitContainers: []api.Container{ic}}}
	}
	for _, tc := range []struct {
		name        string
		pod         *api.Pod
		init, cs    []api.ContainerStatus
		terminal    bool
		initialized bool
		want        string
	}{
		{"creating", always, nil, []api.ContainerStatus{waiting}, false, false, api.PodPending},
		{"running", always, nil, []api.ContainerStatus{running}, false, true, api.PodRunning},
		{"crash loop stays Running", always, nil, []api.ContainerStatus{crashloop}, false, true, api.PodRunning},
		{"one running one waiting", always, nil, []api.ContainerStatus{running, waiting}, false, true, api.PodPending},
		{"never, failed", never, nil, []api.ContainerStatus{failed}, false, false, api.PodFailed},
		{"never, done", never, nil, []api.ContainerStatus{done}, false, false, api.PodSucceeded},
		{"deleted, all exit 0", always, nil, []api.ContainerStatus{done}, true, false, api.PodSucceeded},
		{"init container running", withInit("Always", false), []api.ContainerStatus{running}, []api.ContainerStatus{podInit}, false, false, api.PodPending},
		{"init container failed, never", withInit("Never", false), []api.ContainerStatus{failed}, []api.ContainerStatus{podInit}, false, false, api.PodFailed},
		{"init container crash loop", withInit("Always", false), []api.ContainerStatus{crashloop}, []api.ContainerStatus{podInit}, false, false, api.PodPending},
		{"init container done, container running", withInit("Always", false), []api.ContainerStatus{done}, []api.ContainerStatus{running}, false, true, api.PodRunning},
		{"sidecar not yet started", withInit("Always", true), []api.ContainerStatus{starting}, []api.ContainerStatus{podInit}, false, false, api.PodPending},
		{"sidecar restarting after initialization", withInit("Always", true), []api.ContainerStatus{starting}, []api.ContainerStatus{running}, false, true, api.PodRunning},
		{"sidecar keeps a finished job pod running", withInit("Never", true), []api.ContainerStatus{started}, []api.ContainerStatus{done}, false, false, api.PodRunning},
		{"stopped sidecar does not count", withInit("Never", true), []api.ContainerStatus{done}, []api.ContainerStatus{done}, false, false, api.PodSucceeded},
	} {
		st := &api.PodStatus{InitContainerStatuses: tc.init, ContainerStatuses: tc.cs}
		if got := getPhase(tc.pod, st, tc.terminal, tc.initialized); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// The message names the unready containers as upstream prints the list,
// and is made once per list: every pod of a Deployment shares it.
func TestContainersReadyMessage(t *testing.T) {
	tx := newTexts()
	sidecar := api.ContainerRestartPolicyAlways
	pod := &api.Pod{Spec: &api.PodSpec{InitContainers: []api.Container{{Name: "setup"}, {Name: "proxy", RestartPolicy: &sidecar}}}}
	st := func(names ...string) *api.PodStatus {
		s := &api.PodStatus{Phase: api.PodRunning, InitContainerStatuses: []api.ContainerStatus{{Name: "setup", Ready: true}, {Name: "proxy"}}}
		for _, n := range names {
			s.ContainerStatuses = append(s.ContainerStatuses, api.ContainerStatus{Name: n})
		}
		return s
	}
	c := containersReady(tx, pod, st("a", "b"))
	if c.Reason != "ContainersNotReady" || c.Message != "containers with unready status: [proxy a b]" {
		t.Fatalf("%+v", c)
	}
	again := containersReady(tx, pod, st("a", "b"))
	if unsafe.StringData(again.Message) != unsafe.StringData(c.Message) {
		t.Error("the same unready containers made a second copy of the message")
	}
	if other := containersReady(tx, pod, st("web")); other.Message != "containers with unready status: [proxy web]" {
		t.Errorf("another list reads %q", other.Message)
	}
}

func TestImageID(t *testing.T) {
	if got := imageID("nginx:1.25"); got[:len("docker.io/library/nginx@sha256:")] != "docker.io/library/nginx@sha256:" {
		t.Fatalf("imageID = %s", got)
	}
	if got := qualified("ghcr.io/acme/api"); got != "ghcr.io/acme/api" {
		t.Fatalf("qualified = %s", got)
	}
}

// A container is restarted as upstream's ShouldContainerBeRestarted
// decides: never under Never, under OnFailure only after a non-zero exit,
// always under Always (the API server's default when none is given).
func TestRestarts(t *testing.T) {
	for _, c := range []struct {
		policy string
		code   int32
		want   bool
	}{
		{"Always", 0, true}, {"Always", 1, true}, {"Always", 137, true},
		{"OnFailure", 0, false}, {"OnFailure", 1, true}, {"OnFailure", 137, true},
		{"Never", 0, false}, {"Never", 1, false}, {"Never", 137, false},
	} {
		if got := Restarts(c.policy, c.code); got != c.want {
			t.Errorf("restartPolicy %s, exit code %d: restarts %v, want %v", c.policy, c.code, got, c.want)
		}
	}
}
