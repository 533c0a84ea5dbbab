package engine

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
)

type itemKind uint8

const (
	kindDelivery itemKind = iota // the oldest watch event in a component's inbox reaching its cache
	kindWork                     // a key in a component's work queue
	kindTimer                    // an AddAfter whose delay ends: the key is queued then
	kindAction                   // a scenario action
	kindTraffic                  // the end of a traffic interval: its report
	kindClient                   // a running client's next step (kubectl drain)
)

// item is one entry of the agenda, ordered by (at, seq).
type item struct {
	at     int64
	seq    uint64
	kind   itemKind
	comp   int // component index
	key    api.Key
	action int // the action, the traffic stream or the client
}

// agenda is a binary min-heap of items ordered by (at, seq). The heap
// holds small slots and the items live in a slab, so sifting moves 24
// bytes instead of a whole item and nothing is boxed in an interface.
//
// A pop leaves the root empty (hole) until the agenda is next used: a
// push then puts its item there and sifts it down once, instead of the
// pop moving the last slot up and sifting it down and the push sifting
// its own up. A watch delivery pops its component's inbox head and
// pushes the next one, so most pops are followed by a push. The order
// items come out in is the heap's (at, seq) order either way.
type agenda struct {
	slots []slot
	items []item
	free  []int32 // unused indexes of items
	hole  bool    // slots[0] was popped and is not filled yet
}

// fill closes a hole left by pop the way pop would have: the last slot
// goes to the root and sifts down.
func (a *agenda) fill() {
	if !a.hole {
		return
	}
	a.hole = false
	last := len(a.slots) - 1
	a.slots[0] = a.slots[last]
	a.slots = a.slots[:last]
	if last > 0 {
		a.down(0)
	}
}

type slot struct {
	at  int64
	seq uint64
	idx int32
}

func (s slot) before(o slot) bool { return s.at < o.at || s.at == o.at && s.seq < o.seq }

// Len returns the number of items.
func (a *agenda) Len() int {
	if a.hole {
		return len(a.slots) - 1
	}
	return len(a.slots)
}

// NextAt returns the time of the earliest item; the agenda must not be
// empty.
func (a *agenda) NextAt() int64 {
	a.fill()
	return a.slots[0].at
}

func (a *agenda) push(it item) {
	var idx int32
	if n := len(a.free); n > 0 {
		idx, a.free = a.free[n-1], a.free[:n-1]
		a.items[idx] = it
	} else {
		idx = int32(len(a.items))
		a.items = append(a.items, it)
	}
	if a.hole {
		a.hole = false
		a.slots[0] = slot{at: it.at, seq: it.seq, idx: idx}
		a.down(0)
		return
	}
	a.slots = append(a.slots, slot{at: it.at, seq: it.seq, idx: idx})
	a.up(len(a.slots) - 1)
}

// peek returns the earliest item without removing it; the agenda must not
// be empty.
func (a *agenda) peek() item {
	a.fill()
	return a.items[a.slots[0].idx]
}

// pop removes and returns the earliest item; the agenda must not be empty.
func (a *agenda) pop() item {
	a.fill()
	top := a.slots[0]
	a.hole = true
	it := a.items[top.idx]
	a.items[top.idx] = item{}
	a.free = append(a.free, top.idx)
	return it
}

func (a *agenda) up(i int) {
	s := a.slots
	for i > 0 {
		parent := (i - 1) / 2
		if !s[i].before(s[parent]) {
			return
		}
		s[i], s[parent] = s[parent], s[i]
		i = parent
	}
}

func (a *agenda) down(i int) {
	s := a.slots
	for {
		child := 2*i + 1
		if child >= len(s) {
			return
		}
		if r := child + 1; r < len(s) && s[r].before(s[child]) {
			child = r
		}
		if !s[child].before(s[i]) {
			return
		}
		s[i], s[child] = s[child], s[i]
		i = child
	}
}

// clone copies the agenda compactly (only the live items, no free slots:
// checkpoints keep many clones); items are values, so the copy is
// independent.
func (a *agenda) clone() agenda {
	a.fill()
	c := agenda{slots: slices.Clone(a.slots), items: make([]item, len(a.slots))}
	for i := range c.slots {
		c.items[i] = a.items[c.slots[i].idx]
		c.slots[i].idx = int32(i)
	}
	return c
}

func (w *world) schedule(it item) {
	w.seq++
	it.seq = w.seq
	w.agenda.push(it)
}
