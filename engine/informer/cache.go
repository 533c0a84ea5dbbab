package informer

import (
	"sort"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

type keySet map[api.Key]struct{}

// Cache holds the objects one component has seen. Objects are shared,
// immutable pointers.
type Cache struct {
	objs    map[api.Key]api.Object
	byOwner map[string]keySet // controller owner UID → dependents
	byNode  map[string]keySet // spec.nodeName → pods
	byKind  map[string]keySet
}

// New returns an empty cache.
func New() *Cache {
	return &Cache{objs: map[api.Key]api.Object{}, byOwner: map[string]keySet{}, byNode: map[string]keySet{}, byKind: map[string]keySet{}}
}

// Clone returns an independent copy of the cache.
func (c *Cache) Clone() *Cache {
	out := &Cache{objs: make(map[api.Key]api.Object, len(c.objs)), byOwner: cloneIndex(c.byOwner), byNode: cloneIndex(c.byNode), byKind: cloneIndex(c.byKind)}
	for k, v := range c.objs {
		out.objs[k] = v
	}
	return out
}

func cloneIndex(m map[string]keySet) map[string]keySet {
	out := make(map[string]keySet, len(m))
	for k, s := range m {
		cs := make(keySet, len(s))
		for x := range s {
			cs[x] = struct{}{}
		}
		out[k] = cs
	}
	return out
}

// Apply updates the cache with a watch event.
func (c *Cache) Apply(ev apiserver.WatchEvent) {
	k := ev.Key()
	old, had := c.objs[k]
	if ev.Type == apiserver.Deleted {
		if had {
			c.unindex(k, old)
		}
		delete(c.objs, k)
		return
	}
	c.objs[k] = ev.Object
	if had && sameIndexes(old, ev.Object) {
		return // a status write: the indexes already hold k where they should
	}
	if had {
		c.unindex(k, old)
	}
	c.index(k, ev.Object)
}

// sameIndexes reports whether a and b, two versions of one object, sit
// in the same owner and node index entries.
func sameIndexes(a, b api.Object) bool {
	if ownerIndex(a) != ownerIndex(b) {
		return false
	}
	pa, okA := a.(*api.Pod)
	pb, okB := b.(*api.Pod)
	return okA == okB && (!okA || pa.Spec.NodeName == pb.Spec.NodeName)
}

func add(m map[string]keySet, idx string, k api.Key) {
	s := m[idx]
	if s == nil {
		s = keySet{}
		m[idx] = s
	}
	s[k] = struct{}{}
}

func remove(m map[string]keySet, idx string, k api.Key) {
	if s := m[idx]; s != nil {
		delete(s, k)
		if len(s) == 0 {
			delete(m, idx)
		}
	}
}

func (c *Cache) index(k api.Key, o api.Object) {
	add(c.byKind, k.Kind, k)
	add(c.byOwner, ownerIndex(o), k)
	if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" {
		add(c.byNode, p.Spec.NodeName, k)
	}
}

func (c *Cache) unindex(k api.Key, o api.Object) {
	remove(c.byKind, k.Kind, k)
	remove(c.byOwner, ownerIndex(o), k)
	if p, ok := o.(*api.Pod); ok && p.Spec.NodeName != "" {
		remove(c.byNode, p.Spec.NodeName, k)
	}
}

// ownerIndex is the controller owner's UID, or "orphan/<ns>" for objects
// without a controller, so orphans can be found without a scan.
func ownerIndex(o api.Object) string {
	if ref := o.Meta().ControllerRef(); ref != nil {
		return ref.UID
	}
	return "orphan/" + o.Meta().Namespace
}

// Get returns the cached object.
func (c *Cache) Get(k api.Key) (api.Object, bool) {
	o, ok := c.objs[k]
	return o, ok
}

// Len returns the number of cached objects of kind.
func (c *Cache) Len(kind string) int { return len(c.byKind[kind]) }

func (c *Cache) sorted(s keySet, kind, ns string) []api.Object {
	out := make([]api.Object, 0, len(s))
	for k := range s {
		if (kind == "" || k.Kind == kind) && (ns == "" || k.Namespace == ns) {
			out = append(out, c.objs[k])
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Meta(), out[j].Meta()
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

// List returns the cached objects of kind in ns ("" for all), by name.
func (c *Cache) List(kind, ns string) []api.Object { return c.sorted(c.byKind[kind], kind, ns) }

// Owned returns the cached objects of kind whose controller owner has uid.
func (c *Cache) Owned(kind, uid string) []api.Object { return c.sorted(c.byOwner[uid], kind, "") }

// EachOwned calls f for each cached object of kind owned by uid, in no
// particular order: for order-independent uses such as counting.
func (c *Cache) EachOwned(kind, uid string, f func(api.Object)) {
	for k := range c.byOwner[uid] {
		if k.Kind == kind {
			f(c.objs[k])
		}
	}
}

// CountOwned returns how many cached objects of kind uid owns.
func (c *Cache) CountOwned(kind, uid string) int {
	n := 0
	for k := range c.byOwner[uid] {
		if k.Kind == kind {
			n++
		}
	}
	return n
}

// OnNode returns the cached pods bound to node.
func (c *Cache) OnNode(node string) []api.Object { return c.sorted(c.byNode[node], api.KindPod, "") }

// Orphans returns the cached objects of kind in ns without a controller owner.
func (c *Cache) Orphans(kind, ns string) []api.Object {
	return c.sorted(c.byOwner["orphan/"+ns], kind, ns)
}

// Get is a typed lister's Get: the cached object of key as a T, if the
// cache holds one.
func Get[T api.Object](c *Cache, k api.Key) (T, bool) {
	o, ok := c.objs[k]
	if !ok {
		var none T
		return none, false
	}
	t, ok := o.(T)
	return t, ok
}
