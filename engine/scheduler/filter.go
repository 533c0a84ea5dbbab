package scheduler

import "github.com/stateflow/stateflow/engine/api"

// status is one plugin's verdict on one node: the zero status fits. A
// value with its reasons as bits, so that filtering allocates nothing,
// even for the many nodes of a full cluster that do not fit.
type status struct {
	reasons      reasons
	unresolvable bool // UnschedulableAndUnresolvable: preemption cannot help
	// insufficient names the scalar resources (extended resources such as
	// example.com/dongle, huge pages) the node has too few of, in name
	// order: their reasons name them, so they cannot be bits.
	insufficient []string
}

// fails reports whether the node does not fit.
func (s status) fails() bool { return s.reasons != 0 || len(s.insufficient) > 0 }

// texts lists the status's reasons in plugin order, the scalar
// resources' last (NodeResourcesFit checks them after memory).
func (s status) texts() []string {
	out := s.reasons.texts()
	for _, name := range s.insufficient {
		out = append(out, "Insufficient "+name)
	}
	return out
}

// reasons is a set of the filter plugins' reasons.
type reasons uint16

const (
	reasonUnschedulable reasons = 1 << iota
	reasonTaint
	reasonAffinity
	reasonPorts
	reasonPods
	reasonCPU
	reasonMemory
	reasonSpreadLabel
	reasonSpread
	reasonPodAffinity
	reasonPodAntiAffinity
	reasonExistingAntiAffinity
	reasonCount = iota
)

// text is the message of a single reason (as the plugins word it).
func (r reasons) text() string {
	switch r {
	case reasonUnschedulable:
		return "node(s) were unschedulable"
	case reasonTaint:
		// Since v1.32 the reason no longer names the taint
		// (tainttoleration/taint_toleration.go).
		return "node(s) had untolerated taint(s)"
	case reasonAffinity:
		return "node(s) didn't match Pod's node affinity/selector"
	case reasonPorts:
		return "node(s) didn't have free ports for the requested pod ports"
	case reasonPods:
		return "Too many pods"
	case reasonCPU:
		return "Insufficient cpu"
	case reasonMemory:
		return "Insufficient memory"
	case reasonSpreadLabel:
		return "node(s) didn't match pod topology spread constraints (missing required label)"
	case reasonSpread:
		return "node(s) didn't match pod topology spread constraints"
	case reasonPodAffinity:
		return "node(s) didn't match pod affinity rules"
	case reasonPodAntiAffinity:
		return "node(s) didn't match pod anti-affinity rules"
	case reasonExistingAntiAffinity:
		return "node(s) didn't satisfy existing pods anti-affinity rules"
	}
	return ""
}

// texts lists the messages of the reasons in the set, in plugin order.
func (r reasons) texts() []string {
	var out []string
	for i := range reasonCount {
		if one := reasons(1) << i; r&one != 0 {
			out = append(out, one.text())
		}
	}
	return out
}

// filter runs the default filter plugins in order and stops at the first
// failure (NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
// NodeResourcesFit, PodTopologySpread with the pod's DoNotSchedule
// constraints, InterPodAffinity), with the PreFilter states of the last
// two (nil when they skip).
func filter(p *api.Pod, u *podUsage, n *api.Node, info *nodeInfo, pre prefiltered) status {
	if s := nodeUnschedulable(p, n); s.fails() {
		return s
	}
	if s := taintToleration(p, n); s.fails() {
		return s
	}
	if s := nodeAffinity(p, n); s.fails() {
		return s
	}
	if s := nodePorts(u, info); s.fails() {
		return s
	}
	if s := resourcesFit(u, n, info); s.fails() {
		return s
	}
	if s := pre.spread.filter(n); s.fails() {
		return s
	}
	return pre.affinity.filter(n)
}

// prefiltered are the PreFilter states of a scheduling attempt.
type prefiltered struct {
	spread   *hardSpread
	affinity *podAffinityState
}

// prefilter runs the PreFilter plugins that keep state for Filter.
func (s *Scheduler) prefilter(p *api.Pod) prefiltered {
	return prefiltered{spread: s.hardSpreadOf(p), affinity: s.podAffinityOf(p)}
}

func nodeUnschedulable(p *api.Pod, n *api.Node) status {
	if !n.Spec.Unschedulable {
		return status{}
	}
	t := api.Taint{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintNoSchedule}
	for _, tol := range p.Spec.Tolerations {
		if tol.Tolerates(t) {
			return status{}
		}
	}
	return status{reasons: reasonUnschedulable, unresolvable: true}
}

func taintToleration(p *api.Pod, n *api.Node) status {
	for _, t := range n.Spec.Taints {
		if t.Effect != api.TaintNoSchedule && t.Effect != api.TaintNoExecute {
			continue
		}
		if !tolerated(p.Spec.Tolerations, t) {
			return status{reasons: reasonTaint, unresolvable: true}
		}
	}
	return status{}
}

func tolerated(tols []api.Toleration, t api.Taint) bool {
	for _, tol := range tols {
		if tol.Tolerates(t) {
			return true
		}
	}
	return false
}

// nodeAffinity is the NodeAffinity plugin's filter: the nodeSelector's
// labels and the required node affinity (whose matchFields pin a
// DaemonSet's pod to its node).
func nodeAffinity(p *api.Pod, n *api.Node) status {
	if !p.Spec.RequiredNodeAffinity().Match(n) {
		return status{reasons: reasonAffinity, unresolvable: true}
	}
	return status{}
}

func nodePorts(u *podUsage, info *nodeInfo) status {
	for _, port := range u.hostPorts {
		if info.hostPorts[port] > 0 {
			return status{reasons: reasonPorts}
		}
	}
	return status{}
}

// resourcesFit reports every insufficient resource of the node
// (noderesources/fit.go fitsRequest): pods, cpu, memory, then each scalar
// resource the pod requests, which a node that does not advertise it has
// none of. A pod
// asking for more than the node's whole allocatable cannot be helped by
// preemption (UnschedulableAndUnresolvable, noderesources/fit.go).
func resourcesFit(u *podUsage, n *api.Node, info *nodeInfo) status {
	var st status
	a := info.allocatable(n)
	if a.hasPods && int64(info.pods+1) > a.pods {
		st.reasons |= reasonPods
	}
	if u.milliCPU > 0 && u.milliCPU > a.milliCPU-info.milliCPU {
		st.reasons |= reasonCPU
		st.unresolvable = st.unresolvable || u.milliCPU > a.milliCPU
	}
	if u.memory > 0 && u.memory > a.memory-info.memory {
		st.reasons |= reasonMemory
		st.unresolvable = st.unresolvable || u.memory > a.memory
	}
	for _, r := range u.scalar {
		if r.value > 0 && r.value > a.scalar[r.name]-info.scalar[r.name] {
			st.insufficient = append(st.insufficient, r.name)
			st.unresolvable = st.unresolvable || r.value > a.scalar[r.name]
		}
	}
	return st
}
