package kubelet

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// The pod table behaves as the map it replaced: after any sequence of
// puts and removes, each key finds the runtime last put for it, the
// removed keys find nothing, and the table is in namespace and name
// order with no key twice. The oracle is a plain map.
func TestPodTableIsAMapInKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var table podTable
	want := map[api.Key]*podRuntime{}
	for range 5000 {
		k := api.Key{Kind: api.KindPod, Namespace: fmt.Sprint("ns-", rng.IntN(3)), Name: fmt.Sprint("web-", rng.IntN(150))}
		if rng.IntN(3) == 0 {
			table.remove(k)
			delete(want, k)
			continue
		}
		rt := &podRuntime{namespace: k.Namespace, name: k.Name}
		table.put(rt)
		want[k] = rt
	}
	if len(table) != len(want) {
		t.Fatalf("the table holds %d runtimes, the map %d", len(table), len(want))
	}
	for k, rt := range want {
		if got, ok := table.get(k); !ok || got != rt {
			t.Errorf("get(%v) = %p, %v; want %p", k, got, ok, rt)
		}
	}
	inOrder := func(a, b *podRuntime) int {
		return cmp.Or(cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
	}
	if !slices.IsSortedFunc(table, inOrder) || len(slices.CompactFunc(slices.Clone(table), func(a, b *podRuntime) bool { return inOrder(a, b) == 0 })) != len(table) {
		t.Error("the table is not in key order")
	}
	if _, ok := table.get(api.Key{Kind: api.KindPod, Namespace: "ns-9", Name: "web-1"}); ok {
		t.Error("a key never put was found")
	}
}
