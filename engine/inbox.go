package engine

import (
	"cmp"
	"slices"

	"github.com/stateflow/stateflow/engine/apiserver"
)

// A component's watch deliveries arrive in the order they were sent:
// each write reaches a component after that component's fixed latency,
// so its pending deliveries are already sorted by (at, seq). They wait in
// the component's inbox, a FIFO, and the agenda holds one item per
// component with mail: its head, under the head's own (at, seq). The
// agenda's order is therefore exactly what it would be with every
// delivery in it, while the heap stays as small as the number of
// components and a checkpoint copies 24 bytes per pending delivery
// instead of a whole agenda item. A write's event is shared by all its
// deliveries.

// delivery is one watch event on its way to one component.
type delivery struct {
	at  int64
	seq uint64
	ev  *apiserver.WatchEvent
}

// inbox is a component's pending deliveries, oldest first: a ring of
// n deliveries from q[head], wrapping at len(q). A ring never moves what
// it holds to make room at the back, and keeps its slice from one burst
// to the next: a ReplicaSet creating 10,000 pods sends each pod watcher
// 10,000 deliveries in a few ticks, and a slice that starts over after
// every burst grows by doubling again each time.
type inbox struct {
	q       []delivery
	head, n int
}

func (b *inbox) empty() bool { return b.n == 0 }

// at is the i-th pending delivery, 0 the oldest.
func (b *inbox) at(i int) *delivery {
	j := b.head + i
	if j >= len(b.q) {
		j -= len(b.q)
	}
	return &b.q[j]
}

func (b *inbox) push(d delivery) {
	if b.n == len(b.q) {
		b.grow()
	}
	b.n++
	*b.at(b.n - 1) = d
}

// grow doubles the ring, its pending deliveries first in order.
func (b *inbox) grow() {
	q := make([]delivery, max(8, 2*len(b.q)))
	for i := range b.n {
		q[i] = *b.at(i)
	}
	b.q, b.head = q, 0
}

// keptCapacity is the most deliveries' room an inbox keeps once it has
// drained: a larger ring (a burst at 150,000 pods) is let go.
const keptCapacity = 1 << 14

// pop removes and returns the oldest delivery; the inbox must not be
// empty.
func (b *inbox) pop() delivery {
	d := b.q[b.head]
	b.q[b.head] = delivery{}
	b.head++
	if b.head == len(b.q) {
		b.head = 0
	}
	b.n--
	if b.n == 0 {
		b.head = 0
		if len(b.q) > keptCapacity {
			b.q = nil
		}
	}
	return d
}

// clone copies the pending deliveries compactly.
func (b *inbox) clone() inbox {
	if b.empty() {
		return inbox{}
	}
	c := inbox{q: make([]delivery, b.n), n: b.n}
	for i := range b.n {
		c.q[i] = *b.at(i)
	}
	return c
}

func cloneInboxes(bs []inbox) []inbox {
	out := make([]inbox, len(bs))
	for i := range bs {
		out[i] = bs[i].clone()
	}
	return out
}

// deliver sends ev to component i after its latency.
func (w *world) deliver(i int, ev *apiserver.WatchEvent) {
	w.seq++
	d := delivery{at: w.now + w.latency[i], seq: w.seq, ev: ev}
	b := &w.inboxes[i]
	if b.empty() {
		w.agenda.push(item{at: d.at, seq: d.seq, kind: kindDelivery, comp: i})
	}
	b.push(d)
}

// received takes the delivery a kindDelivery agenda item stands for off
// component i's inbox and puts the next one, if any, on the agenda.
func (w *world) received(i int) apiserver.WatchEvent {
	b := &w.inboxes[i]
	d := b.pop()
	if !b.empty() {
		next := b.q[b.head]
		w.agenda.push(item{at: next.at, seq: next.seq, kind: kindDelivery, comp: i})
	}
	return *d.ev
}

// rebaseIdle moves the view of every component without pending deliveries
// to the store's Version (informer.Cache.Rebase): such a component has
// been delivered every write it watches, so nothing it can see differs.
// A component a checkpoint shares is rebased in place: it has received
// nothing since that checkpoint and has nothing pending now, so no write
// it watches happened since, and the Version is as good a view for the
// checkpoint.
func (w *world) rebaseIdle() {
	cur := w.store.Current()
	for i, c := range w.comps {
		if w.inboxes[i].empty() {
			c.Cache().Rebase(cur)
		}
	}
}

// checkpoint is a clone of the world to keep: its pending deliveries
// keep their writes without the Versions after them (a copy of each
// event, shared by its deliveries), which restore rebuilds. Each of those
// Versions would keep the tree paths every later write copied.
func (w *world) checkpoint() *world {
	w.rebaseIdle()
	c := w.clone()
	copies := c.pendingCopies()
	c.eachPending(func(d *delivery) {
		d.ev = copies.of(d.ev, func(s *apiserver.WatchEvent) { s.Version = nil })
	})
	return c
}

// eventCopies gives each pending watch event one copy, shared by its
// deliveries. A write has one event and one resourceVersion, so the
// copies are found by resourceVersion, in a slice over the pending ones'
// range (a map when that range is sparse).
type eventCopies struct {
	low    int64
	byRV   []*apiserver.WatchEvent
	sparse map[int64]*apiserver.WatchEvent
	made   []*apiserver.WatchEvent // in the order they were made
}

// pendingCopies makes room for copies of the world's pending events.
func (w *world) pendingCopies() *eventCopies {
	low, high, n := int64(0), int64(-1), 0
	w.eachPending(func(d *delivery) {
		if n == 0 || d.ev.RV < low {
			low = d.ev.RV
		}
		high = max(high, d.ev.RV)
		n++
	})
	c := &eventCopies{low: low}
	if span := high - low + 1; span <= int64(8*n+1024) {
		c.byRV = make([]*apiserver.WatchEvent, max(span, 0))
	} else {
		c.sparse = map[int64]*apiserver.WatchEvent{}
	}
	return c
}

// of returns the copy of ev, made (and changed by fix) the first time.
func (c *eventCopies) of(ev *apiserver.WatchEvent, fix func(*apiserver.WatchEvent)) *apiserver.WatchEvent {
	if c.byRV != nil {
		if cp := c.byRV[ev.RV-c.low]; cp != nil {
			return cp
		}
	} else if cp, ok := c.sparse[ev.RV]; ok {
		return cp
	}
	cp := new(apiserver.WatchEvent)
	*cp = *ev
	fix(cp)
	if c.byRV != nil {
		c.byRV[ev.RV-c.low] = cp
	} else {
		c.sparse[ev.RV] = cp
	}
	c.made = append(c.made, cp)
	return cp
}

// restore is a clone of a checkpoint to run: its pending events, copied
// (the checkpoint's stay as they are), get their Versions back from the
// store's (apiserver.Rebuild).
func (w *world) restore() *world {
	c := w.clone()
	copies := c.pendingCopies()
	c.eachPending(func(d *delivery) { d.ev = copies.of(d.ev, func(*apiserver.WatchEvent) {}) })
	events := copies.made
	slices.SortFunc(events, func(a, b *apiserver.WatchEvent) int { return cmp.Compare(a.RV, b.RV) })
	apiserver.Rebuild(c.store.Current(), events)
	return c
}

// eachPending calls f with each pending delivery of every inbox, which
// the world owns (a clone's inboxes are its own copies).
func (w *world) eachPending(f func(*delivery)) {
	for i := range w.inboxes {
		b := &w.inboxes[i]
		for j := range b.n {
			f(b.at(j))
		}
	}
}
