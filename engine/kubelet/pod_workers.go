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
		field = w.texts.fieldPath(c.name, c.init)
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
	rt := &podRuntime{namespace: p.Namespace, name: p.Name, uid: p.UID, startTime: w.now, gen: k.gen,
		inits: len(p.Spec.InitContainers), initialized: len(p.Spec.InitContainers) == 0}
	rt.containers = make([]*container, 0, rt.inits+len(p.Spec.Containers))
	for i := range rt.inits + len(p.Spec.Containers) {
		c := rt.spec(p, i)
		b := k.behaviors.Of(p.Spec, c)
		rt.containers = append(rt.containers, &container{name: c.Name, image: c.Image, behavior: &b,
			init: i < rt.inits, sidecar: api.IsRestartableInitContainer(c)})
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
		if t > w.now && t != neverStarted && (next < 0 || t < next) {
			next = t
		}
	}
	if !k.mount(w, p, rt) {
		return rt.mountRetryAt
	}
	// The containers start one after another: an init container once the
	// one before it has succeeded (a sidecar: has started), a container
	// once the one before it is running (SyncPod's order).
	blocked := false
	for i, c := range rt.containers {
		if c.init && !c.sidecar && rt.initialized {
			continue // done: after initialization only sidecars are kept running
		}
		if i == rt.inits && !blocked && !rt.initialized {
			rt.initialized = true
			w.Note("initialized: every init container has done its part")
		}
		spec := rt.spec(p, i)
		b := *c.behavior
		if !blocked || c.id != "" { // a container created before runs on its own
			k.step(w, p, rt, c, spec, b)
		}
		// Once the pod has initialized, a restarting sidecar holds back
		// nothing (computePodActions starts the containers regardless).
		holds := !(c.sidecar && rt.initialized)
		switch c.stage {
		case stagePulling, stageStarting:
			wake(c.due)
			blocked = blocked || holds
		case stageWaiting:
			wake(c.pullRetryAt)
			if c.waiting == "ErrImagePull" {
				wake(c.due)
			}
			blocked = blocked || holds
		case stageRunning:
			for _, t := range k.probeWakes(c, spec, b, w.now) {
				wake(t)
			}
			if c.exitAt > 0 {
				wake(c.exitAt)
			}
			if c.lookupAt > 0 {
				wake(c.lookupAt)
			}
			if c.startupKillAt > 0 {
				wake(c.startupKillAt)
			}
			if c.stopAt > 0 {
				wake(c.stopAt)
			}
			// A sidecar lets the next container start once its startup
			// probe has passed; a regular init container, once it has
			// succeeded.
			if c.sidecar && c.probesFrom != neverStarted {
				wake(c.probesFrom) // it has started then
			}
			if c.init && !rt.initialized && (!c.sidecar || c.probesFrom > w.now) {
				blocked = true
			}
		case stageExited:
			if c.backoffAt > 0 && c.stopAt == 0 {
				wake(c.finishedAt + c.backoffMS)
			}
			// An init container that failed, or a sidecar that exited, is
			// restarted before the next one starts.
			if c.init && !rt.initialized && (c.sidecar || c.term == nil || c.term.ExitCode != 0) {
				blocked = true
			}
		}
	}
	if t := k.stopSidecars(w, p, rt); t > 0 {
		wake(t)
	}
	return next
}

// stopSidecars stops the pod's sidecars once it is done: every regular
// container has exited for good, or an init container has failed for
// good (computePodActions' KillPod: sidecars do not keep a pod alive).
// They stop as a deleted pod's do (killContainersWithSyncResult): the
// last declared first, each running its preStop hook, then getting
// SIGTERM once the sidecars after it have stopped, within the grace
// period; it returns the next such stop.
func (k *Kubelet) stopSidecars(w *worker, p *api.Pod, rt *podRuntime) int64 {
	if rt.inits == 0 || !podDone(p, rt) {
		return 0
	}
	next, turn := int64(0), w.now
	for i := rt.inits - 1; i >= 0; i-- {
		c := rt.containers[i]
		if !c.sidecar || c.stopAt > 0 && c.stage != stageRunning {
			continue
		}
		if c.stopAt == 0 {
			c.stopAt = w.now
			switch {
			case c.stage == stageRunning:
				c.sigtermAt, c.stopAt = terminate(p, c, w.now, gracePeriodMS(p), turn)
				turn = c.stopAt
				w.event(c, api.EventNormal, "Killing", k.texts.stopping(c.name))
				w.Note("pod done: stopping sidecar %s (SIGTERM at %s)", c.name, trace.FormatTime(c.sigtermAt))
			case c.term == nil:
				// Not running and never ended: not started again, it is
				// reported as terminated (as terminate reports such a container).
				c.term = &api.ContainerStateTerminated{ExitCode: 137, Reason: "ContainerStatusUnknown", FinishedAt: api.At(w.now)}
				c.stage, c.ready, c.waiting, c.waitingMsg = stageExited, false, "", ""
			}
		}
		if c.stage == stageRunning && c.stopAt <= w.now {
			c.term = &api.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: api.At(c.startedAt), FinishedAt: api.At(c.stopAt), ContainerID: c.id}
			c.stage, c.ready, c.finishedAt = stageExited, false, c.stopAt
			w.Note("sidecar %s stopped", c.name)
		}
		if c.stage == stageRunning && (next == 0 || c.stopAt < next) {
			next = c.stopAt
		}
	}
	return next
}

// podDone says no regular container of the pod will run again: an init
// container failed and is not restarted, or every container has exited
// and is not restarted.
func podDone(p *api.Pod, rt *podRuntime) bool {
	for _, c := range rt.containers[:rt.inits] {
		if !c.sidecar && c.stage == stageExited && c.term != nil && c.term.ExitCode != 0 && !Restarts(c.restartPolicy(p), c.term.ExitCode) {
			return true
		}
	}
	if !rt.initialized {
		return false
	}
	for _, c := range rt.regular() {
		if c.stage != stageExited || c.term == nil || Restarts(c.restartPolicy(p), c.term.ExitCode) {
			return false
		}
	}
	return true
}

// step moves one container through every transition due at w.now.
func (k *Kubelet) step(w *worker, p *api.Pod, rt *podRuntime, c *container, spec *api.Container, b Behavior) {
	if c.stopAt > 0 && c.stage != stageRunning {
		return // a stopped sidecar is not started (again)
	}
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
			if b.Wait.Service != "" && c.resolvedAt == 0 {
				k.lookup(w, p, c, b.Wait)
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
				if !Restarts(c.restartPolicy(p), c.term.ExitCode) {
					w.Note("not restarted (restartPolicy %s)", c.restartPolicy(p))
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
		// killContainersWithSyncResult: every container runs its preStop
		// hook, then gets SIGTERM with what is left of the grace period;
		// sidecars wait for the containers, then for each later sidecar
		// (terminationOrdering), and get at least 2 s.
		kill := func(c *container, turn int64) int64 {
			c.sigtermAt = -1
			if c.stage != stageRunning && c.stage != stageStarting {
				return turn
			}
			w.event(c, api.EventNormal, "Killing", k.texts.stopping(c.name))
			if hook := min(preStopMS(p, c.name), grace); hook > 0 {
				hooks += fmt.Sprintf("; preStop of %s sleeps %s before SIGTERM", c.name, trace.FormatTime(hook))
			}
			var stop int64
			c.sigtermAt, stop = terminate(p, c, w.now, grace, turn)
			rt.stopAt = max(rt.stopAt, stop)
			return stop
		}
		turn := w.now
		for _, c := range rt.regular() {
			turn = max(turn, kill(c, w.now))
		}
		for i := rt.inits - 1; i >= 0; i-- {
			switch c := rt.containers[i]; {
			case c.sidecar && (c.stage == stageRunning || c.stage == stageStarting):
				turn = kill(c, turn)
				hooks += "; sidecar " + c.name + " gets SIGTERM at " + trace.FormatTime(c.sigtermAt)
			default:
				kill(c, w.now) // an init container still running stops at once, in no order
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

// minimumGraceMS is the least time a container gets between SIGTERM and
// SIGKILL (kuberuntime's minimumGracePeriodInSeconds).
const minimumGraceMS = 2_000

// terminate is killContainer's timing (kuberuntime_container.go) for c,
// killed at now within grace: its preStop hook runs first, then it waits
// for its turn (turn: when the containers a sidecar waits for have
// stopped, terminationOrdering's waitForTurn) while the grace period
// lasts, then it gets SIGTERM with what is left of the grace period, at
// least minimumGraceMS, and stops when its app does.
func terminate(p *api.Pod, c *container, now, grace, turn int64) (sigterm, stop int64) {
	sigterm = max(now+min(preStopMS(p, c.name), grace), min(turn, now+grace))
	left := max(grace-(sigterm-now), minimumGraceMS)
	return sigterm, sigterm + min(c.behavior.StopMS, left)
}

// preStopMS is how long the named container's preStop hook runs.
func preStopMS(p *api.Pod, name string) int64 {
	for _, cs := range [2][]api.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			if cs[i].Name == name {
				return cs[i].PreStopMS()
			}
		}
	}
	return 0
}

// gracePeriodMS is the pod's termination grace period.
func gracePeriodMS(p *api.Pod) int64 {
	if g := p.Spec.TerminationGracePeriodSeconds; g != nil {
		return *g * 1000
	}
	return api.DefaultTerminationGraceSec * 1000
}
