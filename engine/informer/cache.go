package informer

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

// Cache is what one component has seen of the cluster. It is not a copy:
// a watch stream is ordered, so what a component has seen is always a
// prefix of the API server's history, and its cache is the API server's
// Version as of the last watch event delivered to it, seen through the
// component's watch (the kinds it watches; for a kubelet, only its own
// Node and the pods bound to it), or a later Version that holds the same
// objects of those kinds (Rebase). Applying an event is O(1), and so is
// cloning a cache for a checkpoint; the indexes (objects by controller
// owner, pods by node) are the Version's, shared by every component.
type Cache struct {
	v *apiserver.Version
	// rv is the resourceVersion of the last event delivered: the view's,
	// kept apart from v's because Rebase moves v on.
	rv    int64
	kinds []string // the kinds watched
	node  string   // a kubelet's node, else ""
	pivot *apiserver.Pivot
}

// New returns an empty cache of a component that watches kinds.
func New(kinds ...string) *Cache {
	return &Cache{v: apiserver.EmptyVersion(), kinds: kinds, pivot: new(apiserver.Pivot)}
}

// ForNode returns an empty cache of the kubelet of node: it sees its own
// Node, the pods bound to it and every Service (the kubelet's service
// informer, which a container waiting for a Service needs: wait.go).
func ForNode(node string) *Cache {
	return &Cache{v: apiserver.EmptyVersion(), kinds: []string{api.KindPod, api.KindNode, api.KindService}, node: node, pivot: new(apiserver.Pivot)}
}

// Clone returns a copy of the cache: O(1), as a Version never changes.
// A clone and its original may be rebased apart.
func (c *Cache) Clone() *Cache {
	out := *c
	out.pivot = new(apiserver.Pivot)
	return &out
}

// Apply moves the cache to the Version a watch event carries.
func (c *Cache) Apply(ev apiserver.WatchEvent) { c.v, c.rv = ev.Version, ev.RV }

// Rebase moves the view to v, a later Version that holds the same objects
// of every kind the component watches (and, for a kubelet, on its node),
// keeping the view's resourceVersion: for a component that has been
// delivered every write it watches, the store's current Version is such a
// Version. A component gone quiet then shares the store's Version instead
// of keeping alive the one its last event carried, with the tree paths
// every later write copied.
func (c *Cache) Rebase(v *apiserver.Version) { c.v = v }

// Watches lists the kinds the component watches.
func (c *Cache) Watches() []string { return c.kinds }

// ResourceVersion is the resourceVersion of the last event the cache has
// seen: how far behind the API server it is.
func (c *Cache) ResourceVersion() int64 { return c.rv }

// watches reports whether the component watches kind.
func (c *Cache) watches(kind string) bool { return slices.Contains(c.kinds, kind) }

// sees reports whether the component's watch delivers o.
func (c *Cache) sees(o api.Object) bool {
	if c.node == "" {
		return true
	}
	switch o := o.(type) {
	case *api.Pod:
		return o.Spec.NodeName == c.node
	case *api.Node:
		return o.Name == c.node
	case *api.Service:
		return true
	}
	return false
}

// Get returns the cached object.
func (c *Cache) Get(k api.Key) (api.Object, bool) {
	if !c.watches(k.Kind) {
		return nil, false
	}
	o, ok := c.v.Lookup(k, c.pivot)
	if !ok || !c.sees(o) {
		return nil, false
	}
	return o, true
}

// List returns the cached objects of kind in ns ("" for all), by name.
func (c *Cache) List(kind, ns string) []api.Object {
	if !c.watches(kind) {
		return nil
	}
	if c.node != "" && kind == api.KindPod {
		var out []api.Object
		c.v.EachOnNode(c.node, func(p *api.Pod) bool {
			if ns == "" || p.Namespace == ns {
				out = append(out, p)
			}
			return true
		})
		return out
	}
	if c.node != "" {
		var out []api.Object
		c.v.Ascend(kind, ns, func(o api.Object) bool {
			if c.sees(o) {
				out = append(out, o)
			}
			return true
		})
		return out
	}
	return c.v.List(kind, ns)
}

// Len returns the number of cached objects of kind.
func (c *Cache) Len(kind string) int {
	if c.node != "" {
		return len(c.List(kind, ""))
	}
	if !c.watches(kind) {
		return 0
	}
	return c.v.Count(kind)
}

// eachOwned calls f for each cached object of kind owned by idx (a UID, or
// an orphan index), in (namespace, name) order.
func (c *Cache) eachOwned(kind, idx string, f func(api.Object) bool) {
	if !c.watches(kind) {
		return
	}
	c.v.EachOwned(kind, idx, func(o api.Object) bool { return !c.sees(o) || f(o) })
}

func (c *Cache) collect(kind, idx string) []api.Object {
	var out []api.Object
	c.eachOwned(kind, idx, func(o api.Object) bool { out = append(out, o); return true })
	return out
}

// Owned returns the cached objects of kind whose controller owner has uid.
func (c *Cache) Owned(kind, uid string) []api.Object { return c.collect(kind, uid) }

// EachOwned calls f for each cached object of kind owned by uid.
func (c *Cache) EachOwned(kind, uid string, f func(api.Object)) {
	c.eachOwned(kind, uid, func(o api.Object) bool { f(o); return true })
}

// CountOwned returns how many cached objects of kind uid owns.
func (c *Cache) CountOwned(kind, uid string) int {
	if !c.watches(kind) {
		return 0
	}
	if c.node == "" {
		return c.v.CountOwned(kind, uid) // every object is seen: the index says
	}
	n := 0
	c.eachOwned(kind, uid, func(api.Object) bool { n++; return true })
	return n
}

// OnNode returns the cached pods bound to node.
func (c *Cache) OnNode(node string) []api.Object {
	if !c.watches(api.KindPod) || c.node != "" && node != c.node {
		return nil
	}
	var out []api.Object
	c.v.EachOnNode(node, func(p *api.Pod) bool { out = append(out, p); return true })
	return out
}

// EachOrphan calls f for each cached object of kind in ns without a
// controller owner, until f returns false.
func (c *Cache) EachOrphan(kind, ns string, f func(api.Object) bool) {
	c.eachOwned(kind, apiserver.OrphanIndex(ns), f)
}

// Orphans returns the cached objects of kind in ns without a controller owner.
func (c *Cache) Orphans(kind, ns string) []api.Object {
	return c.collect(kind, apiserver.OrphanIndex(ns))
}

// Get is a typed lister's Get: the cached object of key as a T, if the
// cache holds one.
func Get[T api.Object](c *Cache, k api.Key) (T, bool) {
	o, ok := c.Get(k)
	if !ok {
		var none T
		return none, false
	}
	t, ok := o.(T)
	return t, ok
}
