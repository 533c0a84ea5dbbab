package engine

import (
	"container/heap"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

type itemKind uint8

const (
	kindDelivery itemKind = iota // a watch event reaching a component's cache
	kindWork                     // a key in a component's work queue
	kindTimer                    // an AddAfter whose delay ends: the key is queued then
	kindAction                   // a scenario action
)

// item is one entry of the agenda, ordered by (at, seq).
type item struct {
	at     int64
	seq    uint64
	kind   itemKind
	comp   int // component index
	key    api.Key
	ev     apiserver.WatchEvent
	action int
}

type agenda []item

func (a agenda) Len() int { return len(a) }
func (a agenda) Less(i, j int) bool {
	if a[i].at != a[j].at {
		return a[i].at < a[j].at
	}
	return a[i].seq < a[j].seq
}
func (a agenda) Swap(i, j int) { a[i], a[j] = a[j], a[i] }
func (a *agenda) Push(x any)   { *a = append(*a, x.(item)) }
func (a *agenda) Pop() any {
	old := *a
	n := len(old)
	it := old[n-1]
	old[n-1] = item{}
	*a = old[:n-1]
	return it
}

func (w *world) schedule(it item) {
	w.seq++
	it.seq = w.seq
	heap.Push(&w.agenda, it)
}

// workKey identifies a key in one component's queue.
type workKey struct {
	comp int
	key  api.Key
}

// enqueue queues key for comp at time at, with client-go workqueue
// semantics: a key already queued is not queued twice (Add), and a delayed
// add (AddAfter) waits as a timer that keeps only the earliest time per key
// and queues the key when it fires, even if the key was processed since.
func (w *world) enqueue(comp int, key api.Key, at int64) {
	wk := workKey{comp, key}
	if at <= w.now {
		w.add(wk)
		return
	}
	if t, ok := w.waiting[wk]; ok && t.at <= at {
		return
	}
	w.schedule(item{at: at, kind: kindTimer, comp: comp, key: key})
	w.waiting[wk] = pendingEntry{at: at, seq: w.seq}
}

// add puts the key in the queue now unless it is already there.
func (w *world) add(wk workKey) {
	if _, queued := w.pending[wk]; queued {
		return
	}
	w.schedule(item{at: w.now, kind: kindWork, comp: wk.comp, key: wk.key})
	w.pending[wk] = pendingEntry{at: w.now, seq: w.seq}
}

type pendingEntry struct {
	at  int64
	seq uint64
}

// queue is the reconcile.Queue handed to Observe.
type queue struct {
	w    *world
	comp int
	now  int64
}

func (q queue) Add(key api.Key)                { q.w.enqueue(q.comp, key, q.now) }
func (q queue) AddAfter(key api.Key, ms int64) { q.w.enqueue(q.comp, key, q.now+ms) }
func (q queue) Now() int64                     { return q.now }
