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
	if len(rt.containers) > 0 {
		st.ContainerStatuses = make([]api.ContainerStatus, 0, len(rt.containers))
	}
	for _, c := range rt.containers {
		st.ContainerStatuses = append(st.ContainerStatuses, k.texts.containerStatus(c))
	}
	st.Phase = getPhase(p, st.ContainerStatuses, rt.killing && allStopped(rt))
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
	ready, unready := readiness(st.ContainerStatuses)
	set := func(c api.PodCondition) {
		if old := prev.Condition(c.Type); old != nil && old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		} else {
			c.LastTransitionTime = api.At(now)
		}
		st.Conditions = append(st.Conditions, c)
	}
	set(api.PodCondition{Type: api.PodReadyToStartContainers, Status: cond(rt.ip != "" && !(rt.killing && allStopped(rt)))})
	set(api.PodCondition{Type: api.PodInitialized, Status: api.ConditionTrue})
	cr := containersReady(k.texts, st.Phase, ready, unready)
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

// readiness splits the containers into ready and not ready, by name.
func readiness(cs []api.ContainerStatus) (ready, unready []string) {
	for _, c := range cs {
		if c.Ready {
			ready = append(ready, c.Name)
		} else {
			unready = append(unready, c.Name)
		}
	}
	return ready, unready
}

// containersReady is GenerateContainersReadyCondition.
// Its message is kept in t, once per list of unready containers.
func containersReady(t *texts, phase string, ready, unready []string) api.PodCondition {
	c := api.PodCondition{Type: api.ContainersReady, Status: api.ConditionTrue}
	switch {
	case phase == api.PodSucceeded:
		c.Status, c.Reason = api.ConditionFalse, "PodCompleted"
	case phase == api.PodFailed:
		c.Status, c.Reason = api.ConditionFalse, "PodFailed"
	case len(unready) > 0:
		c.Status, c.Reason = api.ConditionFalse, "ContainersNotReady"
		c.Message = t.unready(strings.Join(unready, " "))
	}
	return c
}

// containerStatus is c's status. The values many statuses repeat (the
// started flag, a waiting state's reason and message) are kept in t and
// shared: stored statuses are never changed.
func (t *texts) containerStatus(c *container) api.ContainerStatus {
	cs := api.ContainerStatus{Name: c.name, Image: c.image, Ready: c.ready && c.stage == stageRunning, RestartCount: c.restarts, Started: t.flag(c.stage == stageRunning)}
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
		if reason == "" {
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

// getPhase is kubelet_pods.go getPhase for pods without init containers.
func getPhase(p *api.Pod, cs []api.ContainerStatus, podIsTerminal bool) string {
	var running, waiting, stopped, succeeded int
	for _, c := range cs {
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
		}
	}
	switch {
	case waiting > 0:
		return api.PodPending
	case running > 0:
		return api.PodRunning
	case stopped > 0:
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
