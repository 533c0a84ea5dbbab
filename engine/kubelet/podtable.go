package kubelet

import (
	"cmp"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
)

// podTable is a kubelet's pod runtimes in namespace and name order. A
// kubelet runs a hundred pods or so, and a checkpoint's copy of it
// copies this table: a slice of pointers is a tenth of what a map keyed
// by the pods' keys took (8 KB a hundred pods).
type podTable []*podRuntime

// find returns the index of pod k in t, or where it would go, and
// whether it is there.
func (t podTable) find(k api.Key) (int, bool) {
	return slices.BinarySearchFunc(t, k, func(rt *podRuntime, k api.Key) int {
		return cmp.Or(cmp.Compare(rt.namespace, k.Namespace), cmp.Compare(rt.name, k.Name))
	})
}

// get returns the runtime of pod k.
func (t podTable) get(k api.Key) (*podRuntime, bool) {
	if i, ok := t.find(k); ok {
		return t[i], true
	}
	return nil, false
}

// put sets the runtime of its pod.
func (t *podTable) put(rt *podRuntime) {
	i, ok := t.find(api.Key{Kind: api.KindPod, Namespace: rt.namespace, Name: rt.name})
	if ok {
		(*t)[i] = rt
		return
	}
	*t = slices.Insert(*t, i, rt)
}

// remove drops the runtime of pod k.
func (t *podTable) remove(k api.Key) {
	if i, ok := t.find(k); ok {
		*t = slices.Delete(*t, i, i+1)
	}
}
