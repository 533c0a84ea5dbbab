package apiserver

import (
	"reflect"
	"unsafe"

	"github.com/stateflow/stateflow/engine/api"
)

// podSpecs keeps the specs admission and binding make, so that the pods
// made from one template share one spec: admission gives each new pod
// the same spec for the same template (defaults, the default service
// account, priority 0, the default tolerations), and binding the same
// spec for that spec and the same node. A ReplicaSet's 10,000 pods on 100
// nodes then hold about 100 specs, not 10,000, and every later version
// of a pod shares its spec too. Like repeated, it is shared by the
// store's clones: stored objects never change, so neither does a kept
// spec, and which copy a pod holds is never seen.
//
// A template is recognised by what its spec holds, not by the spec's
// address: every status write of a ReplicaSet copies its template's
// spec, and the copies hold the same containers, tolerations and other
// parts (sameSpec).
type podSpecs struct {
	admitted map[unsafe.Pointer][]admittedSpec // by the template's containers
	bound    map[boundSpec]*api.PodSpec
}

// admittedSpec is the spec admission made (to) from a template (from).
type admittedSpec struct {
	from api.PodSpec
	to   *api.PodSpec
}

// boundSpec is an admitted spec bound to a node.
type boundSpec struct {
	spec *api.PodSpec
	node string
}

func newPodSpecs() *podSpecs {
	return &podSpecs{admitted: map[unsafe.Pointer][]admittedSpec{}, bound: map[boundSpec]*api.PodSpec{}}
}

// admittedFrom is the spec admission made from a template like from.
func (c *podSpecs) admittedFrom(from *api.PodSpec) (*api.PodSpec, bool) {
	for _, a := range c.admitted[unsafe.Pointer(unsafe.SliceData(from.Containers))] {
		if sameSpec(&a.from, from) {
			return a.to, true
		}
	}
	return nil, false
}

// admittedPerContainers bounds how many templates with the same
// containers podSpecs keeps (an indexed Job's pods differ only in their
// hostnames): the oldest goes first.
const admittedPerContainers = 8

// keepAdmitted keeps to, the spec admission made from from.
func (c *podSpecs) keepAdmitted(from, to *api.PodSpec) {
	if len(c.admitted) >= repeatedMax {
		clear(c.admitted)
	}
	k := unsafe.Pointer(unsafe.SliceData(from.Containers))
	kept := c.admitted[k]
	if len(kept) == admittedPerContainers {
		kept = append(kept[:0], kept[1:]...)
	}
	c.admitted[k] = append(kept, admittedSpec{from: *from, to: to})
}

// boundTo is spec with spec.nodeName set to node: the kept one, or a new
// one kept from now on.
func (c *podSpecs) boundTo(spec *api.PodSpec, node string) *api.PodSpec {
	k := boundSpec{spec, node}
	if b, ok := c.bound[k]; ok {
		return b
	}
	if len(c.bound) >= repeatedMax {
		clear(c.bound)
	}
	b := *spec
	b.NodeName = node
	c.bound[k] = &b
	return &b
}

// sameSpec reports whether a and b hold the same values in the same
// places: equal scalars, and the same slices, maps and pointers (stored
// objects never change what they point at, so the same place holds the
// same value). Specs it calls the same are equal; equal specs it may
// not call the same, and then they are not shared.
func sameSpec(a, b *api.PodSpec) bool {
	return sameSlice(a.Volumes, b.Volumes) && sameSlice(a.InitContainers, b.InitContainers) && sameSlice(a.Containers, b.Containers) &&
		a.RestartPolicy == b.RestartPolicy && a.TerminationGracePeriodSeconds == b.TerminationGracePeriodSeconds &&
		a.DNSPolicy == b.DNSPolicy && sameMap(a.NodeSelector, b.NodeSelector) &&
		a.ServiceAccountName == b.ServiceAccountName && a.NodeName == b.NodeName &&
		a.SecurityContext == b.SecurityContext && a.Hostname == b.Hostname && a.Subdomain == b.Subdomain &&
		a.Affinity == b.Affinity && a.SchedulerName == b.SchedulerName &&
		sameSlice(a.Tolerations, b.Tolerations) && a.Priority == b.Priority && a.PriorityClassName == b.PriorityClassName &&
		a.PreemptionPolicy == b.PreemptionPolicy && sameSlice(a.TopologySpreadConstraints, b.TopologySpreadConstraints) && sameSlice(a.SchedulingGates, b.SchedulingGates)
}

func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && unsafe.SliceData(a) == unsafe.SliceData(b)
}

func sameMap(a, b map[string]string) bool {
	return len(a) == len(b) && reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
