package apiserver

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
)

// repeatedMax bounds how many distinct values repeated keeps of each
// kind; a full cache starts over.
const repeatedMax = 4096

// repeated keeps one copy of values that many stored objects repeat, so
// the objects share it: a pod's conditions list. Their times are whole
// seconds of a virtual clock that a cluster's pods pass through
// together, so the lists of a Deployment's pods are mostly equal (8 to 10
// distinct lists among 10,000 pods during a rollout), while each status
// write makes a new one.
//
// The store's clones share it, as they share admitted: stored objects
// are never changed, so neither is a kept value, and which copy an
// object holds is never seen. The engine runs one clone at a time.
type repeated struct {
	conditions map[uint64][]api.PodCondition // by conditionsHash
}

func newRepeated() *repeated {
	return &repeated{conditions: map[uint64][]api.PodCondition{}}
}

// podConditions is the kept copy of cs when one is equal to it, else a
// copy of cs at its length, kept from now on (an append to a pod's list
// never writes into another's). The writer may reuse cs: the kubelet
// makes each report's conditions in the same room.
func (r *repeated) podConditions(cs []api.PodCondition) []api.PodCondition {
	if len(cs) == 0 {
		return cs
	}
	h := conditionsHash(cs)
	if kept, ok := r.conditions[h]; ok {
		if slices.Equal(kept, cs) {
			return kept
		}
		return slices.Clone(cs) // a different list with the same hash: not shared
	}
	if len(r.conditions) >= repeatedMax {
		clear(r.conditions)
	}
	cs = slices.Clone(cs)
	r.conditions[h] = cs
	return cs
}

// keepRepeated makes o share the values it repeats with other stored
// objects, before o is stored.
func (s *Store) keepRepeated(o api.Object) {
	if p, ok := o.(*api.Pod); ok {
		p.Status.Conditions = s.repeated.podConditions(p.Status.Conditions)
	}
}

// conditionsHash is 64-bit FNV-1a over every field of every condition.
func conditionsHash(cs []api.PodCondition) uint64 {
	const offset64, prime64 = 14695981039346656037, 1099511628211
	h := uint64(offset64)
	str := func(s string) {
		for i := 0; i < len(s); i++ {
			h ^= uint64(s[i])
			h *= prime64
		}
		h *= prime64 // a separator, so "ab","c" and "a","bc" differ
	}
	num := func(n int64) {
		for i := 0; i < 8; i++ {
			h ^= uint64(byte(n >> (8 * i)))
			h *= prime64
		}
	}
	flag := func(b bool) {
		if b {
			h ^= 1
		}
		h *= prime64
	}
	for i := range cs {
		c := &cs[i]
		str(c.Type)
		str(c.Status)
		str(c.Reason)
		str(c.Message)
		num(c.LastProbeTime.MS)
		flag(c.LastProbeTime.Set)
		num(c.LastTransitionTime.MS)
		flag(c.LastTransitionTime.Set)
	}
	return h
}
