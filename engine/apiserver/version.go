package apiserver

import (
	"cmp"

	"github.com/stateflow/stateflow/engine/api"
)

// Version is the API server's objects as of one resourceVersion: an
// immutable snapshot. A write makes a new Version that shares all but the
// changed path of each tree with the one before, so keeping a Version
// costs only what changes after it: taking one is O(1).
//
// The trees are persistent B+trees (ptree), as the real API server's watch
// cache keeps its snapshots in B-trees (github.com/google/btree, in
// k8s.io/apiserver/pkg/storage/cacher/store_btree.go). Objects are kept
// per kind in (namespace, name) order, so a List is a range scan; the
// indexes the controllers need (objects by controller owner, pods by
// node) are versioned with them, once for every component.
//
// An informer cache is a view of the Version its last watch event carried
// (see WatchEvent.Version), or of a later one that holds the same objects
// of the kinds it watches (informer.Cache.Rebase); a checkpoint holds the
// store's.
//
// Every write but an Event's makes a Version, so a Version is small: the
// tree of pods, written at nearly every tick, and the indexes are in it;
// the other kinds' trees are in an array it shares with the Versions
// before it until one of those kinds is written. Events are not in it:
// no component watches them, and the store keeps them apart (events.go).
type Version struct {
	rv    int64
	pods  ptree[*entry]
	other *[numKinds]ptree[*entry] // every kind but pods and Events
	owner ptree[*indexEntry]       // (owner index, kind, namespace, name)
	node  ptree[*indexEntry]       // pods: (node, namespace, name)
}

// The kindIndex numbers of the kinds a Version holds itself, and of the
// Events, which it does not hold (the store keeps them: events.go).
const (
	podTree   = 4
	eventTree = 5
)

// tree is the tree of the kind numbered i.
func (v *Version) tree(i int) ptree[*entry] {
	switch i {
	case podTree:
		return v.pods
	case eventTree:
		return ptree[*entry]{}
	}
	if v.other == nil {
		return ptree[*entry]{}
	}
	return v.other[i]
}

// setTree makes t the tree of the kind numbered i in v, a new Version
// that shares other with the one it was copied from.
func (v *Version) setTree(i int, t ptree[*entry]) {
	switch i {
	case podTree:
		v.pods = t
	case eventTree:
		panic("apiserver: a Version holds no Events (the store keeps them)")
	default:
		other := new([numKinds]ptree[*entry])
		if v.other != nil {
			*other = *v.other
		}
		other[i] = t
		v.other = other
	}
}

// numKinds is how many kinds the store holds (kindIndex numbers them).
const numKinds = api.NumKinds

// kindIndex numbers the kinds the store holds: their line in the API's
// registry of kinds (api.KindIndex).
func kindIndex(kind string) (int, bool) { return api.KindIndex(kind) }

// Known reports whether the API server serves kind.
func Known(kind string) bool {
	_, ok := kindIndex(kind)
	return ok
}

// mustKindIndex is kindIndex of a kind the store holds: a new kind must
// be numbered there before anything can store it.
func mustKindIndex(kind string) int {
	i, ok := kindIndex(kind)
	if !ok {
		panic("apiserver: no tree for kind " + kind + " (add it to the API's registry of kinds, engine/api/kinds.go)")
	}
	return i
}

// entry is one stored object under its namespace and name.
type entry struct {
	ns, name string
	obj      api.Object
}

func lessEntry(a, b *entry) bool {
	if a.ns != b.ns {
		return a.ns < b.ns
	}
	return a.name < b.name
}

// indexEntry is one object's key under an index value. The indexes hold
// keys, not objects: a write that leaves an object's owner and node as
// they were (a pod's status, at nearly every tick) leaves the indexes
// alone, and listing them looks each key up, in order, mostly in the leaf
// of the one before (EachOwned).
type indexEntry struct {
	idx string
	key api.Key
}

func lessIndex(a, b *indexEntry) bool {
	switch {
	case a.idx != b.idx:
		return a.idx < b.idx
	case a.key.Kind != b.key.Kind:
		return a.key.Kind < b.key.Kind
	case a.key.Namespace != b.key.Namespace:
		return a.key.Namespace < b.key.Namespace
	}
	return a.key.Name < b.key.Name
}

// entryOps and indexOps order the trees; their separators keep the keys
// and drop the objects.
var (
	entryOps = &ptreeOps[*entry]{less: lessEntry, sep: func(e *entry) *entry { return &entry{ns: e.ns, name: e.name} }}
	indexOps = &ptreeOps[*indexEntry]{less: lessIndex, sep: func(e *indexEntry) *indexEntry { return e }} // an index entry is all key
)

// EmptyVersion is a Version with no objects, at resourceVersion 0.
func EmptyVersion() *Version {
	return &Version{}
}

// ResourceVersion is the resourceVersion of the last write the Version
// holds.
func (v *Version) ResourceVersion() int64 { return v.rv }

// Get returns the object with key k, if the Version holds it.
func (v *Version) Get(k api.Key) (api.Object, bool) { return v.Lookup(k, new(Pivot)) }

// Pivot is the scratch key of a lookup. A reader that looks up often (a
// cache, the store) keeps one, so a lookup allocates nothing.
type Pivot struct{ e entry }

// Lookup is Get with the caller's scratch pivot.
func (v *Version) Lookup(k api.Key, p *Pivot) (api.Object, bool) {
	i, ok := kindIndex(k.Kind)
	if !ok {
		return nil, false
	}
	p.e.ns, p.e.name = k.Namespace, k.Name
	e, ok := v.tree(i).Get(&p.e, entryOps)
	p.e = entry{}
	if !ok {
		return nil, false
	}
	return e.obj, true
}

// Count is how many objects of kind the Version holds.
func (v *Version) Count(kind string) int {
	if i, ok := kindIndex(kind); ok {
		return v.tree(i).Len()
	}
	return 0
}

// Len is how many objects the Version holds.
func (v *Version) Len() int {
	n := 0
	for i := range numKinds {
		n += v.tree(i).Len()
	}
	return n
}

// Ascend calls f for each object of kind in namespace ns ("" for all), in
// (namespace, name) order, until f returns false.
func (v *Version) Ascend(kind, ns string, f func(api.Object) bool) {
	i, ok := kindIndex(kind)
	if !ok || v.tree(i).Len() == 0 {
		return // no pivot to make: most controllers list kinds a cluster has none of at every pod event
	}
	if ns == "" {
		v.tree(i).Ascend(false, nil, entryOps, func(e *entry) bool { return f(e.obj) })
		return
	}
	v.tree(i).Ascend(true, &entry{ns: ns}, entryOps, func(e *entry) bool { return e.ns == ns && f(e.obj) })
}

// List returns the objects of kind in namespace ns ("" for all), sorted
// by namespace and name.
func (v *Version) List(kind, ns string) []api.Object {
	var out []api.Object
	if ns == "" {
		out = make([]api.Object, 0, v.Count(kind))
	}
	v.Ascend(kind, ns, func(o api.Object) bool { out = append(out, o); return true })
	return out
}

// ascendKeys calls f for each key of kind under idx in an index, in
// (namespace, name) order, until f returns false.
func ascendKeys(t ptree[*indexEntry], idx, kind string, f func(api.Key) bool) {
	t.Ascend(true, &indexEntry{idx: idx, key: api.Key{Kind: kind}}, indexOps, func(e *indexEntry) bool {
		return e.idx == idx && e.key.Kind == kind && f(e.key)
	})
}

// EachOwned calls f for each object of kind whose controller owner has
// uid, in (namespace, name) order, until f returns false. Owner "orphan/"
// + namespace holds the objects of that namespace without a controller.
// The keys come in the order of the kind's tree, so each lookup starts
// from the leaf the one before ended in (a ReplicaSet's pods lie side by
// side there).
func (v *Version) EachOwned(kind, uid string, f func(api.Object) bool) {
	i, ok := kindIndex(kind)
	if !ok {
		return
	}
	t := v.tree(i)
	var near *pnode[*entry]
	var e entry
	ascendKeys(v.owner, uid, kind, func(k api.Key) bool {
		e.ns, e.name = k.Namespace, k.Name
		got, ok := t.getNear(&e, entryOps, &near)
		if !ok {
			panic("apiserver: the owner index names " + k.String() + ", which the Version does not hold")
		}
		return f(got.obj)
	})
}

// CountOwned is how many objects of kind uid controls, counted from the
// index alone.
func (v *Version) CountOwned(kind, uid string) int {
	n := 0
	ascendKeys(v.owner, uid, kind, func(api.Key) bool { n++; return true })
	return n
}

// EachOnNode calls f for each pod bound to node, in (namespace, name)
// order, until f returns false.
func (v *Version) EachOnNode(node string, f func(*api.Pod) bool) {
	p := new(Pivot)
	v.node.Ascend(true, &indexEntry{idx: node, key: api.Key{Kind: api.KindPod}}, indexOps, func(e *indexEntry) bool {
		if e.idx != node || e.key.Kind != api.KindPod {
			return false
		}
		o, _ := v.Lookup(e.key, p)
		return f(o.(*api.Pod))
	})
}

// OrphanIndex is the owner index of the objects of namespace ns that have
// no controller.
func OrphanIndex(ns string) string { return "orphan/" + ns }

// ownerIndex is the controller owner's UID, or OrphanIndex of the
// namespace for objects without a controller, so orphans can be found
// without a scan.
func ownerIndex(o api.Object) string {
	if ref := o.Meta().ControllerRef(); ref != nil {
		return ref.UID
	}
	return OrphanIndex(o.Meta().Namespace)
}

// nodeIndex is the node a pod is bound to, "" for anything else.
func nodeIndex(o api.Object) string {
	if p, ok := o.(*api.Pod); ok {
		return p.Spec.NodeName
	}
	return ""
}

// indexed reports whether objects of kind are in the indexes: every kind
// a Version holds (Events, which no Version holds, are not).
func indexed(kind string) bool { return kind != api.KindEvent }

// With returns a Version that also holds objs, each replacing the object
// with its key if there is one, one resourceVersion later each; v is
// unchanged. The API server writes through with and without; tests build
// caches with With.
func (v *Version) With(objs ...api.Object) *Version {
	for _, o := range objs {
		old, _ := v.Get(api.KeyOf(o))
		v = v.with(o, old, v.rv+1)
	}
	return v
}

// Without returns a Version without the objects with these keys, one
// resourceVersion later each; v is unchanged.
func (v *Version) Without(keys ...api.Key) *Version {
	for _, k := range keys {
		if old, ok := v.Get(k); ok {
			v = v.without(old, v.rv+1)
		}
	}
	return v
}

// with returns the Version that holds o (a new object, or a new version
// of one) at resourceVersion rv, and leaves v as it was.
func (v *Version) with(o api.Object, old api.Object, rv int64) *Version {
	n := *v
	n.rv = rv
	i := mustKindIndex(o.GetKind())
	m := o.Meta()
	n.setTree(i, v.tree(i).With(&entry{ns: m.Namespace, name: m.Name, obj: o}, entryOps))
	reindex(&n, v, old, o)
	return &n
}

// withNew is with for a created object: it also reports whether o is new,
// so that a create looks for its name and inserts in one descent. When
// the name is taken the returned Version is to be dropped.
func (v *Version) withNew(o api.Object, rv int64) (*Version, bool) {
	i := mustKindIndex(o.GetKind())
	n := v.with(o, nil, rv)
	return n, n.tree(i).Len() > v.tree(i).Len()
}

// without returns the Version without old (deleted) at resourceVersion
// rv, and leaves v as it was.
func (v *Version) without(old api.Object, rv int64) *Version {
	n := *v
	n.rv = rv
	i := mustKindIndex(old.GetKind())
	m := old.Meta()
	t, _ := v.tree(i).Without(&entry{ns: m.Namespace, name: m.Name}, entryOps)
	n.setTree(i, t)
	reindex(&n, v, old, nil)
	return &n
}

// reindex sets n's indexes to v's with the object moved from old's index
// entries to cur's (either may be nil), copying only the trees that change.
func reindex(n, v *Version, old, cur api.Object) {
	obj := cmp.Or(cur, old)
	if !indexed(obj.GetKind()) {
		return
	}
	k := api.KeyOf(obj)
	var oldOwner, curOwner, oldNode, curNode string
	if old != nil {
		oldOwner, oldNode = ownerIndex(old), nodeIndex(old)
	}
	if cur != nil {
		curOwner, curNode = ownerIndex(cur), nodeIndex(cur)
	}
	n.owner = move(v.owner, k, old != nil, oldOwner, cur != nil, curOwner)
	n.node = move(v.node, k, oldNode != "", oldNode, cur != nil, curNode)
}

// move returns t with k's entry moved from index value from (if had) to
// to (if has, and to is not ""): a new tree, or t itself when the value
// does not change.
func move(t ptree[*indexEntry], k api.Key, had bool, from string, has bool, to string) ptree[*indexEntry] {
	has = has && to != ""
	if had == has && (!had || from == to) {
		return t
	}
	if had {
		t, _ = t.Without(&indexEntry{idx: from, key: k}, indexOps)
	}
	if has {
		t = t.With(&indexEntry{idx: to, key: k}, indexOps)
	}
	return t
}
