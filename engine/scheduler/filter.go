package scheduler

import "github.com/stateflow/stateflow/engine/api"

// status is one plugin's verdict on one node.
type status struct {
	reasons      []string
	unresolvable bool // UnschedulableAndUnresolvable: preemption cannot help
}

// filter runs the default filter plugins in order and stops at the first
// failure (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
// NodeResourcesFit).
func filter(p *api.Pod, u *podUsage, n *api.Node, info *nodeInfo) *status {
	if s := nodeUnschedulable(p, n); s != nil {
		return s
	}
	if s := taintToleration(p, n); s != nil {
		return s
	}
	if s := nodeAffinity(p, n); s != nil {
		return s
	}
	if s := nodePorts(u, info); s != nil {
		return s
	}
	return resourcesFit(u, n, info)
}

func nodeUnschedulable(p *api.Pod, n *api.Node) *status {
	if !n.Spec.Unschedulable {
		return nil
	}
	t := api.Taint{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintNoSchedule}
	for _, tol := range p.Spec.Tolerations {
		if tol.Tolerates(t) {
			return nil
		}
	}
	return &status{reasons: []string{"node(s) were unschedulable"}, unresolvable: true}
}

func taintToleration(p *api.Pod, n *api.Node) *status {
	for _, t := range n.Spec.Taints {
		if t.Effect != api.TaintNoSchedule && t.Effect != api.TaintNoExecute {
			continue
		}
		if !tolerated(p.Spec.Tolerations, t) {
			// Since v1.32 the reason no longer names the taint
			// (tainttoleration/taint_toleration.go).
			return &status{reasons: []string{"node(s) had untolerated taint(s)"}, unresolvable: true}
		}
	}
	return nil
}

func tolerated(tols []api.Toleration, t api.Taint) bool {
	for _, tol := range tols {
		if tol.Tolerates(t) {
			return true
		}
	}
	return false
}

func nodeAffinity(p *api.Pod, n *api.Node) *status {
	for k, v := range p.Spec.NodeSelector {
		if n.Labels[k] != v {
			return &status{reasons: []string{"node(s) didn't match Pod's node affinity/selector"}, unresolvable: true}
		}
	}
	return nil
}

func nodePorts(u *podUsage, info *nodeInfo) *status {
	for _, port := range u.hostPorts {
		if info.hostPorts[port] > 0 {
			return &status{reasons: []string{"node(s) didn't have free ports for the requested pod ports"}}
		}
	}
	return nil
}

// resourcesFit reports every insufficient resource of the node. A pod
// asking for more than the node's whole allocatable cannot be helped by
// preemption (UnschedulableAndUnresolvable, noderesources/fit.go).
func resourcesFit(u *podUsage, n *api.Node, info *nodeInfo) *status {
	var reasons []string // allocated only for a node that does not fit
	unresolvable := false
	a := info.allocatable(n)
	if a.hasPods && int64(info.pods+1) > a.pods {
		reasons = append(reasons, "Too many pods")
	}
	if u.milliCPU > 0 && u.milliCPU > a.milliCPU-info.milliCPU {
		reasons = append(reasons, "Insufficient cpu")
		unresolvable = unresolvable || u.milliCPU > a.milliCPU
	}
	if u.memory > 0 && u.memory > a.memory-info.memory {
		reasons = append(reasons, "Insufficient memory")
		unresolvable = unresolvable || u.memory > a.memory
	}
	if len(reasons) == 0 {
		return nil
	}
	return &status{reasons: reasons, unresolvable: unresolvable}
}
