package kubelet

// This file is the pod worker: one sync of one pod per tick, as
// pkg/kubelet/pod_workers.go and kubelet.go SyncPod / SyncTerminatingPod
// drive it.

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// worker carries one pod sync's context and its notes.
type worker struct {
	tick reconcile.Tick
	pod  *api.Pod
	now  int64
	reconcile.Notes
	texts *texts
}

func (w *worker) event(c *container, typ, reason, msg string) {
	field := ""
	if c != nil {
		field = w.texts.fieldPath(c.name)
	}
	w.tick.Event(w.pod, field, typ, reason, msg)
}

// Reconcile is one pod worker sync (kubelet.go SyncPod / SyncTerminatingPod).
func (k *Kubelet) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	if key.Kind == api.KindNode {
		return reconcile.Result{}, k.reportNode(tick)
	}
	if k.health != Ready {
		tick.Explain("kubelet on %s is %s: pod/%s is not synced", k.node, strings.ToLower(string(k.health)), key.Name)
		return reconcile.Result{}, nil
	}
	o, ok := k.Informer.Get(key)
	rt, _ := k.runtime(key)
	if !ok {
		if rt != nil {
			k.pods.remove(key)
		}
		tick.Explain("pod/%s is gone from the API; runtime cleaned up", key.Name)
		return reconcile.Result{}, nil
	}
	p := o.(*api.Pod)
	tick.Read(p)
	if rt != nil && rt.uid != p.UID {
		rt = nil
	}
	w := &worker{tick: tick, pod: p, now: tick.Now(), texts: k.texts}
	var next int64
	var err error
	if p.DeletionTimestamp != nil {
		next, err = k.terminate(w, p, rt)
	} else {
		if rt == nil {
			rt = k.admit(w, p)
		}
		next = k.advance(w, p, rt)
		err = k.report(w, p, rt)
	}
	w.Explain(tick, "pod/"+p.Name, "nothing changed")
	if next > w.now {
		return reconcile.Result{RequeueAfter: next - w.now}, err
	}
	return reconcile.Result{}, err
}

// admit takes the pod on: its containers' runtime records, and its
// sandbox and IP address once its volumes are mounted (mount).
func (k *Kubelet) admit(w *worker, p *api.Pod) *podRuntime {
	rt := &podRuntime{namespace: p.Namespace, name: p.Name, uid: p.UID, startTime: w.now, gen: k.gen}
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		b := k.behaviors.Of(p.Spec, c)
		rt.containers = append(rt.containers, &container{name: c.Name, image: c.Image, behavior: &b})
	}
	k.pods.put(rt)
	k.mount(w, p, rt)
	return rt
}

// sandbox starts the pod's sandbox and gives it an IP address.
func (k *Kubelet) sandbox(w *worker, rt *podRuntime) {
	rt.ip = k.texts.ip(k.ipPrefix, k.nextIP)
	k.nextIP++
	if k.nextIP > 254 {
		k.nextIP = 2
	}
	w.Note("admitted; sandbox up with IP %s", rt.ip)
}

// advance runs every stage transition that is due and returns when the
// next one is.
func (k *Kubelet) advance(w *worker, p *api.Pod, rt *podRuntime) int64 {
	next := int64(-1)
	wake := func(t int64) {
		if t > w.now && (next < 0 || t < next) {
			next = t
		}
	}
	if !k.mount(w, p, rt) {
		return rt.mountRetryAt
	}
	blocked := false
	for i, c := range rt.containers {
		spec := &p.Spec.Containers[i]
		b := *c.behavior
		if !blocked {
			k.step(w, p, rt, c, spec, b)
		}
		switch c.stage {
		case stagePulling, stageStarting:
			wake(c.due)
			blocked = true
		case stageWaiting:
			wake(c.pullRetryAt)
			if c.waiting == "ErrImagePull" {
				wake(c.due)
			}
			blocked = true
		case stageRunning:
			for _, t := range k.probeWakes(c, spec, b, w.now) {
				wake(t)
			}
			if c.exitAt > 0 {
				wake(c.exitAt)
			}
		case stageExited:
			if c.backoffAt > 0 {
				wake(c.finishedAt + c.backoffMS)
			}
		}
	}
	return next
}

// step moves one container through every transition due at w.now.
func (k *Kubelet) step(w *worker, p *api.Pod, rt *podRuntime, c *container, spec *api.Container, b Behavior) {
	for {
		switch c.stage {
		case stageWaiting:
			if !k.beginPull(w, c, spec, b) {
				return
			}
		case stagePulling:
			if c.due > w.now || !k.finishPull(w, c, spec, b) {
				return
			}
		case stageStarting:
			if c.due > w.now {
				return
			}
			k.started(w, p, c, spec, b)
		case stageRunning:
			if k.probe(w, p, rt, c, spec, b) {
				continue
			}
			if c.exitAt > 0 && c.exitAt <= w.now {
				k.exited(w, c, b)
				continue
			}
			return
		case stageExited:
			if c.killed {
				c.killed = false
				w.Note("%s was killed (exit code %d)", c.name, c.term.ExitCode)
				if !Restarts(p.Spec.RestartPolicy, c.term.ExitCode) {
					w.Note("not restarted (restartPolicy %s)", p.Spec.RestartPolicy)
				}
			}
			if !k.restart(w, p, c) {
				return
			}
		}
	}
}

// report writes the pod status when it changed.
func (k *Kubelet) report(w *worker, p *api.Pod, rt *podRuntime) error {
	st := k.generateStatus(p, rt, w.now)
	base := rt.status
	if base == nil {
		base = &p.Status
	}
	if reflect.DeepEqual(base, &st) {
		return nil
	}
	k.patch = *p
	k.patch.Status = st
	defer func() { k.patch = api.Pod{} }() // also if the write panics: keep no pod alive
	out, err := w.tick.PatchStatus(trace.Realize, &k.patch, statusSummary(p, &st))
	if err != nil {
		return err
	}
	// The status as stored: the pod version the store keeps holds it
	// already, so the runtime keeps no copy of its own.
	rt.status = &out.(*api.Pod).Status
	return nil
}

// terminate stops the pod's containers within the grace period, reports
// the final status and confirms the deletion.
func (k *Kubelet) terminate(w *worker, p *api.Pod, rt *podRuntime) (int64, error) {
	key := api.KeyOf(p)
	if rt == nil {
		return 0, k.confirmDeletion(w, p, key, "never started here")
	}
	if !rt.killing {
		grace := int64(30_000)
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds * 1000
		}
		rt.killing = true
		rt.stopAt = w.now
		hooks := ""
		for i, c := range rt.containers {
			c.sigtermAt = -1
			if c.stage == stageRunning || c.stage == stageStarting {
				w.event(c, api.EventNormal, "Killing", k.texts.stopping(c.name))
				// killContainer: the preStop hook first, then SIGTERM
				// with what is left of the grace period.
				hook := min(preStopMS(p, c.name), grace)
				if hook > 0 {
					hooks += fmt.Sprintf("; preStop of %s sleeps %s before SIGTERM", c.name, trace.FormatTime(hook))
				}
				c.sigtermAt = w.now + hook
				rt.stopAt = max(rt.stopAt, w.now+hook+min(rt.containers[i].behavior.StopMS, grace-hook))
			}
		}
		w.Note("stopping containers (grace period %ds)%s", grace/1000, hooks)
		if rt.stopAt > w.now {
			return rt.stopAt, nil
		}
	}
	if w.now < rt.stopAt {
		return rt.stopAt, nil
	}
	for _, c := range rt.containers {
		if c.stage == stageRunning || c.stage == stageStarting {
			c.term = &api.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: api.At(c.startedAt), FinishedAt: api.At(w.now), ContainerID: c.id}
		} else if c.term == nil {
			c.term = &api.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown", FinishedAt: api.At(w.now)}
		}
		c.stage, c.ready = stageExited, false
	}
	if err := k.report(w, p, rt); err != nil {
		return 0, err
	}
	return 0, k.confirmDeletion(w, p, key, "containers stopped")
}

func (k *Kubelet) confirmDeletion(w *worker, p *api.Pod, key api.Key, why string) error {
	err := w.tick.Delete(trace.Realize, key, apiserver.DeleteOptions{GracePeriodSeconds: api.Int64(0), UID: p.UID},
		fmt.Sprintf("kubelet confirmed deletion of pod/%s (%s)", p.Name, why))
	if err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
		return err
	}
	k.pods.remove(key)
	w.Note("%s; deletion confirmed", why)
	return nil
}

// preStopMS is how long the named container's preStop hook runs.
func preStopMS(p *api.Pod, name string) int64 {
	for i := range p.Spec.Containers {
		if p.Spec.Containers[i].Name == name {
			return p.Spec.Containers[i].PreStopMS()
		}
	}
	return 0
}
