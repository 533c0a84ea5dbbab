package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// LastChange returns the last tick that changed the API server (a tick
// with at least one effect: a write or an Event) and its virtual time; 0
// and 0 before any. It is when the cluster settled: ticks after it, such
// as the deployment controller's progress-deadline re-check, read and
// change nothing. It follows Seek, StepBack and Act like the rest of the
// state (checkpoints hold it).
func (e *Engine) LastChange() (tick int, timeMS int64) {
	return e.w.lastChange, e.w.lastChangeAt
}

// LaterWork describes, in a learner's words, the last tick taken after
// the last change (see LastChange) and gives its time: the work that
// made the run go on although nothing changed any more, such as "the
// deployment controller's progress-deadline re-check of deploy/web". It
// reports false when the last tick taken is the last change.
func (e *Engine) LaterWork() (what string, atMS int64, ok bool) {
	if len(e.trace) == 0 {
		return "", 0, false
	}
	t := e.trace[len(e.trace)-1]
	if t.Seq <= e.w.lastChange || len(t.Effects) > 0 {
		return "", 0, false
	}
	return e.describeNoOp(t), t.Time, true
}

// describeNoOp names a tick that changed nothing. A tick later than the
// last change by more than its component's watch latency was not woken by
// a watch event of a change: a timer the component set woke it.
func (e *Engine) describeNoOp(t *trace.Tick) string {
	latency := int64(0)
	for i, c := range e.w.comps {
		if c.Name() == t.Component && c.Host() == t.Host {
			latency = e.w.latency[i]
			break
		}
	}
	obj := t.Object.Short()
	if t.Time <= e.w.lastChangeAt+latency {
		return fmt.Sprintf("%s looking at %s once more", componentWords(t.Component, t.Host), obj)
	}
	switch t.Component {
	case DeploymentController:
		return "the deployment controller's progress-deadline re-check of " + obj
	case ReplicaSetController:
		return "the replicaset controller's minReadySeconds re-check of " + obj
	case Scheduler:
		return "the scheduler's retry of " + obj
	case Kubelet:
		return fmt.Sprintf("%s re-checking %s", componentWords(t.Component, t.Host), obj)
	case NodeLifecycleController:
		return "the node lifecycle controller's health check of " + obj
	}
	return fmt.Sprintf("%s re-checking %s", componentWords(t.Component, t.Host), obj)
}

// componentWords is a component as a learner reads it: "the deployment
// controller", "the kubelet on node-2".
func componentWords(name, host string) string {
	if host != "" {
		return "the " + name + " on " + host
	}
	return "the " + strings.ReplaceAll(name, "-", " ")
}

// Seconds formats virtual milliseconds for a sentence: "10.650 s".
func Seconds(ms int64) string {
	return strings.TrimSuffix(trace.FormatTime(ms), "s") + " s"
}

// Busy says in a learner's words what keeps the cluster from settling,
// derived from the work still scheduled and the objects it is for:
//
//	Never settles: pod web-7d9c-x crashes and restarts (CrashLoopBackOff, back-off 5m0s, 16 restarts)
//	Never settles: 2 pods cannot be scheduled (0/3 nodes are available: 3 Insufficient cpu) and the scheduler retries them
//	Never settles: pod web-fddbd9fd-4b7q2 cannot pull example/web:v2 (ImagePullBackOff)
//
// It names the most important cause (a crash loop, then an image that
// cannot be pulled, then pods that fit no node, then flapping readiness)
// with its first pod by name, and counts the rest. While scenario actions
// are still to come it says "Not settled yet:" instead, since an action
// may end the cause. It returns "" when the cluster is settled or the
// work still scheduled is none of these (a rollout that is still going).
func (e *Engine) Busy() string {
	w := e.w
	if w.agenda.Len() == 0 && !e.injectedDue() {
		return ""
	}
	groups := map[cause][]*api.Pod{}
	seen := map[api.Key]bool{}
	for _, m := range []map[workKey]pendingEntry{w.pending, w.waiting} {
		for wk := range m {
			if wk.key.Kind != api.KindPod || seen[wk.key] {
				continue
			}
			comp := w.comps[wk.comp]
			isKubelet, isScheduler := comp.Host() != "", comp.Name() == Scheduler
			if !isKubelet && !isScheduler {
				continue
			}
			o, ok := w.store.Get(wk.key)
			if !ok {
				continue
			}
			p := o.(*api.Pod)
			if p.DeletionTimestamp != nil {
				continue
			}
			c := none
			if isKubelet {
				c = e.kubeletCause(p)
			} else if unschedulable(p) != nil {
				c = noFit
			}
			if c != none {
				seen[wk.key] = true
				groups[c] = append(groups[c], p)
			}
		}
	}
	next, hasNext := e.nextAction()
	if len(groups) == 0 {
		if hasNext {
			a := e.cfg.Actions[next]
			return fmt.Sprintf("Not settled yet: a scenario action (%s on %s) is due at %s", a.Component, a.Object.Short(), Seconds(a.At))
		}
		if clock := e.clockWork(); clock != "" {
			return "Never settles: " + clock
		}
		if refused := e.refusedCreates(); refused != "" {
			return "Never settles: " + refused
		}
		return ""
	}
	var parts []string
	for _, c := range []cause{crash, pull, config, noFit, flap} {
		ps := groups[c]
		if len(ps) == 0 {
			continue
		}
		slices.SortFunc(ps, func(a, b *api.Pod) int { return strings.Compare(api.KeyOf(a).String(), api.KeyOf(b).String()) })
		if len(parts) == 0 {
			parts = append(parts, e.firstCause(c, ps))
		} else {
			parts = append(parts, "also "+countCause(c, len(ps)))
		}
	}
	lead := "Never settles: "
	tail := ""
	if hasNext {
		lead = "Not settled yet: "
		tail = fmt.Sprintf("; a scenario action is still due at %s", Seconds(e.cfg.Actions[next].At))
	}
	return lead + strings.Join(parts, "; ") + tail
}

// clockWork names the work that comes back on a clock for ever, as in a
// real cluster: an HPA's re-sync every 15 s (with the metrics-server's
// scrapes), a CronJob's schedule, a command that keeps retrying (a
// kubectl drain a PodDisruptionBudget blocks). "" when there is none.
func (e *Engine) clockWork() string {
	var hpas, cjs []string
	for _, o := range e.w.store.List(api.KindHorizontalPodAutoscaler, "") {
		hpas = append(hpas, "hpa/"+o.Meta().Name)
	}
	for _, o := range e.w.store.List(api.KindCronJob, "") {
		if cj := o.(*api.CronJob); !cj.Suspended() {
			cjs = append(cjs, fmt.Sprintf("cj/%s (%s)", cj.Name, cj.Spec.Schedule))
		}
	}
	var parts []string
	if len(hpas) > 0 {
		parts = append(parts, fmt.Sprintf("the horizontal-pod-autoscaler re-syncs %s every 15 s, and the metrics-server scrapes the kubelets for it", strings.Join(hpas, ", ")))
	}
	if len(cjs) > 0 {
		parts = append(parts, "the cronjob-controller starts Jobs on the schedule of "+strings.Join(cjs, ", "))
	}
	parts = append(parts, e.clientsWaiting()...)
	return strings.Join(parts, "; ")
}

// refusedCreates names the first ReplicaSet whose pods the API server
// refuses (its ReplicaFailure condition, FailedCreate: a missing
// PriorityClass, a quota), which its controller retries with a back-off
// that grows to 1000 s. "" when there is none.
func (e *Engine) refusedCreates() string {
	for _, o := range e.w.store.List(api.KindReplicaSet, "") {
		rs := o.(*api.ReplicaSet)
		if c := rs.Status.Condition(api.ReplicaSetReplicaFailure); c != nil && c.Status == api.ConditionTrue && rs.Status.Replicas < rs.Replicas() {
			return fmt.Sprintf("rs/%s cannot create its pods (%s: %s) and the replicaset-controller retries with a growing back-off", rs.Name, c.Reason, c.Message)
		}
	}
	return ""
}

// injectedDue reports whether a console action waits to be replayed.
func (e *Engine) injectedDue() bool {
	for _, in := range e.injected {
		if in.after >= e.w.ticks {
			return true
		}
	}
	return false
}

// nextAction is the index of the earliest scenario action not yet taken.
func (e *Engine) nextAction() (int, bool) {
	best := -1
	for i, a := range e.cfg.Actions {
		if a.At > e.w.now && (best < 0 || a.At < e.cfg.Actions[best].At) {
			best = i
		}
	}
	return best, best >= 0
}

// cause is why a pod keeps the cluster busy for ever.
type cause int

const (
	none   cause = iota
	crash        // its container exits and is restarted with back-off
	pull         // its image cannot be pulled
	noFit        // it fits no node and the scheduler retries it
	flap         // its readiness flaps
	config       // a ConfigMap or Secret it reads or mounts is missing
)

// kubeletCause is why a pod's kubelet keeps coming back to it.
func (e *Engine) kubeletCause(p *api.Pod) cause {
	for _, list := range allStatuses(p) {
		if c := statusCause(p, list); c != none {
			return c
		}
	}
	for i := range p.Spec.Containers {
		c := &p.Spec.Containers[i]
		if c.ReadinessProbe == nil {
			continue
		}
		if b := e.cfg.Images.Of(p.Spec, c); b.FlapUpMS > 0 && b.FlapDownMS > 0 {
			return flap
		}
	}
	return none
}

// statusCause is the cause the statuses of p's containers (or init
// containers) show.
func statusCause(p *api.Pod, statuses []api.ContainerStatus) cause {
	for _, cs := range statuses {
		if wt := cs.State.Waiting; wt != nil {
			switch wt.Reason {
			case "CrashLoopBackOff":
				return crash
			case "ErrImagePull", "ImagePullBackOff":
				return pull
			case "CreateContainerConfigError":
				return config
			case "ContainerCreating", "PodInitializing":
				if c := p.Status.Condition(api.PodReadyToStartContainers); p.Spec.NodeName != "" && c != nil && c.Status == api.ConditionFalse {
					return config // no sandbox: its volumes are not mounted
				}
			}
		}
		if cs.RestartCount > 0 && cs.LastTerminationState.Terminated != nil && !cs.Ready {
			return crash
		}
	}
	return none
}

// allStatuses are the pod's init container and container statuses.
func allStatuses(p *api.Pod) [2][]api.ContainerStatus {
	return [2][]api.ContainerStatus{p.Status.InitContainerStatuses, p.Status.ContainerStatuses}
}

// unschedulable is the pod's PodScheduled=False condition, if it has not
// been bound because it fits no node.
func unschedulable(p *api.Pod) *api.PodCondition {
	if p.Spec.NodeName != "" {
		return nil
	}
	if c := p.Status.Condition(api.PodScheduled); c != nil && c.Status == api.ConditionFalse && c.Reason == "Unschedulable" {
		return c
	}
	return nil
}

// firstCause is the sentence for the first pod of a cause, with a count
// of the others.
func (e *Engine) firstCause(c cause, ps []*api.Pod) string {
	p := ps[0]
	more, ofMore := "", ""
	if n := len(ps) - 1; n > 0 {
		more, ofMore = ", like "+plural(n, "more pod"), ", like that of "+plural(n, "more pod")
	}
	switch c {
	case crash:
		return fmt.Sprintf("pod %s crashes and restarts (%s)%s%s", p.Name, crashDetail(p), more, e.stuckRollout(p))
	case pull:
		image, reason := pullDetail(p)
		return fmt.Sprintf("pod %s cannot pull %s (%s)%s%s", p.Name, image, reason, more, e.stuckRollout(p))
	case noFit:
		msg := schedulingMessage(unschedulable(p).Message)
		if len(ps) == 1 {
			return fmt.Sprintf("pod %s cannot be scheduled (%s) and the scheduler retries it", p.Name, msg)
		}
		return fmt.Sprintf("%d pods cannot be scheduled (%s) and the scheduler retries them", len(ps), msg)
	case flap:
		return fmt.Sprintf("the readiness of pod %s flaps (its app passes its readiness probe, then fails it, over and over)%s", p.Name, ofMore)
	case config:
		return fmt.Sprintf("pod %s waits for a ConfigMap or Secret (%s)%s%s", p.Name, configDetail(p), more, e.stuckRollout(p))
	}
	return ""
}

// configDetail is what keeps a pod from starting its containers: the
// kubelet's message for an env reference, or FailedMount for a volume.
func configDetail(p *api.Pod) string {
	for _, cs := range p.Status.ContainerStatuses {
		if wt := cs.State.Waiting; wt != nil && wt.Reason == "CreateContainerConfigError" {
			return "CreateContainerConfigError: " + wt.Message
		}
	}
	return "FailedMount: a volume of it cannot be set up"
}

// countCause is a short phrase for the pods of a further cause.
func countCause(c cause, n int) string {
	switch c {
	case crash:
		if n == 1 {
			return "1 pod crashes and restarts"
		}
		return fmt.Sprintf("%d pods crash and restart", n)
	case pull:
		if n == 1 {
			return "1 pod cannot pull its image"
		}
		return fmt.Sprintf("%d pods cannot pull their images", n)
	case noFit:
		if n == 1 {
			return "1 pod cannot be scheduled"
		}
		return fmt.Sprintf("%d pods cannot be scheduled", n)
	case config:
		if n == 1 {
			return "1 pod waits for a ConfigMap or Secret"
		}
		return fmt.Sprintf("%d pods wait for ConfigMaps or Secrets", n)
	}
	if n == 1 {
		return "the readiness of 1 pod flaps"
	}
	return fmt.Sprintf("the readiness of %d pods flaps", n)
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}

// crashDetail is "CrashLoopBackOff, back-off 5m0s, 16 restarts", or while
// the container runs between crashes "exit code 1, 3 restarts".
func crashDetail(p *api.Pod) string {
	for _, list := range allStatuses(p) {
		for _, cs := range list {
			if wt := cs.State.Waiting; wt != nil && wt.Reason == "CrashLoopBackOff" {
				restarts := plural(int(cs.RestartCount), "restart")
				if rest, ok := strings.CutPrefix(wt.Message, "back-off "); ok {
					d, _, _ := strings.Cut(rest, " ")
					return fmt.Sprintf("CrashLoopBackOff, back-off %s, %s", d, restarts)
				}
				return "CrashLoopBackOff, " + restarts
			}
		}
	}
	// Between crashes: the last failure of a container still not ready
	// (an init container that failed once and then succeeded is ready).
	for _, list := range allStatuses(p) {
		for _, cs := range list {
			if t := cs.LastTerminationState.Terminated; t != nil && cs.RestartCount > 0 && !cs.Ready {
				return fmt.Sprintf("exit code %d, %s", t.ExitCode, plural(int(cs.RestartCount), "restart"))
			}
		}
	}
	return "CrashLoopBackOff"
}

// pullDetail is the image a pod cannot pull and the waiting reason.
func pullDetail(p *api.Pod) (image, reason string) {
	for _, list := range allStatuses(p) {
		for _, cs := range list {
			if wt := cs.State.Waiting; wt != nil && (wt.Reason == "ErrImagePull" || wt.Reason == "ImagePullBackOff") {
				return cs.Image, wt.Reason
			}
		}
	}
	return "its image", "ImagePullBackOff"
}

// schedulingMessage keeps the scheduler's verdict of a FailedScheduling
// message, "0/3 nodes are available: 3 Insufficient cpu", without the
// preemption notes after it.
func schedulingMessage(msg string) string {
	head, rest, ok := strings.Cut(msg, ": ")
	if !ok {
		return strings.TrimSuffix(msg, ".")
	}
	verdict, _, _ := strings.Cut(rest, ". ")
	return head + ": " + strings.TrimSuffix(verdict, ".")
}

// stuckRollout adds, when the pod's Deployment gave up on its rollout,
// "; deploy/web's rollout stopped at its progress deadline
// (ProgressDeadlineExceeded)".
func (e *Engine) stuckRollout(p *api.Pod) string {
	ref := p.ControllerRef()
	if ref == nil || ref.Kind != api.KindReplicaSet {
		return ""
	}
	rs, ok := e.w.store.Get(api.Key{Kind: api.KindReplicaSet, Namespace: p.Namespace, Name: ref.Name})
	if !ok {
		return ""
	}
	dref := rs.Meta().ControllerRef()
	if dref == nil || dref.Kind != api.KindDeployment {
		return ""
	}
	o, ok := e.w.store.Get(api.Key{Kind: api.KindDeployment, Namespace: p.Namespace, Name: dref.Name})
	if !ok {
		return ""
	}
	d := o.(*api.Deployment)
	if c := d.Status.Condition(api.DeploymentProgressing); c != nil && c.Status == api.ConditionFalse && c.Reason == "ProgressDeadlineExceeded" {
		return fmt.Sprintf("; deploy/%s's rollout stopped at its progress deadline (ProgressDeadlineExceeded)", d.Name)
	}
	return ""
}
