package kubelet

import (
	"testing"
	"unsafe"

	"github.com/stateflow/stateflow/engine/api"
)

// A kubelet's texts are the strings it wrote before, word for word, and
// one copy each: asked twice (or by a clone, which shares them) they give
// the same string, not an equal one.
func TestTextsAreMadeOnce(t *testing.T) {
	k := New("node-1", "10.0.0.1", "10.244.1.0/24", nil)
	clone := k.Clone().(*Kubelet)
	for _, tc := range []struct {
		name string
		of   func(*texts) string
		want string
	}{
		{"pulling", func(t *texts) string { return t.pulling("web:1") }, `Pulling image "web:1"`},
		{"created", func(t *texts) string { return t.created("web") }, "Created container: web"},
		{"started", func(t *texts) string { return t.started("web") }, "Started container web"},
		{"stopping", func(t *texts) string { return t.stopping("web") }, "Stopping container web"},
		{"field path", func(t *texts) string { return t.fieldPath("web", false) }, "spec.containers{web}"},
		{"init field path", func(t *texts) string { return t.fieldPath("web", true) }, "spec.initContainers{web}"},
		{"image ID", func(t *texts) string { return t.imageID("web:1") }, imageID("web:1")},
		{"unready", func(t *texts) string { return t.unready("web sidecar") }, "containers with unready status: [web sidecar]"},
		{"pod IP", func(t *texts) string { return t.ip(k.ipPrefix, 17) }, "10.244.1.17"},
	} {
		first, again, cloned := tc.of(k.texts), tc.of(k.texts), tc.of(clone.texts)
		if first != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, first, tc.want)
		}
		if unsafe.StringData(again) != unsafe.StringData(first) || unsafe.StringData(cloned) != unsafe.StringData(first) {
			t.Errorf("%s: asked again or by a clone, a new copy of %q", tc.name, first)
		}
	}
	if a, b := k.texts.started("web"), k.texts.started("sidecar"); a == b {
		t.Errorf("two containers share the message %q", a)
	}
}

// The parts of a container status that every pod repeats are one value
// each: the started flag, a waiting state without a message, and a pod's
// startTime across its reports. A waiting state with a message (which
// names its pod) is its own.
func TestStatusesShareWhatTheyRepeat(t *testing.T) {
	k := New("node-1", "10.0.0.1", "10.244.1.0/24", nil)
	creating := func() *container { return &container{name: "web", image: "web:1", stage: stagePulling} }
	a, b := k.texts.containerStatus(creating(), false, 0), k.texts.containerStatus(creating(), false, 0)
	if a.State.Waiting != b.State.Waiting || a.Started != b.Started {
		t.Error("two creating containers have states of their own")
	}
	if a.State.Waiting.Reason != "ContainerCreating" || *a.Started {
		t.Errorf("a creating container reads %+v, started %v", *a.State.Waiting, *a.Started)
	}
	running := &container{name: "web", stage: stageRunning, startedAt: 5000}
	if r := k.texts.containerStatus(running, false, 5000); !*r.Started || r.Started == a.Started {
		t.Error("a running container is not started, or shares the not-started flag")
	}
	backoff := func() *container {
		return &container{name: "web", stage: stageWaiting, waiting: "CrashLoopBackOff", waitingMsg: "back-off 10s restarting failed container=web pod=web-1"}
	}
	if x, y := k.texts.containerStatus(backoff(), false, 0), k.texts.containerStatus(backoff(), false, 0); x.State.Waiting == y.State.Waiting {
		t.Error("waiting states with messages are shared, and kept for every pod that ever waited")
	}
	rt := &podRuntime{startTime: 1000, containers: []*container{creating()}}
	p := &api.Pod{Spec: &api.PodSpec{}}
	first, again := k.generateStatus(p, rt, 2000), k.generateStatus(p, rt, 3000)
	if first.StartTime != again.StartTime || first.StartTime.MS != 1000 {
		t.Errorf("a pod's reports have startTimes %v and %v", first.StartTime, again.StartTime)
	}
}
