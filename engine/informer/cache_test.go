package informer

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

func pod(ns, name, node, owner string) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Namespace: ns, Name: name}, Spec: &api.PodSpec{NodeName: node}}
	p.Kind = api.KindPod
	if owner != "" {
		t := true
		p.OwnerReferences = []api.OwnerReference{{Kind: api.KindReplicaSet, Name: owner, UID: "uid-" + owner, Controller: &t}}
	}
	return p
}

func names(objs []api.Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		out[i] = o.Meta().Namespace + "/" + o.Meta().Name
	}
	return out
}

// The indexes answer exactly what a scan of the cached objects would,
// however pods are added, moved between nodes and owners, and deleted;
// and a clone is independent of the original.
func TestIndexesMatchAScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	c := New(api.KindPod)
	v := apiserver.EmptyVersion()
	ref := map[api.Key]*api.Pod{}
	nss, nodes, owners := []string{"a", "b"}, []string{"", "n1", "n2", "n3"}, []string{"", "rs1", "rs2"}
	var snapshot *Cache
	var snapshotRef map[api.Key]*api.Pod
	for step := range 2000 {
		p := pod(nss[rng.IntN(2)], fmt.Sprintf("p%d", rng.IntN(30)), nodes[rng.IntN(4)], owners[rng.IntN(3)])
		k := api.KeyOf(p)
		typ := apiserver.Added
		if _, ok := ref[k]; ok {
			typ = apiserver.Modified
			if rng.IntN(3) == 0 {
				typ = apiserver.Deleted
			}
		}
		if typ == apiserver.Deleted {
			v = v.Without(k)
		} else {
			v = v.With(p)
		}
		c.Apply(apiserver.WatchEvent{Type: typ, Object: p, Version: v})
		if typ == apiserver.Deleted {
			delete(ref, k)
		} else {
			ref[k] = p
		}
		if step == 1000 {
			snapshot, snapshotRef = c.Clone(), maps(ref)
		}
		check(t, c, ref, nss, nodes, owners)
	}
	check(t, snapshot, snapshotRef, nss, nodes, owners)
}

func maps(m map[api.Key]*api.Pod) map[api.Key]*api.Pod {
	out := make(map[api.Key]*api.Pod, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func check(t *testing.T, c *Cache, ref map[api.Key]*api.Pod, nss, nodes, owners []string) {
	t.Helper()
	scan := func(keep func(*api.Pod) bool) []string {
		var out []string
		for _, p := range ref {
			if keep(p) {
				out = append(out, p.Namespace+"/"+p.Name)
			}
		}
		slices.Sort(out)
		return out
	}
	eq := func(what string, got, want []string) {
		if !slices.Equal(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Fatalf("%s: got %v, want %v", what, got, want)
		}
	}
	if c.Len(api.KindPod) != len(ref) {
		t.Fatalf("Len %d, want %d", c.Len(api.KindPod), len(ref))
	}
	for _, ns := range append(nss, "") {
		eq("List "+ns, names(c.List(api.KindPod, ns)), scan(func(p *api.Pod) bool { return ns == "" || p.Namespace == ns }))
		if ns != "" {
			eq("Orphans "+ns, names(c.Orphans(api.KindPod, ns)), scan(func(p *api.Pod) bool { return p.Namespace == ns && len(p.OwnerReferences) == 0 }))
		}
	}
	for _, n := range nodes[1:] {
		eq("OnNode "+n, names(c.OnNode(n)), scan(func(p *api.Pod) bool { return p.Spec.NodeName == n }))
	}
	for _, o := range owners[1:] {
		owned := func(p *api.Pod) bool { return len(p.OwnerReferences) > 0 && p.OwnerReferences[0].Name == o }
		want := scan(owned)
		eq("Owned "+o, names(c.Owned(api.KindPod, "uid-"+o)), want)
		if n := c.CountOwned(api.KindPod, "uid-"+o); n != len(want) {
			t.Fatalf("CountOwned %s = %d, want %d", o, n, len(want))
		}
		var each []string
		c.EachOwned(api.KindPod, "uid-"+o, func(x api.Object) { each = append(each, x.Meta().Namespace+"/"+x.Meta().Name) })
		slices.Sort(each)
		eq("EachOwned "+o, each, want)
		if n := c.CountOwned(api.KindReplicaSet, "uid-"+o); n != 0 {
			t.Fatalf("CountOwned filters by kind: %d ReplicaSets", n)
		}
	}
}

// The typed Get finds an object only as its own type.
func TestTypedGet(t *testing.T) {
	c := New(api.KindNode)
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}
	c.Apply(apiserver.WatchEvent{Type: apiserver.Added, Object: n, Version: apiserver.EmptyVersion().With(n)})
	key := api.Key{Kind: api.KindNode, Name: "n1"}
	if got, ok := Get[*api.Node](c, key); !ok || got != n {
		t.Errorf("Get[*api.Node] = %v, %v; want the cached node", got, ok)
	}
	if got, ok := Get[*api.Pod](c, key); ok || got != nil {
		t.Errorf("Get[*api.Pod] of a node = %v, %v; want nothing", got, ok)
	}
	if _, ok := Get[*api.Node](c, api.Key{Kind: api.KindNode, Name: "n2"}); ok {
		t.Error("Get of an object never seen must say so")
	}
}

// A kubelet's cache is the API server's Version seen through its watch:
// its own Node and the pods bound to it, nothing else, even though the
// Version holds every object.
func TestNodeViewSeesOnlyItsNode(t *testing.T) {
	n1, n2 := &api.Node{ObjectMeta: api.ObjectMeta{Name: "n1"}}, &api.Node{ObjectMeta: api.ObjectMeta{Name: "n2"}}
	n1.Kind, n2.Kind = api.KindNode, api.KindNode
	mine, theirs, unbound := pod("a", "mine", "n1", "rs1"), pod("a", "theirs", "n2", "rs1"), pod("a", "unbound", "", "rs1")
	rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Namespace: "a", Name: "rs1"}}
	rs.Kind = api.KindReplicaSet
	c := ForNode("n1")
	c.Apply(apiserver.WatchEvent{Version: apiserver.EmptyVersion().With(n1, n2, mine, theirs, unbound, rs)})
	if _, ok := c.Get(api.KeyOf(mine)); !ok {
		t.Error("the kubelet of n1 must see its pod")
	}
	for _, o := range []api.Object{theirs, unbound, n2, rs} {
		if _, ok := c.Get(api.KeyOf(o)); ok {
			t.Errorf("the kubelet of n1 must not see %s", api.KeyOf(o))
		}
	}
	if got := names(c.List(api.KindPod, "")); !slices.Equal(got, []string{"a/mine"}) {
		t.Errorf("List pods = %v", got)
	}
	if got := names(c.List(api.KindNode, "")); !slices.Equal(got, []string{"/n1"}) {
		t.Errorf("List nodes = %v", got)
	}
	if got := c.Owned(api.KindPod, "uid-rs1"); len(got) != 1 {
		t.Errorf("Owned = %v, want only its own pod", names(got))
	}
	if got := c.OnNode("n2"); len(got) != 0 {
		t.Errorf("OnNode(n2) = %v", names(got))
	}
}
