package scheduler

import (
	"cmp"
	"maps"
	"slices"
	"sort"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine/api"
)

// Scoring treats pods without requests as asking for this much
// (pkg/scheduler/util/pod_resources.go DefaultMilliCPURequest and
// DefaultMemoryRequest).
const (
	defaultMilliCPU = 100
	defaultMemory   = 200 * 1024 * 1024 * 1000 // 200Mi in milli-bytes
)

// nodeInfo is what the scheduler knows is placed on a node, including pods
// it has bound but not yet seen bound in its cache (assumed pods).
type nodeInfo struct {
	node                   *api.Node // the node as last observed; nil once deleted
	milliCPU, memory       int64     // sum of requests (milli-units)
	nonZeroCPU, nonZeroMem int64     // with defaults for pods without requests
	pods                   int
	hostPorts              map[int32]int
	scalar                 map[string]int64 // requested scalar resources; nil until a pod asks for one
	affinityPods           int              // pods with pod affinity or anti-affinity (hasPodAffinity)
	// accounted are the pods accounted here, each as the scheduler's
	// cache last showed it (kept current by observePod), in namespace
	// and name order: a node holds a hundred pods or so, and a slice is
	// what a checkpoint's copy of the node copies cheaply (a pointer per
	// pod, where a map keyed by the pods' keys took ten times as much:
	// 8 KB a hundred pods).
	accounted []*api.Pod
	// spread caches, per default-spreading selector (indexed by its id,
	// nil until counted), how many of the node's pods it selects: kept up
	// to date as pods come and go, dropped when a pod's labels or
	// deletion change.
	spread []*spreadCount
	// topo is the node's topology labels, read once per node version
	// (topoOf) instead of two label lookups per pod and node.
	topoOf *api.Node
	topo   topology
	// alloc is the allocatable of the node version allocOf (objects are
	// immutable, so a new version is a new pointer).
	allocOf *api.Node
	alloc   allocatable
}

// topology is a node's values of the default spreading's topology keys.
type topology struct {
	hostname, zone       string
	hasHostname, hasZone bool
}

// label returns the node's value of a spreading topology key.
func (info *nodeInfo) label(key string) (string, bool) {
	n := info.node
	if info.topoOf != n {
		info.topoOf = n
		info.topo = topology{}
		info.topo.hostname, info.topo.hasHostname = n.Labels[labelHostname]
		info.topo.zone, info.topo.hasZone = n.Labels[labelZone]
	}
	switch key {
	case labelHostname:
		return info.topo.hostname, info.topo.hasHostname
	case labelZone:
		return info.topo.zone, info.topo.hasZone
	}
	v, ok := n.Labels[key]
	return v, ok
}

// allocatable is what a node offers, read once per node version instead
// of three map lookups and quantity conversions per pod and node.
type allocatable struct {
	milliCPU, memory int64
	pods             int64
	hasPods          bool
	scalar           map[string]int64 // nil when the node offers none
}

// allocatable returns n's allocatable, cached for n's current version.
func (info *nodeInfo) allocatable(n *api.Node) allocatable {
	if info.allocOf != n {
		q, ok := n.Status.Allocatable["pods"]
		info.allocOf = n
		info.alloc = allocatable{
			milliCPU: n.Status.Allocatable["cpu"].MilliValue(),
			memory:   n.Status.Allocatable["memory"].MilliValue(),
			pods:     q.Value(),
			hasPods:  ok,
			scalar:   scalarValues(n.Status.Allocatable),
		}
	}
	return info.alloc
}

// scalarValues returns the scalar resources of l as the scheduler counts
// them (whole units, rounded up), or nil when there are none.
func scalarValues(l api.ResourceList) map[string]int64 {
	var out map[string]int64
	for name, q := range l {
		if api.IsScalarResourceName(name) {
			if out == nil {
				out = map[string]int64{}
			}
			out[name] = q.Value()
		}
	}
	return out
}

// find returns the index of pod k in n.accounted, or where it would go,
// and whether it is there.
func (n *nodeInfo) find(k api.Key) (int, bool) {
	return slices.BinarySearchFunc(n.accounted, k, func(p *api.Pod, k api.Key) int {
		return cmp.Or(cmp.Compare(p.Namespace, k.Namespace), cmp.Compare(p.Name, k.Name))
	})
}

func (n *nodeInfo) clone() *nodeInfo {
	c := *n
	c.hostPorts = make(map[int32]int, len(n.hostPorts))
	for k, v := range n.hostPorts {
		c.hostPorts[k] = v
	}
	if n.scalar != nil {
		c.scalar = maps.Clone(n.scalar)
	}
	c.accounted = slices.Clone(n.accounted)
	c.spread = make([]*spreadCount, len(n.spread))
	for i, v := range n.spread {
		if v != nil {
			cp := *v
			c.spread[i] = &cp
		}
	}
	return &c
}

// podUsage is one pod's contribution to a nodeInfo.
type podUsage struct {
	milliCPU, memory       int64
	nonZeroCPU, nonZeroMem int64
	hostPorts              []int32
	scalar                 []scalarRequest // in name order; nil for most pods
}

// scalarRequest is a pod's request of one scalar resource, in whole
// units.
type scalarRequest struct {
	name  string
	value int64
}

func usageOf(p *api.Pod) podUsage {
	u := cpuMemoryPorts(p)
	if requestsScalar(p.Spec) {
		for name, q := range api.PodRequests(p.Spec) {
			if api.IsScalarResourceName(name) {
				u.scalar = append(u.scalar, scalarRequest{name, q.Value()})
			}
		}
		// sort.Slice rather than slices.SortFunc: a generic sort of a
		// new element type adds a copy of pdqsort to the wasm.
		sort.Slice(u.scalar, func(i, j int) bool { return u.scalar[i].name < u.scalar[j].name })
	}
	return u
}

// requestsScalar reports whether any container of s requests a scalar
// resource: a pod asking for more than cpu and memory.
func requestsScalar(s *api.PodSpec) bool {
	for _, cs := range [2][]api.Container{s.InitContainers, s.Containers} {
		for i := range cs {
			for name := range cs[i].Resources.Requests {
				if name != "cpu" && name != "memory" && api.IsScalarResourceName(name) {
					return true
				}
			}
		}
	}
	return false
}

// cpuMemoryPorts is a pod's usage of cpu, memory and host ports.
func cpuMemoryPorts(p *api.Pod) podUsage {
	if len(p.Spec.InitContainers) > 0 {
		return usageWithInits(p)
	}
	var u podUsage
	for _, c := range p.Spec.Containers {
		cpu, hasCPU := c.Resources.Requests["cpu"]
		mem, hasMem := c.Resources.Requests["memory"]
		u.milliCPU += cpu.MilliValue()
		u.memory += mem.MilliValue()
		if hasCPU && cpu.MilliValue() > 0 {
			u.nonZeroCPU += cpu.MilliValue()
		} else {
			u.nonZeroCPU += defaultMilliCPU
		}
		if hasMem && mem.MilliValue() > 0 {
			u.nonZeroMem += mem.MilliValue()
		} else {
			u.nonZeroMem += defaultMemory
		}
		for _, port := range c.Ports {
			if port.HostPort > 0 {
				u.hostPorts = append(u.hostPorts, port.HostPort)
			}
		}
	}
	return u
}

// usageWithInits is usageOf a pod with init containers: its requests as
// resource.PodRequests aggregates them (an init container runs alone with
// the sidecars before it), the non-zero ones with the defaults put in
// for each container that lacks a request first (NonMissingContainerRequests).
func usageWithInits(p *api.Pod) podUsage {
	req := api.PodRequests(p.Spec)
	nonZero := api.AggregateRequests(p.Spec, func(c *api.Container) api.ResourceList {
		out := api.ResourceList{"cpu": api.MilliQuantity(defaultMilliCPU), "memory": api.MilliQuantity(defaultMemory)}
		for _, r := range [...]string{"cpu", "memory"} {
			if q, ok := c.Resources.Requests[r]; ok && q.MilliValue() > 0 {
				out[r] = q
			}
		}
		return out
	})
	u := podUsage{milliCPU: req["cpu"].MilliValue(), memory: req["memory"].MilliValue(),
		nonZeroCPU: nonZero["cpu"].MilliValue(), nonZeroMem: nonZero["memory"].MilliValue()}
	// GetHostPorts: the containers' and the sidecars' (restartable init
	// containers run beside them).
	for list, cs := range [2][]api.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range cs {
			if c := &cs[i]; list == 1 || api.IsRestartableInitContainer(c) {
				for _, port := range c.Ports {
					if port.HostPort > 0 {
						u.hostPorts = append(u.hostPorts, port.HostPort)
					}
				}
			}
		}
	}
	return u
}

// spreadCount is one cached count of the pods a selector selects.
type spreadCount struct {
	sel labels.Selector
	ns  string
	n   int64
}

// counts reports whether the default spreading counts p for c.
func (c *spreadCount) counts(p *api.Pod) bool {
	return p.DeletionTimestamp == nil && p.Namespace == c.ns && c.sel.Matches(labels.Set(p.Labels))
}

// add accounts pod p's usage on the node (sign 1) or removes it (-1).
func (n *nodeInfo) add(p *api.Pod, u podUsage, sign int64) {
	i, ok := n.find(api.KeyOf(p))
	switch {
	case sign > 0 && ok:
		n.accounted[i] = p
	case sign > 0:
		n.accounted = slices.Insert(n.accounted, i, p)
	case ok:
		n.accounted = slices.Delete(n.accounted, i, i+1)
	}
	for _, c := range n.spread {
		if c != nil && c.counts(p) {
			c.n += sign
		}
	}
	n.milliCPU += sign * u.milliCPU
	n.memory += sign * u.memory
	n.nonZeroCPU += sign * u.nonZeroCPU
	n.nonZeroMem += sign * u.nonZeroMem
	n.pods += int(sign)
	if hasPodAffinity(p) {
		n.affinityPods += int(sign)
	}
	for _, r := range u.scalar {
		if n.scalar == nil {
			n.scalar = map[string]int64{}
		}
		n.scalar[r.name] += sign * r.value
	}
	if n.hostPorts == nil {
		n.hostPorts = map[int32]int{}
	}
	for _, p := range u.hostPorts {
		n.hostPorts[p] += int(sign)
		if n.hostPorts[p] <= 0 {
			delete(n.hostPorts, p)
		}
	}
}
