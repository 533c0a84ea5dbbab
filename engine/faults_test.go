package engine_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
)

func withImage(t *testing.T, behaviour, actions string) *engine.Engine {
	t.Helper()
	src := strings.Replace(mustRead(t, seed), `"codartium/api:1.4.2": {pull: 2s, start: 1s, ready: 3s}`, `"codartium/api:1.4.2": `+behaviour, 1)
	if actions != "" {
		src = strings.Replace(src, "  images:\n", "  actions:\n"+actions+"  images:\n", 1)
	}
	e, _ := testkit.Load(t, []byte(src))
	return e
}

// kill-pod: the containers exit with 137; the kubelet restarts them at
// once (the first restart has no backoff) and RESTARTS becomes 1.
func TestKillPod(t *testing.T) {
	e := withImage(t, "{pull: 1s, start: 1s, ready: 2s}", "    - at: 30s\n      kill-pod: app=codartium-api\n")
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	restarted := 0
	for _, p := range testkit.Pods(e, "codartium-team") {
		cs := p.Status.ContainerStatuses[0]
		if cs.RestartCount == 1 {
			restarted++
			if cs.LastTerminationState.Terminated == nil || cs.LastTerminationState.Terminated.ExitCode != 137 || !api.IsPodReady(p) {
				t.Errorf("killed pod %s: %+v", p.Name, cs)
			}
		}
	}
	if restarted != 1 {
		t.Fatalf("%d pods restarted, want exactly the killed one", restarted)
	}
}

// What the log says of a kill follows the pod's restartPolicy: a
// Deployment's pod (Always) is restarted; an Indexed Job's pod (Never) is
// not, and fails. The fault's tick and the kubelet's next tick on the pod
// say so.
func TestKillPodExplains(t *testing.T) {
	ex, _ := examples.Get("job-indexed")
	never, _ := testkit.Load(t, []byte(ex.Source))
	for _, c := range []struct {
		name  string
		e     *engine.Engine
		fault string
		saw   string
	}{
		{"Always", withImage(t, "{pull: 1s, start: 1s, ready: 2s}", "    - at: 30s\n      kill-pod: app=codartium-api\n"),
			"its kubelet will notice and restart them (restartPolicy Always)", "was killed (exit code 137); restarting api (restart 1)"},
		{"Never", never, "with restartPolicy Never its kubelet will not restart them, and the pod fails",
			"render was killed (exit code 137); not restarted (restartPolicy Never)"},
	} {
		e := c.e
		e.RunUntil(60_000)
		var fault, saw string
		for _, tk := range e.Trace() {
			switch {
			case tk.Component == engine.ScenarioActor && strings.Contains(tk.Explanation(), "killed"):
				fault = tk.Explanation()
			case fault != "" && saw == "" && tk.Component == engine.Kubelet && strings.Contains(tk.Explanation(), "killed"):
				saw = tk.Explanation()
			}
		}
		if !strings.Contains(fault, c.fault) || !strings.Contains(saw, c.saw) {
			t.Errorf("%s: the fault says %q\nthe kubelet says %q", c.name, fault, saw)
		}
	}
}

// fail-image: after the tag disappears, a node that has not pulled the
// image cannot start a new pod; nodes that have it are unaffected.
func TestFailImage(t *testing.T) {
	e := withImage(t, "{pull: 1s, start: 1s}", "    - at: 20s\n      fail-image: codartium/api:1.4.2\n    - at: 30s\n      kubectl: scale deployment/codartium-api --replicas=5\n")
	e.RunUntil(90_000)
	states := map[string]int{}
	for _, p := range testkit.Pods(e, "codartium-team") {
		cs := p.Status.ContainerStatuses[0]
		switch {
		case cs.State.Running != nil:
			states["running"]++
		case cs.State.Waiting != nil:
			states[cs.State.Waiting.Reason]++
		}
	}
	if states["running"] != 5 {
		t.Fatalf("pods %v: every node already has the image, so all 5 run", states)
	}
	e = withImage(t, "{pull: 1s, start: 1s}", "    - at: 0s\n      fail-image: codartium/api:1.4.2\n")
	e.RunUntil(60_000)
	for _, p := range testkit.Pods(e, "codartium-team") {
		if w := p.Status.ContainerStatuses[0].State.Waiting; w == nil || (w.Reason != "ErrImagePull" && w.Reason != "ImagePullBackOff") {
			t.Fatalf("pod %s: %+v", p.Name, p.Status.ContainerStatuses[0].State)
		}
	}
}

// Flapping readiness: the pods drop out of the ReplicaSet's ready count
// and come back, with Unhealthy events; the Deployment loses and regains
// availability.
func TestFlappingReadiness(t *testing.T) {
	e := withImage(t, "{pull: 1s, start: 1s, ready: 2s, flap: {up: 30s, down: 20s}}", "")
	e.RunUntil(200_000)
	var readyCounts []int32
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if rs, ok := eff.After.(*api.ReplicaSet); ok && (len(readyCounts) == 0 || readyCounts[len(readyCounts)-1] != rs.Status.ReadyReplicas) {
				readyCounts = append(readyCounts, rs.Status.ReadyReplicas)
			}
		}
	}
	ups, downs := 0, 0
	for i := 1; i < len(readyCounts); i++ {
		if readyCounts[i] > readyCounts[i-1] {
			ups++
		} else {
			downs++
		}
	}
	if ups < 2 || downs < 2 {
		t.Fatalf("readyReplicas over time %v: want it to go down and up again", readyCounts)
	}
	if len(eventsWith(e, "Unhealthy")) == 0 || !strings.HasPrefix(eventsWith(e, "Unhealthy")[0].Message, "Readiness probe failed: HTTP probe failed with statuscode: 503") {
		t.Fatalf("Unhealthy events %+v", eventsWith(e, "Unhealthy"))
	}
}

// A liveness failure kills and restarts the container with the kubelet's
// messages.
func TestLivenessFailure(t *testing.T) {
	src := strings.Replace(mustRead(t, seed), "          readinessProbe:\n", "          livenessProbe:\n            httpGet: {path: /live, port: 8080}\n            periodSeconds: 10\n          readinessProbe:\n", 1)
	src = strings.Replace(src, `{pull: 2s, start: 1s, ready: 3s}`, `{pull: 2s, start: 1s, ready: 3s, livenessFailAfter: 60s}`, 1)
	e, _ := testkit.Load(t, []byte(src))
	e.RunUntil(200_000)
	killing := eventsWith(e, "Killing")
	if len(killing) == 0 || !strings.HasPrefix(killing[0].Message, "Container api failed liveness probe, will be restarted") {
		t.Fatalf("Killing events %+v", killing)
	}
	unhealthy := eventsWith(e, "Unhealthy")
	if len(unhealthy) == 0 || unhealthy[0].Message != "Liveness probe failed: HTTP probe failed with statuscode: 500" {
		t.Fatalf("Unhealthy events %+v", unhealthy)
	}
	for _, p := range testkit.Pods(e, "codartium-team") {
		if p.Status.ContainerStatuses[0].RestartCount < 1 {
			t.Errorf("pod %s was not restarted", p.Name)
		}
	}
}
