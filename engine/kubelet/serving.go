package kubelet

// This file answers the data plane: whether a pod on this node accepts a
// connection at a moment, for the synthetic traffic a scenario sends.

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// Accepts says whether the pod running here with address ip takes a
// connection on port at now, and if not, why (a trace outcome): the pod
// must run on this node with that address, and the container that
// declares the port (any container, if none declares it) must be running
// and not yet sent SIGTERM. A preStop hook delays that container's
// SIGTERM, so the pod keeps serving through it whatever its sidecars do.
func (k *Kubelet) Accepts(pod api.Key, ip string, port int32, now int64) (bool, string) {
	rt, ok := k.pods.get(pod)
	if !ok || rt.ip != ip {
		return false, trace.PodGone
	}
	serving := k.portOwners(pod, rt, port)
	terminating := false
	for _, c := range serving {
		if rt.killing && c.sigtermAt >= 0 && now >= c.sigtermAt {
			terminating = true
			continue
		}
		if c.stage == stageRunning && (c.exitAt == 0 || now < c.exitAt) {
			return true, trace.Served
		}
	}
	if terminating || rt.killing {
		return false, trace.Terminating
	}
	return false, trace.NotRunning
}

// portOwners are the containers that declare port, or every container
// when none does.
func (k *Kubelet) portOwners(key api.Key, rt *podRuntime, port int32) []*container {
	o, ok := k.Informer.Get(key)
	if !ok {
		return rt.containers
	}
	var out []*container
	for _, c := range o.(*api.Pod).Spec.Containers {
		for _, p := range c.Ports {
			if p.ContainerPort == port {
				for _, rc := range rt.containers {
					if rc.name == c.Name {
						out = append(out, rc)
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return rt.containers
	}
	return out
}
