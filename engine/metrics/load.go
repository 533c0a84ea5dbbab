package metrics

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
)

// Curve is the load a scenario puts on one workload: CPU and memory per
// pod over time.
type Curve struct {
	// Workload is the Deployment, StatefulSet, DaemonSet, ReplicaSet or
	// Job whose pods carry the load.
	Workload api.Key
	CPU      []Point
	Memory   []Point
	// Idle is what a running pod that is not Ready uses (CPU, in
	// thousandths of a core): it gets no share of the load.
	Idle int64
}

// Point is one step of a curve: from At (virtual ms) on, each Ready pod
// uses PerPod, or an even share of Total across the Ready pods (values
// in thousandths: millicores, or bytes × 1000 for memory).
type Point struct {
	At     int64
	PerPod int64
	Total  int64
	// IsTotal says Total, not PerPod, is set.
	IsTotal bool
}

// The baseline is what a pod uses when no curve covers it: 1m of CPU and
// 8 MiB of memory (in thousandths of a byte).
const (
	baselineCPU    = 1
	baselineMemory = (8 << 20) * 1000
)

// at returns the point in force at ms, if any.
func at(points []Point, ms int64) (Point, bool) {
	i, _ := slices.BinarySearchFunc(points, ms, func(p Point, t int64) int {
		if p.At <= t {
			return -1
		}
		return 1
	})
	if i == 0 {
		return Point{}, false
	}
	return points[i-1], true
}

// share is a point's value for one of ready pods.
func (p Point) share(ready int) int64 {
	if !p.IsTotal {
		return p.PerPod
	}
	if ready <= 0 {
		return 0
	}
	return p.Total / int64(ready)
}

// podUsage is one pod's CPU (millicores) and memory (bytes × 1000) at ms,
// the pod being Ready or not and ready pods of its workload being Ready.
func (c *Curve) podUsage(ms int64, ready bool, readyPods int) (cpu, mem int64) {
	cpu, mem = baselineCPU, baselineMemory
	if !ready {
		cpu = max(c.Idle, baselineCPU)
	} else if p, ok := at(c.CPU, ms); ok {
		cpu = p.share(readyPods)
	}
	if p, ok := at(c.Memory, ms); ok {
		mem = p.share(max(readyPods, 1))
	}
	return cpu, mem
}
