package kubelet

import (
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// generateStatus computes the pod status from the runtime
// (kubelet_pods.go generateAPIPodStatus, status/generate.go). Its
// conditions are in the kubelet's room (Kubelet.conds): good until the
// next report, which is all a status write needs.
func (k *Kubelet) generateStatus(p *api.Pod, rt *podRuntime, now int64) api.PodStatus {
	st := api.PodStatus{HostIP: k.hostIP, PodIP: rt.ip, QOSClass: p.Status.QOSClass}
	if rt.start == nil {
		t := api.At(rt.startTime)
		rt.start = &t
	}
	st.StartTime = rt.start
	hasInits := rt.inits > 0
	if hasInits {
		st.InitContainerStatuses = make([]api.ContainerStatus, 0, rt.inits)
		for _, c := range rt.containers[:rt.inits] {
			st.InitContainerStatuses = append(st.InitContainerStatuses, k.texts.containerStatus(c, true, now))
		}
	}
	if regular := rt.regular(); len(regular) > 0 {
		st.ContainerStatuses = make([]api.ContainerStatus, 0, len(regular))
		for _, c := range regular {
			st.ContainerStatuses = append(st.ContainerStatuses, k.texts.containerStatus(c, hasInits, now))
		}
	}
	st.Phase = getPhase(p, &st, rt.killing && allStopped(rt), anyRegularActive(rt))
	prev := rt.status
	if prev == nil {
		prev = &p.Status
	}
	// The kubelet sets five conditions and keeps the others, in its room
	// (Kubelet.conds): the store copies the list it keeps.
	st.Conditions = k.conds[:0]
	defer func() { k.conds = st.Conditions[:0] }()
	for _, c := range p.Status.Conditions {
		if !kubeletOwned(c.Type) {
			st.Conditions = append(st.Conditions, c)
		}
	}
	set := func(c api.PodCondition) {
		if old := prev.Condition(c.Type); old != nil && old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		} else {
			c.LastTransitionTime = api.At(now)
		}
		st.Conditions = append(st.Conditions, c)
	}
	set(api.PodCondition{Type: api.PodReadyToStartContainers, Status: cond(rt.ip != "" && !(rt.killing && allStopped(rt)))})
	set(initialized(k.texts, p, &st))
	cr := containersReady(k.texts, p, &st)
	r := cr
	r.Type = api.PodReady
	set(r)
	set(cr)
	sched := api.PodCondition{Type: api.PodScheduled, Status: api.ConditionTrue}
	if old := p.Status.Condition(api.PodScheduled); old != nil {
		sched.LastTransitionTime = old.LastTransitionTime
	}
	st.Conditions = append(st.Conditions, sched)
	return st
}

func kubeletOwned(t string) bool {
	switch t {
	case api.PodScheduled, api.PodReady, api.PodInitialized, api.ContainersReady, api.PodReadyToStartContainers:
		return true
	}
	return false
}

func cond(b bool) string {
	if b {
		return api.ConditionTrue
	}
	return api.ConditionFalse
}

func allStopped(rt *podRuntime) bool {
	for _, c := range rt.containers {
		if c.stage == stageRunning || c.stage == stageStarting {
			return false
		}
	}
	return true
}

// anyRegularActive is HasAnyActiveRegularContainerStarted: a container
// (not an init container) has been created in the pod's sandbox, whether
// it runs now or has exited.
func anyRegularActive(rt *podRuntime) bool {
	for _, c := range rt.regular() {
		if c.id != "" {
			return true
		}
	}
	return false
}

// initialized is GeneratePodInitializedCondition: True once every init
// container has succeeded (a sidecar: has started), or once a container
// has started, which it stays while sidecars restart; reason
// PodCompleted for a pod that succeeded.
func initialized(t *texts, p *api.Pod, st *api.PodStatus) api.PodCondition {
	c := api.PodCondition{Type: api.PodInitialized, Status: api.ConditionTrue}
	if st.Phase == api.PodSucceeded {
		c.Reason = "PodCompleted"
		return c
	}
	var incomplete []string
	for i, cs := range st.InitContainerStatuses {
		done := cs.Ready
		if api.IsRestartableInitContainer(&p.Spec.InitContainers[i]) {
			done = cs.Started != nil && *cs.Started
		}
		if !done {
			incomplete = append(incomplete, cs.Name)
		}
	}
	if len(incomplete) == 0 || anyRegularStarted(st) {
		return c
	}
	c.Status, c.Reason = api.ConditionFalse, "ContainersNotInitialized"
	names := strings.Join(incomplete, " ")
	c.Message = t.message(c.Reason, names, func() string { return "containers with incomplete status: [" + names + "]" })
	return c
}

// anyRegularStarted is HasAnyRegularContainerStarted.
func anyRegularStarted(st *api.PodStatus) bool {
	for _, cs := range st.ContainerStatuses {
		if cs.State.Running != nil || cs.State.Terminated != nil {
			return true
		}
	}
	return false
}

// containersReady is GenerateContainersReadyCondition: the sidecars and
// the containers must all be ready. Its message is kept in t, once per
// list of unready containers.
func containersReady(t *texts, p *api.Pod, st *api.PodStatus) api.PodCondition {
	c := api.PodCondition{Type: api.ContainersReady, Status: api.ConditionTrue}
	switch st.Phase {
	case api.PodSucceeded:
		c.Status, c.Reason = api.ConditionFalse, "PodCompleted"
		return c
	case api.PodFailed:
		c.Status, c.Reason = api.ConditionFalse, "PodFailed"
		return c
	}
	// The unready names, space-separated: built only when there are
	// several (one is the name itself), as most reports have none.
	names, n := "", 0
	add := func(name string) {
		if n++; n == 1 {
			names = name
		} else {
			names += " " + name
		}
	}
	for i, cs := range st.InitContainerStatuses {
		if api.IsRestartableInitContainer(&p.Spec.InitContainers[i]) && !cs.Ready {
			add(cs.Name)
		}
	}
	for _, cs := range st.ContainerStatuses {
		if !cs.Ready {
			add(cs.Name)
		}
	}
	if n > 0 {
		c.Status, c.Reason = api.ConditionFalse, "ContainersNotReady"
		c.Message = t.unready(names)
	}
	return c
}

// containerStatus is c's status. The values many statuses repeat (the
// started flag, a waiting state's reason and message) are kept in t and
// shared: stored statuses are never changed. A container not yet created
// waits in ContainerCreating, or PodInitializing in a pod with init
// containers (convertToAPIContainerStatuses); an init container that
// succeeded is ready, and a sidecar has started once its startup probe
// has passed (prober_manager.go UpdatePodStatus).
func (t *texts) containerStatus(c *container, hasInits bool, now int64) api.ContainerStatus {
	running := c.stage == stageRunning
	cs := api.ContainerStatus{Name: c.name, Image: c.image, Ready: c.ready && running, RestartCount: c.restarts, Started: t.flag(running)}
	switch {
	case c.sidecar:
		cs.Started = t.flag(running && c.probesFrom <= now)
		cs.Ready = cs.Ready && *cs.Started
	case c.init:
		cs.Ready = c.stage == stageExited && c.term != nil && c.term.ExitCode == 0
	}
	if c.id != "" {
		cs.ImageID = c.imageRef
		cs.ContainerID = c.id
	}
	switch c.stage {
	case stageRunning:
		cs.State.Running = &api.ContainerStateRunning{StartedAt: api.At(c.startedAt)}
	case stageExited:
		if c.term != nil {
			term := *c.term
			cs.State.Terminated = &term
			break
		}
		cs.State.Waiting = t.waiting(c.waiting, c.waitingMsg)
	default:
		reason := c.waiting
		switch {
		case reason != "":
		case hasInits:
			reason = "PodInitializing"
		default:
			reason = "ContainerCreating"
		}
		cs.State.Waiting = t.waiting(reason, c.waitingMsg)
	}
	if c.lastTerm != nil {
		term := *c.lastTerm
		cs.LastTerminationState.Terminated = &term
	}
	return cs
}

// getPhase is kubelet_pods.go getPhase (the ContainerRestartRules gate
// off, as in v1.34): an init container that failed in a pod that never
// restarts fails the pod; one still to succeed, or a sidecar still to
// start before the pod has initialized, keeps it Pending; then the
// containers decide, with running sidecars counted as running and
// stopped ones not at all.
func getPhase(p *api.Pod, st *api.PodStatus, podIsTerminal, podHasInitialized bool) string {
	var pendingInits, pendingSidecars, failedInit int
	var unknown, running, waiting, stopped, succeeded int
	for i, c := range st.InitContainerStatuses {
		if api.IsRestartableInitContainer(&p.Spec.InitContainers[i]) {
			switch {
			case c.State.Running != nil:
				if c.Started == nil || !*c.Started {
					pendingSidecars++
				}
				running++
			case c.State.Terminated != nil:
			case c.State.Waiting != nil && c.LastTerminationState.Terminated != nil:
			case c.State.Waiting != nil:
				pendingSidecars++
				waiting++
			default:
				pendingSidecars++
				unknown++
			}
			continue
		}
		switch {
		case c.State.Terminated != nil:
			if c.State.Terminated.ExitCode != 0 {
				failedInit++
			}
		case c.State.Waiting != nil && c.LastTerminationState.Terminated != nil:
			if c.LastTerminationState.Terminated.ExitCode != 0 {
				failedInit++
			}
		default:
			pendingInits++
		}
	}
	for _, c := range st.ContainerStatuses {
		switch {
		case c.State.Running != nil:
			running++
		case c.State.Terminated != nil:
			stopped++
			if c.State.Terminated.ExitCode == 0 {
				succeeded++
			}
		case c.State.Waiting != nil:
			if c.LastTerminationState.Terminated != nil {
				stopped++
			} else {
				waiting++
			}
		default:
			unknown++
		}
	}
	if failedInit > 0 && p.Spec.RestartPolicy == "Never" {
		return api.PodFailed
	}
	switch {
	case pendingInits > 0 || pendingSidecars > 0 && !podHasInitialized || waiting > 0:
		return api.PodPending
	case running > 0 && unknown == 0:
		return api.PodRunning
	case running == 0 && stopped > 0 && unknown == 0:
		if podIsTerminal {
			if stopped == succeeded {
				return api.PodSucceeded
			}
			return api.PodFailed
		}
		switch p.Spec.RestartPolicy {
		case "Always", "":
			return api.PodRunning
		case "OnFailure":
			if stopped == succeeded {
				return api.PodSucceeded
			}
			return api.PodRunning
		}
		if stopped == succeeded {
			return api.PodSucceeded
		}
		return api.PodFailed
	}
	return api.PodPending
}

// statusSummary describes a status write for the trace.
func statusSummary(p *api.Pod, st *api.PodStatus) string {
	ready := 0
	for _, c := range st.ContainerStatuses {
		if c.Ready {
			ready++
		}
	}
	// "pod/%s status: %s, %d/%d containers ready, Ready=%s", concatenated:
	// every status the kubelet writes carries one.
	return "pod/" + p.Name + " status: " + st.Phase + ", " + strconv.Itoa(ready) + "/" + strconv.Itoa(len(st.ContainerStatuses)) +
		" containers ready, Ready=" + condStatus(st, api.PodReady)
}

func condStatus(st *api.PodStatus, t string) string {
	if c := st.Condition(t); c != nil {
		return c.Status
	}
	return "<none>"
}
