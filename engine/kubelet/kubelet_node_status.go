package kubelet

// This file reports the node's status: the Ready condition
// (pkg/kubelet/kubelet_node_status.go).

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// nodeConditions are the conditions a kubelet posts about its node
// (kubelet_node_status.go), in the order kubectl describe shows them.
func nodeConditions(health Health) []api.NodeCondition {
	ready := api.NodeCondition{Type: api.NodeReady, Status: api.ConditionTrue, Reason: "KubeletReady", Message: "kubelet is posting ready status"}
	if health == NotReady {
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
func (k *Kubelet) reportNode(tick reconcile.Tick) error {
	if k.health == Unreachable {
		tick.Explain("kubelet on %s is unreachable: it posts no status and renews no lease", k.node)
		return nil
	}
	live, ok := tick.LiveGet(api.Key{Kind: api.KindNode, Name: k.node})
	if !ok {
		return nil
	}
	n := live.(*api.Node).DeepCopy()
	now := api.At(tick.Now())
	conds := nodeConditions(k.health)
	for i := range conds {
		conds[i].LastHeartbeatTime, conds[i].LastTransitionTime = now, now
		if old := n.Status.Condition(conds[i].Type); old != nil && old.Status == conds[i].Status {
			conds[i].LastTransitionTime = old.LastTransitionTime
		}
	}
	n.Status.Conditions = conds
	ready := conds[len(conds)-1]
	if _, err := tick.PatchStatus(trace.Realize, n, fmt.Sprintf("node/%s status: Ready=%s (%s)", k.node, ready.Status, ready.Reason)); err != nil {
		return err
	}
	tick.Explain("kubelet on %s posted node status: Ready=%s (%s)", k.node, ready.Status, ready.Reason)
	return nil
}
