package engine

// This file is each component's work queue, with the semantics and the
// vocabulary of client-go's workqueue (util/workqueue): Add, AddAfter,
// AddRateLimited with the per-item exponential failure rate limiter, and
// Forget. The queued keys live in the engine's agenda.

import (
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
