package conformance

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/util/workqueue"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// The Job, CronJob and TTL-after-finished controllers come back to a key
// after a delay they compute (the pod failure backoff, the active
// deadline, the next schedule time, the time to live): the harness
// compares that requeue too. Upstream's is what the sync left in its work
// queue (recordingQueue) or, for the CronJob controller, what its sync
// returns; the engine's is the Result its Reconcile returned, which the
// trace does not keep, so the harness runs the tick once more on a copy
// of the component as it was before (dryTick). Requeues are compared
// only for a tick without an error: after an error both queues wait for
// their rate limiter instead.

// recordingQueue is a controller's work queue that records, per key, the
// earliest delay it was asked to add the key after (a delaying queue
// keeps only the earliest).
type recordingQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	mu    sync.Mutex
	after map[string]time.Duration
	// calls are the delays of every add, per key, in order.
	calls map[string][]time.Duration
}

func newRecordingQueue(q workqueue.TypedRateLimitingInterface[string]) *recordingQueue {
	return &recordingQueue{TypedRateLimitingInterface: q, after: map[string]time.Duration{}, calls: map[string][]time.Duration{}}
}

// AddAfter records the delay instead of waiting.
func (q *recordingQueue) AddAfter(key string, d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.calls[key] = append(q.calls[key], d)
	if old, ok := q.after[key]; !ok || d < old {
		q.after[key] = d
	}
}

// Add is AddAfter without a delay.
func (q *recordingQueue) Add(key string) { q.AddAfter(key, 0) }

// requeue is the key's requeue in comparable form.
func (q *recordingQueue) requeue(key string) string {
	d, ok := q.after[key]
	if !ok {
		return requeueLine(0, false)
	}
	return requeueLine(d.Milliseconds(), true)
}

// requeueLine renders a requeue after ms (ok false: none); a delay of at
// most 1 ms is "now" (the engine's smallest delay, upstream's
// non-positive one).
func requeueLine(ms int64, ok bool) string {
	switch {
	case !ok:
		return "requeue: none"
	case ms <= 1:
		return "requeue: now"
	}
	return "requeue: after " + trace.FormatTime(ms)
}

// engineRequeue is the requeue the engine's tick asked for, found by
// running the component's Reconcile again on a copy of its state before
// the tick, with the tick's recorded writes as the API server's answers.
// ok is false when that run did not write what the tick wrote (a write
// failed in the tick, which the recorded effects do not show).
func engineRequeue(in *tickInput) (string, bool) {
	if in.before == nil || in.tick.Err() != "" {
		return "", false
	}
	t := newDryTick(in)
	res, err := in.before.Clone().Reconcile(t, in.tick.Object)
	if err != nil || t.diverged || len(t.effects) > 0 {
		return "", false
	}
	return requeueLine(res.RequeueAfter, res.RequeueAfter > 0), true
}

// dryTick is a reconcile.Tick that answers each write with the next
// write the tick recorded, and live reads with the API server's objects
// before the tick as those writes change them.
type dryTick struct {
	now      int64
	effects  []trace.Effect // the writes still to answer, in order
	live     map[api.Key]api.Object
	diverged bool
}

func newDryTick(in *tickInput) *dryTick {
	t := &dryTick{now: in.tick.Time, live: map[api.Key]api.Object{}}
	for _, o := range in.engineLive {
		t.live[api.KeyOf(o)] = o
	}
	for _, ef := range in.tick.Effects {
		if ef.Class != trace.Event {
			t.effects = append(t.effects, ef)
		}
	}
	return t
}

// answer consumes the next recorded write if it is an op of this object
// (for a create from generateName, of this kind and prefix).
func (t *dryTick) answer(op trace.Op, obj api.Object, key api.Key) (trace.Effect, bool) {
	if len(t.effects) == 0 {
		return trace.Effect{}, false
	}
	ef := t.effects[0]
	match := ef.Op == op && ef.Object == key
	if op == trace.Create && key.Name == "" && ef.Op == op && ef.After != nil {
		match = ef.Object.Kind == key.Kind && ef.Object.Namespace == key.Namespace &&
			strings.HasPrefix(ef.Object.Name, obj.Meta().GenerateName) && obj.Meta().GenerateName != ""
	}
	if !match {
		return trace.Effect{}, false
	}
	t.effects = t.effects[1:]
	if ef.After == nil {
		delete(t.live, ef.Object)
	} else {
		t.live[ef.Object] = ef.After
	}
	return ef, true
}

func (t *dryTick) Now() int64                                       { return t.now }
func (t *dryTick) Rand() *rand.Rand                                 { return rand.New(rand.NewPCG(1, 2)) }
func (t *dryTick) Read(api.Object)                                  {}
func (t *dryTick) Explain(string, ...any)                           {}
func (t *dryTick) Program(trace.RuleChange)                         {}
func (t *dryTick) Event(api.Object, string, string, string, string) {}

func (t *dryTick) Create(_ trace.Class, obj api.Object, _ string) (api.Object, error) {
	if ef, ok := t.answer(trace.Create, obj, api.KeyOf(obj)); ok {
		return ef.After.DeepCopyObject(), nil
	}
	t.diverged = true
	return nil, fmt.Errorf("dry run: no recorded create of %s", api.KeyOf(obj))
}

// write answers an update: the recorded one, or, when the tick recorded
// none (a no-op update writes nothing), the object as it is.
func (t *dryTick) write(obj api.Object) (api.Object, error) {
	k := api.KeyOf(obj)
	if ef, ok := t.answer(trace.Update, obj, k); ok {
		return ef.After.DeepCopyObject(), nil
	}
	if ef, ok := t.answer(trace.Delete, obj, k); ok {
		return ef.Before.DeepCopyObject(), nil // the last finalizer went
	}
	if o, ok := t.live[k]; ok {
		return o.DeepCopyObject(), nil
	}
	return nil, apiserver.NotFound(k.Kind, k.Name)
}

func (t *dryTick) Update(_ trace.Class, obj api.Object, _ string) (api.Object, error) {
	return t.write(obj)
}

func (t *dryTick) UpdateStatus(_ trace.Class, obj api.Object, _ string) (api.Object, error) {
	return t.write(obj)
}

func (t *dryTick) PatchStatus(_ trace.Class, obj api.Object, _ string) (api.Object, error) {
	return t.write(obj)
}

func (t *dryTick) Delete(_ trace.Class, k api.Key, _ apiserver.DeleteOptions, _ string) error {
	o, ok := t.live[k]
	if !ok {
		return apiserver.NotFound(k.Kind, k.Name)
	}
	t.answer(trace.Delete, o, k) // none: a deletion already under way
	return nil
}

func (t *dryTick) Bind(*api.Pod, string, string) error {
	t.diverged = true
	return fmt.Errorf("dry run: no binding")
}

func (t *dryTick) LiveGet(k api.Key) (api.Object, bool) {
	o, ok := t.live[k]
	return o, ok
}

func (t *dryTick) LiveList(kind, ns string) []api.Object {
	var out []api.Object
	for k, o := range t.live {
		if k.Kind == kind && (ns == "" || k.Namespace == ns) {
			out = append(out, o)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Meta().Name < out[j].Meta().Name })
	return out
}

var _ reconcile.Tick = (*dryTick)(nil)
