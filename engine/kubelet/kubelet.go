package kubelet

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in Event sources.
const Name = "kubelet"

// Kubelet is the kubelet of one node.
type Kubelet struct {
	node      string
	hostIP    string
	ipPrefix  string
	nextIP    int
	cache     *informer.Cache
	images    map[string]bool
	pods      map[api.Key]*podRuntime
	behaviors Behaviors
	// pullFailures are images whose pulls fail from now on (fail-image).
	pullFailures map[string]string
	// health is what a scenario fault made of this kubelet: "Ready",
	// "NotReady" (running, reporting Ready=False) or "Unreachable" (gone:
	// it neither reports nor acts).
	health string
}

// New returns the kubelet of node, whose pods get addresses from podCIDR
// (an "a.b.c.0/24" network) and whose images behave as behaviors says.
func New(node, hostIP, podCIDR string, behaviors Behaviors) *Kubelet {
	prefix := strings.TrimSuffix(podCIDR, "0/24")
	return &Kubelet{node: node, hostIP: hostIP, ipPrefix: prefix, nextIP: 2, cache: informer.New(),
		images: map[string]bool{}, pods: map[api.Key]*podRuntime{}, behaviors: behaviors, health: "Ready"}
}

// Name implements reconcile.Component.
func (k *Kubelet) Name() string { return Name }

// Host implements reconcile.Component.
func (k *Kubelet) Host() string { return k.node }

// Watches implements reconcile.Component; the engine routes each kubelet
// only the pods bound to its node, and its own Node.
func (k *Kubelet) Watches() []string { return []string{api.KindPod, api.KindNode} }

// Health is "Ready", "NotReady" or "Unreachable".
func (k *Kubelet) Health() string { return k.health }

// SetHealth applies a fault (or its end) and returns the keys the kubelet
// must sync: its Node, to report the new condition, and, when it comes
// back, every pod it knows (a relist).
func (k *Kubelet) SetHealth(h string) []api.Key {
	was := k.health
	k.health = h
	keys := []api.Key{{Kind: api.KindNode, Name: k.node}}
	if was != "Ready" && h == "Ready" {
		// A kubelet coming back reconciles every pod's status with the API
		// server's, which others (the node lifecycle controller) changed.
		for _, rt := range k.pods {
			rt.status = nil
		}
		for _, o := range k.cache.List(api.KindPod, "") {
			keys = append(keys, api.KeyOf(o))
		}
	}
	return keys
}

// Cache exposes the kubelet's view.
func (k *Kubelet) Cache() *informer.Cache { return k.cache }

// Clone implements reconcile.Component.
func (k *Kubelet) Clone() reconcile.Component {
	c := *k
	c.cache = k.cache.Clone()
	c.pullFailures = make(map[string]string, len(k.pullFailures))
	for i, m := range k.pullFailures {
		c.pullFailures[i] = m
	}
	c.images = make(map[string]bool, len(k.images))
	for i := range k.images {
		c.images[i] = true
	}
	c.pods = make(map[api.Key]*podRuntime, len(k.pods))
	for key, rt := range k.pods {
		c.pods[key] = rt.clone()
	}
	return &c
}

// Observe caches the pod and queues it for its pod worker. A change of
// status alone (usually the kubelet's own report coming back) does not
// wake the worker, as the kubelet's pod config ignores status changes.
func (k *Kubelet) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	k.cache.Apply(ev)
	if ev.Object.GetKind() == api.KindNode || k.health != "Ready" {
		return
	}
	if ev.Type == apiserver.Modified {
		old, cur := ev.Old.(*api.Pod), ev.Object.(*api.Pod)
		if reflect.DeepEqual(old.Spec, cur.Spec) && reflect.DeepEqual(old.DeletionTimestamp, cur.DeletionTimestamp) &&
			reflect.DeepEqual(old.Labels, cur.Labels) && reflect.DeepEqual(old.Annotations, cur.Annotations) {
			return
		}
	}
	q.Add(ev.Key())
}

// worker carries one pod sync's context and its notes.
type worker struct {
	ctx   reconcile.Context
	pod   *api.Pod
	now   int64
	notes []string
}

func (w *worker) note(format string, args ...any) {
	w.notes = append(w.notes, fmt.Sprintf(format, args...))
}

func (w *worker) event(c *container, typ, reason, msg string) {
	field := ""
	if c != nil {
		field = "spec.containers{" + c.name + "}"
	}
	w.ctx.Event(w.pod, field, typ, reason, msg)
}

// Reconcile is one pod worker sync (kubelet.go SyncPod / SyncTerminatingPod).
func (k *Kubelet) Reconcile(ctx reconcile.Context, key api.Key) (reconcile.Result, error) {
	if key.Kind == api.KindNode {
		return reconcile.Result{}, k.reportNode(ctx)
	}
	if k.health != "Ready" {
		ctx.Explain("kubelet on %s is %s: pod/%s is not synced", k.node, strings.ToLower(k.health), key.Name)
		return reconcile.Result{}, nil
	}
	o, ok := k.cache.Get(key)
	rt := k.pods[key]
	if !ok {
		if rt != nil {
			delete(k.pods, key)
		}
		ctx.Explain("pod/%s is gone from the API; runtime cleaned up", key.Name)
		return reconcile.Result{}, nil
	}
	p := o.(*api.Pod)
	ctx.Read(p)
	if rt != nil && rt.uid != p.UID {
		rt = nil
	}
	w := &worker{ctx: ctx, pod: p, now: ctx.Now()}
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
	if len(w.notes) == 0 {
		w.note("nothing changed")
	}
	ctx.Explain("pod/%s: %s", p.Name, strings.Join(w.notes, "; "))
	if next > w.now {
		return reconcile.Result{RequeueAfter: next - w.now}, err
	}
	return reconcile.Result{}, err
}

// admit starts the pod's sandbox and gives it an IP address.
func (k *Kubelet) admit(w *worker, p *api.Pod) *podRuntime {
	rt := &podRuntime{uid: p.UID, startTime: w.now, ip: fmt.Sprintf("%s%d", k.ipPrefix, k.nextIP)}
	k.nextIP++
	if k.nextIP > 254 {
		k.nextIP = 2
	}
	for _, c := range p.Spec.Containers {
		rt.containers = append(rt.containers, &container{name: c.Name, image: c.Image})
	}
	k.pods[api.KeyOf(p)] = rt
	w.note("admitted; sandbox up with IP %s", rt.ip)
	return rt
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
	blocked := false
	for i, c := range rt.containers {
		spec := &p.Spec.Containers[i]
		b := k.behaviors.For(c.image)
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
			if c.due > w.now || !k.finishPull(w, c, b) {
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
			if !k.restart(w, p, c) {
				return
			}
		}
	}
}

// beginPull checks the image and starts a pull when one is needed. It
// reports whether the container moved on.
func (k *Kubelet) beginPull(w *worker, c *container, spec *api.Container, b Behavior) bool {
	if c.pullRetryAt > w.now {
		if c.waiting == "ErrImagePull" && c.due <= w.now {
			c.waiting = "ImagePullBackOff"
			c.waitingMsg = fmt.Sprintf("Back-off pulling image %q", c.image)
			w.event(c, api.EventNormal, "BackOff", c.waitingMsg)
			w.event(c, api.EventWarning, "Failed", "Error: ImagePullBackOff")
			w.note("%s in ImagePullBackOff until %s", c.image, trace.FormatTime(c.pullRetryAt))
		}
		return false
	}
	if k.images[c.image] && spec.ImagePullPolicy != "Always" {
		w.event(c, api.EventNormal, "Pulled", fmt.Sprintf("Container image %q already present on machine", c.image))
		w.note("image %s already present", c.image)
		k.create(w, c, b)
		return true
	}
	if spec.ImagePullPolicy == "Never" {
		c.waiting, c.waitingMsg = "ErrImageNeverPull", fmt.Sprintf("Container image %q is not present with pull policy of Never", c.image)
		w.event(c, api.EventWarning, "ErrImageNeverPull", c.waitingMsg)
		c.pullRetryAt = 0
		return false
	}
	w.event(c, api.EventNormal, "Pulling", fmt.Sprintf("Pulling image %q", c.image))
	c.stage, c.due = stagePulling, w.now+b.PullMS
	w.note("pulling %s (%s)", c.image, trace.FormatTime(b.PullMS))
	return true
}

// FailImage makes every later pull of image fail with msg.
func (k *Kubelet) FailImage(image, msg string) {
	if k.pullFailures == nil {
		k.pullFailures = map[string]string{}
	}
	k.pullFailures[image] = msg
}

// Kill makes the containers of a pod on this node exit at once with exit
// code 137, as when the OOM killer or an operator kills the process. It
// returns false if the kubelet runs no such pod.
func (k *Kubelet) Kill(pod api.Key, now int64) bool {
	rt, ok := k.pods[pod]
	if !ok {
		return false
	}
	killed := false
	for _, c := range rt.containers {
		if c.stage == stageRunning {
			c.term = &api.ContainerStateTerminated{ExitCode: 137, Reason: "Error", StartedAt: api.At(c.startedAt), FinishedAt: api.At(now), ContainerID: "containerd://" + c.id}
			c.stage, c.ready, c.finishedAt = stageExited, false, now
			killed = true
		}
	}
	return killed
}

// finishPull completes (or fails) a pull.
func (k *Kubelet) finishPull(w *worker, c *container, b Behavior) bool {
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
		w.note("pull of %s failed: %s; retry in %s", c.image, b.PullError, trace.FormatTime(c.pullBackoff))
		return false
	}
	k.images[c.image] = true
	w.event(c, api.EventNormal, "Pulled", fmt.Sprintf("Successfully pulled image %q in %s (%s including waiting). Image size: %d bytes.",
		c.image, goDuration(b.PullMS), goDuration(b.PullMS), b.SizeBytes))
	w.note("pulled %s", c.image)
	k.create(w, c, b)
	return true
}

func nextBackoff(cur int64) int64 {
	if cur == 0 {
		return backOffInitialMS
	}
	return min(2*cur, backOffMaxMS)
}

// create creates the container; it runs once StartMS has passed.
func (k *Kubelet) create(w *worker, c *container, b Behavior) {
	c.id = fmt.Sprintf("%016x%016x%016x%016x", w.ctx.Rand().Uint64(), w.ctx.Rand().Uint64(), w.ctx.Rand().Uint64(), w.ctx.Rand().Uint64())
	w.event(c, api.EventNormal, "Created", "Created container: "+c.name)
	w.note("created container %s (starts in %s)", c.name, trace.FormatTime(b.StartMS))
	c.stage, c.due, c.waiting, c.waitingMsg, c.pullRetryAt = stageStarting, w.now+b.StartMS, "", "", 0
}

// started marks the container running and works out when its readiness
// probe first succeeds and when it exits on its own.
func (k *Kubelet) started(w *worker, p *api.Pod, c *container, spec *api.Container, b Behavior) {
	c.stage, c.startedAt, c.ready, c.term = stageRunning, c.due, false, nil
	w.event(c, api.EventNormal, "Started", "Started container "+c.name)
	c.probesFrom = c.startedAt
	if spec.StartupProbe != nil {
		// The startup probe hits the app's liveness endpoint; readiness and
		// liveness probing begin once it has passed.
		if _, passed := probeState(c.startedAt, spec.StartupProbe, false, livenessAnswer(c.startedAt, b), c.startedAt-1); passed >= 0 {
			c.probesFrom = passed
		}
	}
	if b.ExitAfterMS > 0 {
		c.exitAt = c.startedAt + b.ExitAfterMS
	} else {
		c.exitAt = 0
	}
	c.ready = k.readiness(c, spec, b, w.now)
	if c.ready {
		w.note("started %s; ready", c.name)
	} else if _, next := k.readinessNext(c, spec, b, w.now); next >= 0 {
		w.note("started %s; readiness probe passes at %s", c.name, trace.FormatTime(next))
	} else {
		w.note("started %s; its readiness probe never passes", c.name)
	}
}

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
	return probeStateAt(&c.readyCur, c.probesFrom, c.startedAt, spec.ReadinessProbe, false, readinessAnswer(c.startedAt, b), t)
}

// liveness is the liveness verdict at t and when it next changes.
func (k *Kubelet) liveness(c *container, spec *api.Container, b Behavior, t int64) (bool, int64) {
	if spec.LivenessProbe == nil || t < c.probesFrom {
		if spec.LivenessProbe == nil {
			return true, -1
		}
		return true, c.probesFrom
	}
	return probeStateAt(&c.liveCur, c.probesFrom, c.startedAt, spec.LivenessProbe, true, livenessAnswer(c.startedAt, b), t)
}

// probeWakes are the times the probes' verdicts next change.
func (k *Kubelet) probeWakes(c *container, spec *api.Container, b Behavior, now int64) []int64 {
	_, r := k.readinessNext(c, spec, b, now)
	_, l := k.liveness(c, spec, b, now)
	return []int64{r, l}
}

// probe applies the probes' verdicts at w.now: readiness changes, and a
// failed liveness probe kills the container (it reports whether it did).
func (k *Kubelet) probe(w *worker, p *api.Pod, rt *podRuntime, c *container, spec *api.Container, b Behavior) bool {
	if alive, _ := k.liveness(c, spec, b, w.now); !alive {
		w.event(c, api.EventWarning, "Unhealthy", probeFailure("Liveness", spec.LivenessProbe, rt.ip))
		w.event(c, api.EventNormal, "Killing", fmt.Sprintf("Container %s failed liveness probe, will be restarted", c.name))
		c.term = &api.ContainerStateTerminated{ExitCode: 137, Reason: "Error", StartedAt: api.At(c.startedAt), FinishedAt: api.At(w.now), ContainerID: "containerd://" + c.id}
		c.stage, c.ready, c.finishedAt = stageExited, false, w.now
		w.note("%s failed its liveness probe: killed", c.name)
		return true
	}
	ready := k.readiness(c, spec, b, w.now)
	switch {
	case ready && !c.ready:
		w.note("readiness probe of %s succeeded", c.name)
	case !ready && c.ready:
		w.event(c, api.EventWarning, "Unhealthy", probeFailure("Readiness", spec.ReadinessProbe, rt.ip))
		w.note("readiness probe of %s failed %d times: not ready", c.name, spec.ReadinessProbe.FailureThreshold)
	}
	c.ready = ready
	return false
}

// exited records the app exiting on its own.
func (k *Kubelet) exited(w *worker, c *container, b Behavior) {
	reason := "Completed"
	if b.ExitCode != 0 {
		reason = "Error"
	}
	c.term = &api.ContainerStateTerminated{ExitCode: b.ExitCode, Reason: reason, StartedAt: api.At(c.startedAt),
		FinishedAt: api.At(c.exitAt), ContainerID: "containerd://" + c.id}
	c.stage, c.ready, c.finishedAt = stageExited, false, c.exitAt
	w.note("%s exited with code %d", c.name, b.ExitCode)
}

// restart applies the crash-loop backoff: the first restart is immediate,
// later ones wait 10 s doubling to 5 min (kuberuntime_manager.go doBackOff).
func (k *Kubelet) restart(w *worker, p *api.Pod, c *container) bool {
	t := c.term
	if t == nil {
		t = c.lastTerm
	}
	if t == nil || p.Spec.RestartPolicy == "Never" || p.Spec.RestartPolicy == "OnFailure" && t.ExitCode == 0 {
		return false
	}
	expired := c.finishedAt-c.backoffAt > backOffResetMS
	if c.backoffAt > 0 && !expired && w.now-c.finishedAt < c.backoffMS {
		if c.waiting != "CrashLoopBackOff" {
			c.lastTerm, c.term = t, nil
			c.waiting = "CrashLoopBackOff"
			c.waitingMsg = fmt.Sprintf("back-off %s restarting failed container=%s pod=%s_%s(%s)", goDuration(c.backoffMS), c.name, p.Name, p.Namespace, p.UID)
			w.event(c, api.EventWarning, "BackOff", fmt.Sprintf("Back-off restarting failed container %s in pod %s_%s(%s)", c.name, p.Name, p.Namespace, p.UID))
			w.note("%s in CrashLoopBackOff for %s", c.name, goDuration(c.backoffMS))
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
	w.note("restarting %s (restart %d)", c.name, c.restarts)
	return true
}

// report writes the pod status when it changed.
func (k *Kubelet) report(w *worker, p *api.Pod, rt *podRuntime) error {
	st := k.generateStatus(p, rt, w.now)
	base := rt.status
	if base == nil {
		base = &p.Status
	}
	if reflect.DeepEqual(*base, st) {
		return nil
	}
	cp := *p // the store keeps only the status of a status patch
	cp.Status = st
	if _, err := w.ctx.PatchStatus(trace.Realize, &cp, statusSummary(p, &st)); err != nil {
		return err
	}
	rt.status = &st
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
		for i, c := range rt.containers {
			if c.stage == stageRunning || c.stage == stageStarting {
				w.event(c, api.EventNormal, "Killing", "Stopping container "+c.name)
				rt.stopAt = max(rt.stopAt, w.now+min(k.behaviors.For(rt.containers[i].image).StopMS, grace))
			}
		}
		w.note("stopping containers (grace period %ds)", grace/1000)
		if rt.stopAt > w.now {
			return rt.stopAt, nil
		}
	}
	if w.now < rt.stopAt {
		return rt.stopAt, nil
	}
	for _, c := range rt.containers {
		if c.stage == stageRunning || c.stage == stageStarting {
			c.term = &api.ContainerStateTerminated{ExitCode: 0, Reason: "Completed", StartedAt: api.At(c.startedAt), FinishedAt: api.At(w.now), ContainerID: "containerd://" + c.id}
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
	err := w.ctx.Delete(trace.Realize, key, apiserver.DeleteOptions{GracePeriodSeconds: api.Int64(0), UID: p.UID},
		fmt.Sprintf("kubelet confirmed deletion of pod/%s (%s)", p.Name, why))
	if err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
		return err
	}
	delete(k.pods, key)
	w.note("%s; deletion confirmed", why)
	return nil
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

// nodeConditions are the conditions a kubelet posts about its node
// (kubelet_node_status.go), in the order kubectl describe shows them.
func nodeConditions(health string) []api.NodeCondition {
	ready := api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"}
	if health == "NotReady" {
		ready = api.NodeCondition{Type: api.NodeReady, Status: api.ConditionFalse, Reason: "KubeletNotReady", Message: "container runtime is down"}
	}
	return []api.NodeCondition{
		{Type: api.NodeMemoryPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientMemory", Message: "kubelet has sufficient memory available"},
		{Type: api.NodeDiskPressure, Status: api.ConditionFalse, Reason: "KubeletHasNoDiskPressure", Message: "kubelet has no disk pressure"},
		{Type: api.NodePIDPressure, Status: api.ConditionFalse, Reason: "KubeletHasSufficientPID", Message: "kubelet has sufficient PID available"},
		ready,
	}
}

// reportNode posts the node's conditions as this kubelet sees them. An
// unreachable kubelet posts nothing.
func (k *Kubelet) reportNode(ctx reconcile.Context) error {
	if k.health == "Unreachable" {
		ctx.Explain("kubelet on %s is unreachable: it posts no status and renews no lease", k.node)
		return nil
	}
	live, ok := ctx.LiveGet(api.Key{Kind: api.KindNode, Name: k.node})
	if !ok {
		return nil
	}
	n := live.(*api.Node).DeepCopy()
	now := api.At(ctx.Now())
	conds := nodeConditions(k.health)
	for i := range conds {
		conds[i].LastHeartbeatTime, conds[i].LastTransitionTime = now, now
		if old := n.Status.Condition(conds[i].Type); old != nil && old.Status == conds[i].Status {
			conds[i].LastTransitionTime = old.LastTransitionTime
		}
	}
	n.Status.Conditions = conds
	ready := conds[len(conds)-1]
	if _, err := ctx.PatchStatus(trace.Realize, n, fmt.Sprintf("node/%s status: Ready=%s (%s)", k.node, ready.Status, ready.Reason)); err != nil {
		return err
	}
	ctx.Explain("kubelet on %s posted node status: Ready=%s (%s)", k.node, ready.Status, ready.Reason)
	return nil
}
