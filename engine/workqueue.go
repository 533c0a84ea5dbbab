package engine

// This file is each component's work queue, with the semantics and the
// vocabulary of client-go's workqueue (util/workqueue): Add, AddAfter,
// AddRateLimited with the per-item exponential failure rate limiter, and
// Forget. The queued keys live in the engine's agenda.

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
)

// workKey identifies a key in one component's queue.
type workKey struct {
	comp int
	key  api.Key
}

// enqueue queues key for comp at time at, with client-go workqueue
// semantics: a key already queued is not queued twice (Add), and a delayed
// add (AddAfter) waits as a timer that keeps only the earliest time per key
// and queues the key when it fires, even if the key was processed since.
// Add and AddAfter are it at now and at now+delay.
func (w *world) enqueue(comp int, key api.Key, at int64) { w.enqueueBy(comp, key, at, nil) }

// enqueueBy is enqueue for a key a watch event about by queued (nil for
// none): the key remembers by's key, and a timer hands it on when it
// fires, so the tick that handles the key reads what queued it
// (liveTick.queuedReads).
func (w *world) enqueueBy(comp int, key api.Key, at int64, by api.Object) {
	wk := workKey{comp, key}
	if at <= w.now {
		w.add(wk, by)
		return
	}
	t, ok := w.waiting[wk]
	if ok && t.at <= at {
		if by != nil {
			w.remember(&t, key, api.KeyOf(by))
			w.waiting[wk] = t
		}
		return
	}
	w.schedule(item{at: at, kind: kindTimer, comp: comp, key: key})
	next := pendingEntry{at: at, seq: w.seq, by: t.by, byGen: t.byGen}
	if by != nil {
		w.remember(&next, key, api.KeyOf(by))
	}
	w.waiting[wk] = next
}

// add puts the key in the queue now unless it is already there, and
// remembers the object whose watch event queued it (by, nil for none).
func (w *world) add(wk workKey, by api.Object) {
	p, queued := w.pending[wk]
	if !queued {
		w.schedule(item{at: w.now, kind: kindWork, comp: wk.comp, key: wk.key})
		p = pendingEntry{at: w.now, seq: w.seq}
	} else if by == nil {
		return
	}
	if by != nil {
		w.remember(&p, wk.key, api.KeyOf(by))
	}
	w.pending[wk] = p
}

// fire queues a timer's key now, with the objects that set it.
func (w *world) fire(wk workKey, t pendingEntry) {
	w.add(wk, nil)
	p := w.pending[wk]
	for _, k := range t.by {
		w.remember(&p, wk.key, k)
	}
	w.pending[wk] = p
}

// pendingEntry is a queued key or a timer: when, the agenda item's
// sequence number, and for a queued key the objects whose watch events
// queued it since it was last handled (at most maxQueuedBy). byGen is
// the world's generation that allocated by: another world's (a
// checkpoint shares the entries) copies it before adding to it.
type pendingEntry struct {
	at    int64
	seq   uint64
	by    []api.Key
	byGen uint64
}

// maxQueuedBy bounds the objects a queued key remembers.
const maxQueuedBy = 32

// remember adds k to the objects that queued key, once, unless k is the
// key itself (the tick reads its own object) or the list is full.
func (w *world) remember(p *pendingEntry, key, k api.Key) {
	if k == key || len(p.by) >= maxQueuedBy || slices.Contains(p.by, k) {
		return
	}
	if p.byGen != w.gen {
		p.by, p.byGen = slices.Clip(p.by), w.gen // shared: the append copies
	}
	p.by = append(p.by, k)
}

// queue is the reconcile.Queue handed to Observe: by is the object of
// the watch event being observed.
type queue struct {
	w    *world
	comp int
	now  int64
	by   api.Object
}

func (q queue) Add(key api.Key)                { q.w.enqueueBy(q.comp, key, q.now, q.by) }
func (q queue) AddAfter(key api.Key, ms int64) { q.w.enqueueBy(q.comp, key, q.now+ms, q.by) }
func (q queue) Now() int64                     { return q.now }

// addRateLimited is client-go's AddRateLimited: the key comes back after
// the rate limiter's delay for its next failure. It returns the delay.
func (w *world) addRateLimited(comp int, key api.Key) int64 {
	wk := workKey{comp, key}
	w.failures[wk]++
	base, limit := int64(5), int64(1_000_000)
	if b, ok := w.comps[comp].(backoffLimiter); ok {
		base, limit = b.FailureBackoff()
	}
	delay := itemExponentialFailureDelay(w.failures[wk], base, limit)
	w.enqueue(comp, key, w.now+delay)
	return delay
}

// forget is client-go's Forget: the key's failures are forgotten, so its
// next failure waits the shortest delay again.
func (w *world) forget(comp int, key api.Key) { delete(w.failures, workKey{comp, key}) }

// itemExponentialFailureDelay is the delay of client-go's default
// controller rate limiter (ItemExponentialFailureRateLimiter.When) for the
// n-th failure of an item: base doubling up to limit (5 ms and 1000 s
// unless the component has its own, see backoffLimiter).
func itemExponentialFailureDelay(failures int, base, limit int64) int64 {
	d := base
	for i := 1; i < failures && d < limit; i++ {
		d *= 2
	}
	return min(d, limit)
}

// backoffLimiter is a component whose work queue has its own
// exponential rate limiter: base delay and limit in virtual ms.
type backoffLimiter interface {
	FailureBackoff() (base, limit int64)
}
