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
	always := &api.Pod{Spec: &api.PodSpec{RestartPolicy: "Always"}}
	never := &api.Pod{Spec: &api.PodSpec{RestartPolicy: "Never"}}
	for _, tc := range []struct {
		name     string
		pod      *api.Pod
		cs       []api.ContainerStatus
		terminal bool
		want     string
	}{
		{"creating", always, []api.ContainerStatus{waiting}, false, api.PodPending},
		{"running", always, []api.ContainerStatus{running}, false, api.PodRunning},
		{"crash loop stays Running", always, []api.ContainerStatus{crashloop}, false, api.PodRunning},
		{"one running one waiting", always, []api.ContainerStatus{running, waiting}, false, api.PodPending},
		{"never, failed", never, []api.ContainerStatus{failed}, false, api.PodFailed},
		{"never, done", never, []api.ContainerStatus{done}, false, api.PodSucceeded},
		{"deleted, all exit 0", always, []api.ContainerStatus{done}, true, api.PodSucceeded},
	} {
		if got := getPhase(tc.pod, tc.cs, tc.terminal); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// The message names the unready containers as upstream prints the list,
// and is made once per list: every pod of a Deployment shares it.
func TestContainersReadyMessage(t *testing.T) {
	tx := newTexts()
	c := containersReady(tx, api.PodRunning, nil, []string{"a", "b"})
	if c.Reason != "ContainersNotReady" || c.Message != "containers with unready status: [a b]" {
		t.Fatalf("%+v", c)
	}
	again := containersReady(tx, api.PodRunning, nil, []string{"a", "b"})
	if unsafe.StringData(again.Message) != unsafe.StringData(c.Message) {
		t.Error("the same unready containers made a second copy of the message")
	}
	if other := containersReady(tx, api.PodRunning, nil, []string{"web"}); other.Message != "containers with unready status: [web]" {
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
