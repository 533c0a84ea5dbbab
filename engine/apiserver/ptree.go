package apiserver

// ptree is a persistent B+tree: an immutable sorted set of items. Every
// write returns a new tree that shares all but the copied path from the
// root to the changed leaf with the old one, so keeping the old tree (a
// Version, an informer's view, a checkpoint) costs nothing until it is
// the only holder of a path.
//
// It replaces github.com/google/btree's copy-on-write BTreeG here because
// every write of the store is to a tree that a Version keeps: google/btree
// then clones two copy-on-write contexts and the tree header and copies
// each node on the path as three allocations (the node, its items, its
// children); a ptree node is one allocation with its items inline, and a
// lookup follows one pointer per level instead of three.
//
// Items live in the leaves; an internal node holds, between two children,
// a separator no greater than every item of the right child and greater
// than every item of the left one (a copy of an item without its payload,
// made by sep, so a separator never keeps a deleted object alive).
// Deleting never merges nodes: a node that empties is dropped from its
// parent and an internal node left with one child is replaced by it, which
// keeps every search correct; the objects' keys are spread evenly enough
// that leaves refill. The Events' keys only grow (ptreeOps.appends), so
// the room an expiry leaves in an old leaf is not refilled: a leaf that
// keeps one Event a repeat keeps alive stays nearly empty until that
// Event expires too.
//
// A ptree is a small value (a root and a count): writes return a new one
// without allocating a header.
//
// A writer that keeps no earlier tree may own the nodes it made: the
// *Owned writes mutate in place every node stamped with the writer's
// generation (its owner stamp) and copy, stamping them, the nodes of
// anyone else, as google/btree's copy-on-write contexts do. Taking a
// snapshot of such a tree is then giving the writer a new stamp: the
// snapshot keeps nodes nobody changes any more. The plain writes never
// mutate (their stamp is 0, which no writer owns).
type ptree[T any] struct {
	root   *pnode[T]
	length int
}

// pmax is how many items a leaf and how many separators an internal node
// holds at most.
const pmax = 8

// pnode is a leaf (kids == nil: items[:n] are the items) or an internal
// node (items[:n] separate kids[:n+1]).
type pnode[T any] struct {
	n     int32
	gen   uint32 // the owner stamp of the writer that made it, 0 for none (2^32 stamps: two per checkpoint, 2^31 checkpoints)
	items [pmax]T
	kids  *[pmax + 1]*pnode[T]
}

// ptreeOps are the order of a ptree's items and how to make a separator.
type ptreeOps[T any] struct {
	less func(a, b T) bool
	sep  func(T) T // the item's key without its payload
	// appends says items mostly come in ascending order: a full node
	// that gets a new last item splits at its end (a leaf keeps its
	// items and starts a new one, an internal node keeps all but one),
	// not in halves, so the nodes an ascending run fills stay full.
	appends bool
}

func (nd *pnode[T]) leaf() bool { return nd.kids == nil }

// lowerBound is the first index of items[:n] not less than x.
func (nd *pnode[T]) lowerBound(x T, less func(a, b T) bool) int {
	lo, hi := 0, int(nd.n)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if less(nd.items[m], x) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// child is the index of the child of an internal node whose range holds
// x: the number of separators not greater than x.
func (nd *pnode[T]) child(x T, less func(a, b T) bool) int {
	lo, hi := 0, int(nd.n)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if less(x, nd.items[m]) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo
}

// inode is an internal node with its children array in the same
// allocation: kids points at arr.
type inode[T any] struct {
	pnode[T]
	arr [pmax + 1]*pnode[T]
}

// newInternal returns an empty internal node stamped gen: one allocation.
func newInternal[T any](gen uint32) *pnode[T] {
	in := &inode[T]{}
	in.kids, in.gen = &in.arr, gen
	return &in.pnode
}

// copyNode returns a copy of nd that the caller may change, stamped gen:
// one allocation.
func (nd *pnode[T]) copyNode(gen uint32) *pnode[T] {
	if nd.kids == nil {
		return &pnode[T]{n: nd.n, gen: gen, items: nd.items}
	}
	in := &inode[T]{arr: *nd.kids}
	in.n, in.gen, in.items, in.kids = nd.n, gen, nd.items, &in.arr
	return &in.pnode
}

// mutable returns nd itself when the writer stamped gen made it, else a
// copy the writer owns.
func (nd *pnode[T]) mutable(gen uint32) *pnode[T] {
	if gen != 0 && nd.gen == gen {
		return nd
	}
	return nd.copyNode(gen)
}

// Len is how many items the tree holds.
func (t ptree[T]) Len() int { return t.length }

// Get returns the item equal to x, if the tree holds one.
func (t ptree[T]) Get(x T, ops *ptreeOps[T]) (T, bool) {
	nd := t.root
	for nd != nil {
		if nd.leaf() {
			i := nd.lowerBound(x, ops.less)
			if i < int(nd.n) && !ops.less(x, nd.items[i]) {
				return nd.items[i], true
			}
			break
		}
		nd = nd.kids[nd.child(x, ops.less)]
	}
	var none T
	return none, false
}

// getNear is Get starting from *near, a leaf of t (or nil), when x lies
// within that leaf's items, and from the root otherwise; it sets *near to
// the leaf it ends in. Walking keys in order, a lookup then costs one
// search of a leaf while they stay in one.
func (t ptree[T]) getNear(x T, ops *ptreeOps[T], near **pnode[T]) (T, bool) {
	nd := *near
	if nd == nil || ops.less(x, nd.items[0]) || ops.less(nd.items[nd.n-1], x) {
		nd = t.root
		for nd != nil && !nd.leaf() {
			nd = nd.kids[nd.child(x, ops.less)]
		}
		if nd == nil {
			var none T
			return none, false
		}
		*near = nd
	}
	i := nd.lowerBound(x, ops.less)
	if i < int(nd.n) && !ops.less(x, nd.items[i]) {
		return nd.items[i], true
	}
	var none T
	return none, false
}

// With returns a tree that holds x in place of the item equal to it, if
// any; t is unchanged.
func (t ptree[T]) With(x T, ops *ptreeOps[T]) ptree[T] { return t.WithOwned(x, ops, 0) }

// WithOwned is With by the writer stamped gen: the nodes it made are
// changed in place, so t is changed too unless gen is 0.
func (t ptree[T]) WithOwned(x T, ops *ptreeOps[T], gen uint32) ptree[T] {
	out, _ := t.put(x, ops, gen, true)
	return out
}

// AddOwned is WithOwned of an item the tree must not hold yet: when it
// holds one equal to x, it returns t as it was and false, in the one
// descent that looked.
func (t ptree[T]) AddOwned(x T, ops *ptreeOps[T], gen uint32) (ptree[T], bool) {
	return t.put(x, ops, gen, false)
}

// put inserts x, replacing an equal item if replace, else leaving the
// tree as it was and reporting false.
func (t ptree[T]) put(x T, ops *ptreeOps[T], gen uint32, replace bool) (ptree[T], bool) {
	if t.root == nil {
		root := &pnode[T]{n: 1, gen: gen}
		root.items[0] = x
		return ptree[T]{root: root, length: 1}, true
	}
	nd, right, sep, replaced := t.root.insert(x, ops, gen, replace)
	if replaced && !replace {
		return t, false
	}
	if right != nil {
		root := newInternal[T](gen)
		root.n = 1
		root.items[0] = sep
		root.kids[0], root.kids[1] = nd, right
		nd = root
	}
	n := t.length
	if !replaced {
		n++
	}
	return ptree[T]{root: nd, length: n}, true
}

// insert returns nd with x inserted or replaced, and, when nd had to
// split, the new right sibling and the separator between the two.
func (nd *pnode[T]) insert(x T, ops *ptreeOps[T], gen uint32, replace bool) (out, right *pnode[T], sep T, replaced bool) {
	if nd.leaf() {
		i := nd.lowerBound(x, ops.less)
		if i < int(nd.n) && !ops.less(x, nd.items[i]) {
			if !replace {
				return nd, nil, sep, true
			}
			c := nd.mutable(gen)
			c.items[i] = x
			return c, nil, sep, true
		}
		return nd.mutable(gen).insertAt(i, x, nil, ops)
	}
	i := nd.child(x, ops.less)
	kid, kidRight, kidSep, replaced := nd.kids[i].insert(x, ops, gen, replace)
	if replaced && !replace {
		return nd, nil, sep, true
	}
	c := nd.mutable(gen)
	c.kids[i] = kid
	if kidRight == nil {
		return c, nil, sep, replaced
	}
	out, right, sep, _ = c.insertAt(i, kidSep, kidRight, ops)
	return out, right, sep, replaced
}

// insertAt puts item x at index i of c, a copy nd owns, and (in an
// internal node) the child right after it, splitting c if it is full.
func (c *pnode[T]) insertAt(i int, x T, right *pnode[T], ops *ptreeOps[T]) (out, newRight *pnode[T], sep T, replaced bool) {
	if n := int(c.n); n < pmax {
		copy(c.items[i+1:n+1], c.items[i:n])
		c.items[i] = x
		if c.kids != nil {
			copy(c.kids[i+2:n+2], c.kids[i+1:n+1])
			c.kids[i+1] = right
		}
		c.n++
		return c, nil, sep, false
	}
	// Full: lay out the pmax+1 items (and pmax+2 children) and cut them
	// in two halves, or, for a new last item in a tree of ascending
	// writes (ops.appends), at the end.
	var items [pmax + 1]T
	copy(items[:i], c.items[:i])
	items[i] = x
	copy(items[i+1:], c.items[i:pmax])
	atEnd := ops.appends && i == pmax
	if c.leaf() {
		half := (pmax + 1) / 2
		if atEnd {
			half = pmax
		}
		r := &pnode[T]{n: int32(pmax + 1 - half), gen: c.gen}
		copy(r.items[:], items[half:])
		c.items = [pmax]T{}
		copy(c.items[:], items[:half])
		c.n = int32(half)
		return c, r, ops.sep(r.items[0]), false
	}
	var kids [pmax + 2]*pnode[T]
	copy(kids[:i+1], c.kids[:i+1])
	kids[i+1] = right
	copy(kids[i+2:], c.kids[i+1:pmax+1])
	mid := (pmax + 1) / 2 // items[mid] moves up
	if atEnd {
		mid = pmax - 1 // the right node starts with two children
	}
	r := newInternal[T](c.gen)
	r.n = int32(pmax - mid)
	copy(r.items[:], items[mid+1:])
	copy(r.kids[:], kids[mid+1:])
	c.items, *c.kids = [pmax]T{}, [pmax + 1]*pnode[T]{}
	copy(c.items[:], items[:mid])
	copy(c.kids[:], kids[:mid+1])
	c.n = int32(mid)
	return c, r, items[mid], false
}

// Without returns a tree without the item equal to x, and whether there
// was one; t is unchanged.
func (t ptree[T]) Without(x T, ops *ptreeOps[T]) (ptree[T], bool) { return t.WithoutOwned(x, ops, 0) }

// WithoutOwned is Without by the writer stamped gen (see WithOwned).
func (t ptree[T]) WithoutOwned(x T, ops *ptreeOps[T], gen uint32) (ptree[T], bool) {
	if t.root == nil {
		return t, false
	}
	nd, found := t.root.remove(x, ops, gen)
	if !found {
		return t, false
	}
	return ptree[T]{root: nd, length: t.length - 1}, true
}

// remove returns nd without the item equal to x (nil when nd empties),
// and whether nd held it.
func (nd *pnode[T]) remove(x T, ops *ptreeOps[T], gen uint32) (*pnode[T], bool) {
	n := int(nd.n)
	if nd.leaf() {
		i := nd.lowerBound(x, ops.less)
		if i == n || ops.less(x, nd.items[i]) {
			return nd, false
		}
		if n == 1 {
			return nil, true
		}
		if gen != 0 && nd.gen == gen {
			copy(nd.items[i:], nd.items[i+1:n])
			var none T
			nd.items[n-1] = none
			nd.n--
			return nd, true
		}
		c := &pnode[T]{n: nd.n - 1, gen: gen}
		copy(c.items[:i], nd.items[:i])
		copy(c.items[i:], nd.items[i+1:n])
		return c, true
	}
	i := nd.child(x, ops.less)
	kid, found := nd.kids[i].remove(x, ops, gen)
	if !found {
		return nd, false
	}
	if kid != nil {
		c := nd.mutable(gen)
		c.kids[i] = kid
		return c, true
	}
	// The child emptied: drop it with the separator on one side of it.
	if n == 1 {
		return nd.kids[1-i], true
	}
	gone := max(i-1, 0) // the separator that goes with child i
	if gen != 0 && nd.gen == gen {
		copy(nd.items[gone:], nd.items[gone+1:n])
		copy(nd.kids[i:], nd.kids[i+1:n+1])
		var none T
		nd.items[n-1], nd.kids[n] = none, nil
		nd.n--
		return nd, true
	}
	c := newInternal[T](gen)
	c.n = nd.n - 1
	copy(c.items[:gone], nd.items[:gone])
	copy(c.items[gone:], nd.items[gone+1:n])
	copy(c.kids[:i], nd.kids[:i])
	copy(c.kids[i:], nd.kids[i+1:n+1])
	return c, true
}

// Ascend calls f for each item in order, from the first not less than
// pivot (every item when from is false), until f returns false.
func (t ptree[T]) Ascend(from bool, pivot T, ops *ptreeOps[T], f func(T) bool) {
	if t.root != nil {
		t.root.ascend(from, pivot, ops.less, f)
	}
}

func (nd *pnode[T]) ascend(from bool, pivot T, less func(a, b T) bool, f func(T) bool) bool {
	if nd.leaf() {
		i := 0
		if from {
			i = nd.lowerBound(pivot, less)
		}
		for ; i < int(nd.n); i++ {
			if !f(nd.items[i]) {
				return false
			}
		}
		return true
	}
	c := 0
	if from {
		c = nd.child(pivot, less)
	}
	for first := c; c <= int(nd.n); c++ {
		if !nd.kids[c].ascend(from && c == first, pivot, less, f) {
			return false
		}
	}
	return true
}
