package kubelet

// This file answers the data plane: whether a pod on this node accepts a
// connection at a moment, for the synthetic traffic a scenario sends.

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// Accepts says whether the pod running here with address ip takes a
// connection at now, and if not, why (a trace outcome): the pod must run
// on this node with that address, a container must be running, and no
// container may have got SIGTERM yet. A preStop hook delays SIGTERM, so a
// pod keeps serving through it.
func (k *Kubelet) Accepts(pod api.Key, ip string, now int64) (bool, string) {
	rt, ok := k.pods[pod]
	if !ok || rt.ip != ip {
		return false, trace.PodGone
	}
	if rt.killing && rt.sigtermAt >= 0 && now >= rt.sigtermAt {
		return false, trace.Terminating
	}
	for _, c := range rt.containers {
		if c.stage == stageRunning && (c.exitAt == 0 || now < c.exitAt) {
			return true, trace.Served
		}
	}
	if rt.killing {
		return false, trace.Terminating
	}
	return false, trace.NotRunning
}
