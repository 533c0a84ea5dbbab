package kubelet

// This file is the container lifecycle: pull, create, start, exit and
// restart with back-off, as pkg/kubelet/kuberuntime and images do.

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// beginPull checks the image and starts a pull when one is needed. It
// reports whether the container moved on.
func (k *Kubelet) beginPull(w *worker, c *container, spec *api.Container, b Behavior) bool {
	if c.pullRetryAt > w.now {
		if c.waiting == "ErrImagePull" && c.due <= w.now {
			c.waiting = "ImagePullBackOff"
			c.waitingMsg = fmt.Sprintf("Back-off pulling image %q", c.image)
			w.event(c, api.EventNormal, "BackOff", c.waitingMsg)
			w.event(c, api.EventWarning, "Failed", "Error: ImagePullBackOff")
			w.Note("%s in ImagePullBackOff until %s", c.image, trace.FormatTime(c.pullRetryAt))
		}
		return false
	}
	if k.images[c.image] && spec.ImagePullPolicy != "Always" {
		w.event(c, api.EventNormal, "Pulled", fmt.Sprintf("Container image %q already present on machine", c.image))
		w.Note("image %s already present", c.image)
		return k.create(w, c, spec, b)
	}
	if spec.ImagePullPolicy == "Never" {
		c.waiting, c.waitingMsg = "ErrImageNeverPull", fmt.Sprintf("Container image %q is not present with pull policy of Never", c.image)
		w.event(c, api.EventWarning, "ErrImageNeverPull", c.waitingMsg)
		c.pullRetryAt = 0
		return false
	}
	w.event(c, api.EventNormal, "Pulling", k.texts.pulling(c.image))
	c.stage, c.due = stagePulling, w.now+b.PullMS
	w.Note("pulling %s (%s)", c.image, trace.FormatTime(b.PullMS))
	return true
}

// finishPull completes (or fails) a pull.
func (k *Kubelet) finishPull(w *worker, c *container, spec *api.Container, b Behavior) bool {
	if msg, failing := k.pullFailures[c.image]; failing {
		b.PullError = msg
	}
	if b.PullError != "" {
		msg := fmt.Sprintf("Failed to pull image %q: %s", c.image, b.PullError)
		w.event(c, api.EventWarning, "Failed", msg)
		// startContainer (pkg/kubelet/kuberuntime/kuberuntime_container.go)
		// records events.FailedToCreateContainer ("Failed") with
		// "Error: %v" of the puller's error, ErrImagePull here.
		w.event(c, api.EventWarning, "Failed", "Error: ErrImagePull")
		c.pullBackoff = nextBackoff(c.pullBackoff)
		c.stage, c.waiting, c.waitingMsg = stageWaiting, "ErrImagePull", msg
		c.pullRetryAt = w.now + c.pullBackoff
		c.due = w.now + 1000 // the pod worker's next sync shows the backoff
		w.Note("pull of %s failed: %s; retry in %s", c.image, b.PullError, trace.FormatTime(c.pullBackoff))
		return false
	}
	k.images[c.image] = true
	w.event(c, api.EventNormal, "Pulled", fmt.Sprintf("Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.",
		c.image, goDuration(b.PullMS), goDuration(b.PullMS), b.SizeBytes))
	w.Note("pulled %s", c.image)
	return k.create(w, c, spec, b)
}

func nextBackoff(cur int64) int64 {
	if cur == 0 {
		return backOffInitialMS
	}
	return min(2*cur, backOffMaxMS)
}

// create creates the container, which runs once StartMS has passed, and
// reports whether it could: a container whose environment reads what
// does not exist waits (configFailed).
func (k *Kubelet) create(w *worker, c *container, spec *api.Container, b Behavior) bool {
	if msg := containerConfigError(w.tick, w.pod.Namespace, spec); msg != "" {
		k.configFailed(w, c, msg)
		return false
	}
	c.id = fmt.Sprintf("containerd://%016x%016x%016x%016x", w.tick.Rand().Uint64(), w.tick.Rand().Uint64(), w.tick.Rand().Uint64(), w.tick.Rand().Uint64())
	c.imageRef = k.texts.imageID(c.image)
	w.event(c, api.EventNormal, "Created", k.texts.created(c.name))
	w.Note("created container %s (starts in %s)", c.name, trace.FormatTime(b.StartMS))
	c.stage, c.due, c.waiting, c.waitingMsg, c.pullRetryAt = stageStarting, w.now+b.StartMS, "", "", 0
	return true
}

// started marks the container running and works out when its readiness
// probe first succeeds and when it exits on its own.
func (k *Kubelet) started(w *worker, p *api.Pod, c *container, spec *api.Container, b Behavior) {
	c.stage, c.startedAt, c.ready, c.term = stageRunning, c.due, false, nil
	w.event(c, api.EventNormal, "Started", k.texts.started(c.name))
	c.probesFrom, c.startupKillAt = c.startedAt, 0
	if spec.StartupProbe != nil {
		// The startup probe hits the app's liveness endpoint; readiness and
		// liveness probing begin once it has passed. One that never
		// passes: the container never starts (the init containers after
		// a sidecar wait), and is killed once the probe has failed
		// failureThreshold times (startupKill).
		if _, passed := probeState(c.startedAt, spec.StartupProbe, false, livenessAnswer(c.startedAt, b), c.startedAt-1); passed >= 0 {
			c.probesFrom = passed
		} else {
			c.probesFrom, c.startupKillAt = neverStarted, startupFailedAt(c.startedAt, spec.StartupProbe)
		}
	}
	if b.ExitAfterMS > 0 {
		c.exitAt = c.startedAt + b.ExitAfterMS
	} else {
		c.exitAt = 0
	}
	c.resolvedAt, c.lookupAt = 0, 0
	c.ready = k.readiness(c, spec, b, w.now)
	if c.startupKillAt > 0 {
		w.Note("started %s; its startup probe never passes: it is killed at %s", c.name, trace.FormatTime(c.startupKillAt))
	} else if c.ready {
		w.Note("started %s; ready", c.name)
	} else if _, next := k.readinessNext(c, spec, b, w.now); next >= 0 {
		w.Note("started %s; readiness probe passes at %s", c.name, trace.FormatTime(next))
	} else {
		w.Note("started %s; its readiness probe never passes", c.name)
	}
}

// exited records the app exiting on its own.
func (k *Kubelet) exited(w *worker, c *container, b Behavior) {
	reason := "Completed"
	if b.ExitCode != 0 {
		reason = "Error"
	}
	c.term = &api.ContainerStateTerminated{ExitCode: b.ExitCode, Reason: reason, StartedAt: api.At(c.startedAt),
		FinishedAt: api.At(c.exitAt), ContainerID: c.id}
	c.stage, c.ready, c.finishedAt = stageExited, false, c.exitAt
	w.Note("%s exited with code %d", c.name, b.ExitCode)
}

// restart applies the crash-loop backoff: the first restart is immediate,
// later ones wait 10 s doubling to 5 min (kuberuntime_manager.go doBackOff).
func (k *Kubelet) restart(w *worker, p *api.Pod, c *container) bool {
	t := c.term
	if t == nil {
		t = c.lastTerm
	}
	if t == nil || !Restarts(c.restartPolicy(p), t.ExitCode) {
		return false
	}
	expired := c.finishedAt-c.backoffAt > backOffResetMS
	if c.backoffAt > 0 && !expired && w.now-c.finishedAt < c.backoffMS {
		if c.waiting != "CrashLoopBackOff" {
			c.lastTerm, c.term = t, nil
			c.waiting = "CrashLoopBackOff"
			c.waitingMsg = fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s(%s)", goDuration(c.backoffMS), c.name, p.Name, p.Namespace, p.UID)
			w.event(c, api.EventWarning, "BackOff", fmt.Sprintf("Back-off restarting failed container %s in pod %s_%s(%s)", c.name, p.Name, p.Namespace, p.UID))
			w.Note("%s in CrashLoopBackOff for %s", c.name, goDuration(c.backoffMS))
		}
		return false
	}
	if c.backoffAt == 0 || expired {
		c.backoffMS = backOffInitialMS
	} else {
		c.backoffMS = min(2*c.backoffMS, backOffMaxMS)
	}
	c.backoffAt = w.now
	c.lastTerm, c.term = t, nil
	c.waiting, c.waitingMsg = "", ""
	c.restarts++
	c.stage = stageWaiting
	w.Note("restarting %s (restart %d)", c.name, c.restarts)
	return true
}

// Restarts reports whether the kubelet restarts a container that exited
// with exitCode under the pod's restartPolicy: never with Never, with
// OnFailure only after a failure, always with Always
// (pkg/kubelet/container/helpers.go ShouldContainerBeRestarted).
func Restarts(restartPolicy string, exitCode int32) bool {
	switch restartPolicy {
	case "Never":
		return false
	case "OnFailure":
		return exitCode != 0
	}
	return true
}

// goDuration formats milliseconds like Go's time.Duration.String.
func goDuration(ms int64) string {
	if ms == 0 {
		return "0s"
	}
	h, m := ms/3_600_000, (ms/60_000)%60
	s := float64(ms%60_000) / 1000
	sec := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", s), "0"), ".")
	switch {
	case h > 0:
		return fmt.Sprintf("%dh%dm%ss", h, m, sec)
	case m > 0:
		return fmt.Sprintf("%dm%ss", m, sec)
	case ms < 1000:
		return fmt.Sprintf("%dms", ms)
	}
	return sec + "s"
}
