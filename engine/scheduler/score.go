package scheduler

import (
	"math"

	"github.com/stateflow/stateflow/engine/api"
)

// score adds the default scoring plugins that matter for a simulated
// cluster: NodeResourcesFit LeastAllocated (weight 1), BalancedAllocation
// (weight 1) and TaintToleration for PreferNoSchedule (weight 3).
func score(p *api.Pod, u *podUsage, n *api.Node, info *nodeInfo) int64 {
	a := info.allocatable(n)
	allocCPU, allocMem := a.milliCPU, a.memory
	reqCPU := info.nonZeroCPU + u.nonZeroCPU
	reqMem := info.nonZeroMem + u.nonZeroMem
	least := (leastAllocated(reqCPU, allocCPU) + leastAllocated(reqMem, allocMem)) / 2
	balanced := balancedAllocation(reqCPU, allocCPU, reqMem, allocMem)
	taints := int64(100)
	for _, t := range n.Spec.Taints {
		if t.Effect == api.TaintPreferNoSchedule && !tolerated(p.Spec.Tolerations, t) {
			taints = 0
		}
	}
	return least + balanced + 3*taints
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
