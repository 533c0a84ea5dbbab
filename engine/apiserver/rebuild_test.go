package apiserver

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// TestRebuildGivesBackEveryVersion writes pods at random (created with an
// owner, bound to nodes, relabelled, re-owned, deleted gracefully and for
// good) and keeps every watch event with the Version it carried. For
// each suffix of the events, Rebuild from the last Version, with the
// events' Versions taken away, must give each event exactly the Version
// it carried: the same objects of every kind, the same owner and node
// indexes, the same resourceVersion. The oracle is the store's own
// history.
func TestRebuildGivesBackEveryVersion(t *testing.T) {
	for seed := range uint64(5) {
		s := New(seed)
		if _, err := s.Create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}); err != nil {
			t.Fatal(err)
		}
		var events []WatchEvent
		s.SetSink(func(e WatchEvent) { events = append(events, e) })
		randomPodWrites(t, s, rand.New(rand.NewPCG(seed, 1)), 300)
		for _, from := range []int{0, len(events) / 3, len(events) - 10, len(events) - 1} {
			rebuilt := make([]*WatchEvent, 0, len(events)-from)
			for _, e := range events[from:] {
				e.Version = nil
				rebuilt = append(rebuilt, &e)
			}
			Rebuild(s.Current(), rebuilt)
			for i, e := range rebuilt {
				if got, want := describe(e.Version), describe(events[from+i].Version); got != want {
					t.Fatalf("seed %d, events from %d: event %d (rv %d) rebuilt\n%s\nwant\n%s", seed, from, from+i, e.RV, got, want)
				}
			}
		}
	}
}

// randomPodWrites makes n random writes of pods owned by one of three
// owners, on one of three nodes.
func randomPodWrites(t *testing.T, s *Store, r *rand.Rand, n int) {
	t.Helper()
	owners := []string{"uid-a", "uid-b", "uid-c"}
	for i := range n {
		name := fmt.Sprintf("p%d", r.IntN(12))
		k := api.Key{Kind: api.KindPod, Namespace: "default", Name: name}
		cur, exists := s.Get(k)
		var err error
		switch {
		case !exists:
			p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{"app": "web"},
				OwnerReferences: []api.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: owners[r.IntN(3)], Controller: new(true)}}},
				Spec: &api.PodSpec{Containers: []api.Container{{Name: "c", Image: "i"}}}}
			_, err = s.Create(p)
		case cur.(*api.Pod).Spec.NodeName == "" && r.IntN(2) == 0:
			_, err = s.Bind(k, cur.Meta().UID, fmt.Sprintf("node-%d", r.IntN(3)))
		case r.IntN(3) == 0:
			_, _, err = s.Delete(k, DeleteOptions{GracePeriodSeconds: new(int64(r.IntN(2)))})
		default:
			p := cur.(*api.Pod).DeepCopy()
			p.Labels = map[string]string{"app": "web", "step": fmt.Sprint(i)}
			if r.IntN(4) == 0 {
				p.OwnerReferences = nil // orphaned
			}
			_, err = s.Update(p)
		}
		if err != nil {
			t.Fatalf("write %d: %v", i, err)
		}
	}
}

// describe is everything a reader can see of a Version: its
// resourceVersion, the pods (each object by identity), the owner index
// and the node index.
func describe(v *Version) string {
	out := fmt.Sprintf("rv %d\n", v.ResourceVersion())
	for _, o := range v.List(api.KindPod, "") {
		out += fmt.Sprintf("pod %s %p\n", o.Meta().Name, o)
	}
	for _, owner := range []string{"uid-a", "uid-b", "uid-c"} {
		v.EachOwned(api.KindPod, owner, func(o api.Object) bool {
			out += fmt.Sprintf("owned by %s: %s %p\n", owner, o.Meta().Name, o)
			return true
		})
	}
	for _, node := range []string{"node-0", "node-1", "node-2"} {
		var names []string
		v.EachOnNode(node, func(p *api.Pod) bool {
			names = append(names, fmt.Sprintf("%s %p", p.Name, p))
			return true
		})
		slices.Sort(names)
		out += fmt.Sprintf("on %s: %v\n", node, names)
	}
	return out
}

// EachOwned and CountOwned list, in name order, exactly the pods whose
// controller reference (or, for the orphan index, the lack of one) says
// so, in every Version of random pod writes: the oracle is a walk over
// every pod of the Version.
func TestEachOwnedMatchesAWalk(t *testing.T) {
	for seed := range uint64(5) {
		s := New(seed)
		if _, err := s.Create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: "default"}}); err != nil {
			t.Fatal(err)
		}
		var versions []*Version
		s.SetSink(func(e WatchEvent) { versions = append(versions, e.Version) })
		randomPodWrites(t, s, rand.New(rand.NewPCG(seed, 2)), 300)
		for _, v := range versions {
			for _, idx := range []string{"uid-a", "uid-b", "uid-c", OrphanIndex("default")} {
				var want []string
				v.Ascend(api.KindPod, "", func(o api.Object) bool {
					if ownerIndex(o) == idx {
						want = append(want, o.Meta().Name)
					}
					return true
				})
				var got []string
				v.EachOwned(api.KindPod, idx, func(o api.Object) bool { got = append(got, o.Meta().Name); return true })
				if !slices.Equal(got, want) || v.CountOwned(api.KindPod, idx) != len(want) {
					t.Fatalf("seed %d rv %d: %s owns %v (counted %d), a walk says %v", seed, v.rv, idx, got, v.CountOwned(api.KindPod, idx), want)
				}
			}
		}
	}
}
