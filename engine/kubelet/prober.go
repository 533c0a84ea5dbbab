package kubelet

// This file runs the readiness and liveness probes of running containers
// (pkg/kubelet/prober).

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// readiness is the readiness verdict at t: without a probe a container is
// ready as soon as it runs (and its startup probe, if any, has passed).
func (k *Kubelet) readiness(c *container, spec *api.Container, b Behavior, t int64) bool {
	st, _ := k.readinessNext(c, spec, b, t)
	return st
}

func (k *Kubelet) readinessNext(c *container, spec *api.Container, b Behavior, t int64) (bool, int64) {
	if t < c.probesFrom {
		return false, c.probesFrom
	}
	if spec.ReadinessProbe == nil {
		return true, -1
	}
	return probeStateAt(&c.probeCursors().ready, c.probesFrom, c.startedAt, spec.ReadinessProbe, false, readinessAnswer(c.startedAt, b), t)
}

// liveness is the liveness verdict at t and when it next changes.
func (k *Kubelet) liveness(c *container, spec *api.Container, b Behavior, t int64) (bool, int64) {
	if spec.LivenessProbe == nil || t < c.probesFrom {
		if spec.LivenessProbe == nil {
			return true, -1
		}
		return true, c.probesFrom
	}
	return probeStateAt(&c.probeCursors().live, c.probesFrom, c.startedAt, spec.LivenessProbe, true, livenessAnswer(c.startedAt, b), t)
}

// probeWakes are the times the probes' verdicts next change.
func (k *Kubelet) probeWakes(c *container, spec *api.Container, b Behavior, now int64) []int64 {
	_, r := k.readinessNext(c, spec, b, now)
	_, l := k.liveness(c, spec, b, now)
	return []int64{r, l}
}

// probe applies the probes' verdicts at w.now: readiness changes, and a
// failed liveness or startup probe kills the container (it reports
// whether it did).
func (k *Kubelet) probe(w *worker, p *api.Pod, rt *podRuntime, c *container, spec *api.Container, b Behavior) bool {
	if c.startupKillAt > 0 && c.startupKillAt <= w.now {
		k.probeKill(w, rt, c, "Startup", spec.StartupProbe, spec.Image)
		return true
	}
	if alive, _ := k.liveness(c, spec, b, w.now); !alive {
		k.probeKill(w, rt, c, "Liveness", spec.LivenessProbe, spec.Image)
		return true
	}
	ready := k.readiness(c, spec, b, w.now)
	switch {
	case ready && !c.ready:
		w.Note("readiness probe of %s succeeded", c.name)
	case !ready && c.ready:
		w.event(c, api.EventWarning, "Unhealthy", probeFailure("Readiness", spec.ReadinessProbe, rt.ip, spec.Image))
		w.Note("readiness probe of %s failed %d times: not ready", c.name, spec.ReadinessProbe.FailureThreshold)
	}
	c.ready = ready
	return false
}

// probeKill kills a container whose liveness or startup probe (kind) has
// failed failureThreshold times: an Unhealthy Event, then Killing with
// computePodActions' message (computeInitContainerActions' for a
// sidecar); the crash-loop back-off restarts it.
func (k *Kubelet) probeKill(w *worker, rt *podRuntime, c *container, kind string, probe *api.Probe, image string) {
	w.event(c, api.EventWarning, "Unhealthy", probeFailure(kind, probe, rt.ip, image))
	lower := strings.ToLower(kind)
	msg := fmt.Sprintf("Container %s failed %s probe, will be restarted", c.name, lower)
	if c.sidecar {
		msg = fmt.Sprintf("Init container %s failed %s probe", c.name, lower)
	}
	w.event(c, api.EventNormal, "Killing", msg)
	c.term = &api.ContainerStateTerminated{ExitCode: 137, Reason: "Error", StartedAt: api.At(c.startedAt), FinishedAt: api.At(w.now), ContainerID: c.id}
	c.stage, c.ready, c.finishedAt, c.startupKillAt = stageExited, false, w.now, 0
	w.Note("%s failed its %s probe: killed", c.name, lower)
}

// startupFailedAt is when a startup probe that fails from its first run
// has failed failureThreshold times (probes run initialDelaySeconds after
// the start, then every periodSeconds).
func startupFailedAt(start int64, p *api.Probe) int64 {
	return start + int64(p.InitialDelaySeconds)*1000 + int64(max(p.FailureThreshold, 1)-1)*int64(p.PeriodSeconds)*1000
}

// probeCursors are a container's readiness and liveness cursors.
type probeCursors struct{ ready, live probeCursor }

// probeCursors returns c's cursors, made on first use.
func (c *container) probeCursors() *probeCursors {
	if c.cursors == nil {
		c.cursors = &probeCursors{}
	}
	return c.cursors
}
