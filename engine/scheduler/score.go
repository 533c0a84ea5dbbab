package scheduler

import (
	"math"

	"github.com/stateflow/stateflow/engine/api"
)

// maxNodeScore is the most a score plugin gives a node.
const maxNodeScore = 100

// Score weights of the default profile (apis/config/v1/default_plugins.go).
const (
	taintTolerationWeight   = 3
	podTopologySpreadWeight = 2
)

// scores runs the default scoring plugins that matter for a simulated
// cluster over the feasible nodes: NodeResourcesFit LeastAllocated and
// BalancedAllocation (weight 1 each), TaintToleration for PreferNoSchedule
// (weight 3) and PodTopologySpread (weight 2: the pod's ScheduleAnyway
// constraints, or the system default spreading), each
// normalised over the feasible nodes as upstream does, and InterPodAffinity
// (weight 2). ImageLocality and NodeAffinity score every node alike here
// (no reported images, no preferred node affinity).
func (s *Scheduler) scores(p *api.Pod, u *podUsage, feasible []*nodeInfo) []int64 {
	out := sized(s.room.scores, len(feasible))
	taints := sized(s.room.taints, len(feasible))
	s.room.scores, s.room.taints = out, taints
	for i, info := range feasible {
		out[i] = resourceScore(u, info.node, info)
		for _, t := range info.node.Spec.Taints {
			if t.Effect == api.TaintPreferNoSchedule && !tolerated(p.Spec.Tolerations, t) {
				taints[i]++
			}
		}
	}
	for i, t := range normalize(taints, true) {
		out[i] += taintTolerationWeight * t
	}
	for i, sp := range s.spreadScores(p, feasible) {
		out[i] += podTopologySpreadWeight * sp
	}
	for i, sc := range s.podAffinityScores(p, feasible) {
		out[i] += interPodAffinityWeight * sc
	}
	return out
}

// resourceScore is LeastAllocated plus BalancedAllocation for one node.
// LeastAllocated counts pods without requests at the non-zero defaults;
// BalancedAllocation counts requests as written (useRequested) and skips
// a best-effort pod, which asks for neither CPU nor memory
// (noderesources/balanced_allocation.go PreScore, since v1.33).
func resourceScore(u *podUsage, n *api.Node, info *nodeInfo) int64 {
	a := info.allocatable(n)
	allocCPU, allocMem := a.milliCPU, a.memory
	reqCPU := info.nonZeroCPU + u.nonZeroCPU
	reqMem := info.nonZeroMem + u.nonZeroMem
	least := (leastAllocated(reqCPU, allocCPU) + leastAllocated(reqMem, allocMem)) / 2
	if u.milliCPU == 0 && u.memory == 0 {
		return least
	}
	return least + balancedAllocation(info.milliCPU+u.milliCPU, allocCPU, info.memory+u.memory, allocMem)
}

// normalize is helper.DefaultNormalizeScore: scale to 0–100 by the
// highest, reversed when fewer is better; all zero stays zero (or 100,
// reversed). It scales raw in place and returns it.
func normalize(raw []int64, reverse bool) []int64 {
	var most int64
	for _, r := range raw {
		most = max(most, r)
	}
	out := raw
	for i, r := range raw {
		switch {
		case most == 0 && reverse:
			out[i] = maxNodeScore
		case most == 0:
			out[i] = 0
		case reverse:
			out[i] = maxNodeScore - maxNodeScore*r/most
		default:
			out[i] = maxNodeScore * r / most
		}
	}
	return out
}

// leastAllocated is (allocatable - requested) * 100 / allocatable.
func leastAllocated(requested, allocatable int64) int64 {
	if allocatable == 0 || requested > allocatable {
		return 0
	}
	return (allocatable - requested) * 100 / allocatable
}

// balancedAllocation is (1 - standard deviation of the fractions) * 100.
func balancedAllocation(reqCPU, allocCPU, reqMem, allocMem int64) int64 {
	if allocCPU == 0 || allocMem == 0 {
		return 0
	}
	fc := math.Min(float64(reqCPU)/float64(allocCPU), 1)
	fm := math.Min(float64(reqMem)/float64(allocMem), 1)
	std := math.Abs(fc-fm) / 2
	return int64((1 - std) * 100)
}

// numFeasibleNodesToFind is the adaptive percentageOfNodesToScore of
// schedule_one.go: every node below 100 nodes, else 50% - nodes/125 (at
// least 5%), and never fewer than 100 nodes.
func numFeasibleNodesToFind(numAllNodes int) int {
	if numAllNodes < 100 {
		return numAllNodes
	}
	pct := 50 - numAllNodes/125
	if pct < 5 {
		pct = 5
	}
	n := numAllNodes * pct / 100
	if n < 100 {
		return 100
	}
	return n
}
