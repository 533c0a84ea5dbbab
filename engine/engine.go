package engine

import (
	"fmt"
	"math/rand/v2"
	"runtime/debug"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/events"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/timezone"
	"github.com/stateflow/stateflow/engine/trace"
)

// Engine runs one simulation and keeps its trace and checkpoints.
type Engine struct {
	cfg         Config
	w           *world
	trace       []*trace.Tick // ticks first+1 … w.ticks
	checkpoints []checkpoint
	injected    []injected
	first       int // ticks discarded to bound memory
	scratch     tickScratch
	queued      []trace.Read // room for a tick's queued reads (liveTick.queuedReads)
	planned     []int        // checkpoints to take on the way back to a seek's target (planBackSteps)
	lastRewind  int          // the checkpoint the last seek back restored, -1 before any
}

// New builds the cluster the configuration describes: namespaces and nodes
// exist before the first tick; actions (including applying the user's
// manifests) happen as ticks at their times.
func New(cfg Config) (*Engine, error) {
	if cfg.CheckpointEvery <= 0 {
		cfg.CheckpointEvery = DefaultCheckpointEvery
	}
	if cfg.MaxTraceTicks == 0 {
		cfg.MaxTraceTicks = DefaultMaxTraceTicks
	}
	w := &world{store: apiserver.New(cfg.Seed), sources: map[string]string{}, pending: map[workKey]pendingEntry{}, waiting: map[workKey]pendingEntry{}, watchers: map[string][]int{},
		kubelets: map[string]int{}, proxies: map[string]int{}, rulesTick: map[string]int{}, seed: cfg.Seed, failures: map[workKey]int{}, recorder: events.New(), lines: trace.NewLines(), pcg: *rand.NewPCG(cfg.Seed, 0xc0ffee)}
	w.rng = rand.New(&w.pcg)
	w.store.SetSink(w.fanOut)
	w.store.SetPodQuota(cfg.PodLimit)
	if cfg.TimeZones == nil {
		cfg.TimeZones = timezone.Default
	}
	w.store.SetTimeZones(cfg.TimeZones)
	ds := descriptors()
	for i := range ds {
		d := &ds[i]
		if d.new != nil {
			w.addComponent(d.new(&cfg), cfg.latency(d))
		}
		if d.eventSource != "" {
			w.sources[d.name] = d.eventSource
		}
	}
	for _, ns := range append([]string{"default", "kube-node-lease", "kube-public", "kube-system"}, cfg.Namespaces...) {
		if _, ok := w.store.Get(api.Key{Kind: api.KindNamespace, Name: ns}); ok {
			continue
		}
		if _, err := w.store.Create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}); err != nil {
			return nil, fmt.Errorf("namespace %q: %w", ns, err)
		}
	}
	// The API server's own objects (bootstrap-system-priority-classes).
	for _, c := range api.SystemPriorityClasses() {
		if _, err := w.store.Bootstrap(c); err != nil {
			return nil, fmt.Errorf("priority class %q: %w", c.Name, err)
		}
	}
	for _, n := range cfg.Nodes {
		if err := w.addNode(n.DeepCopy(), &cfg, ds); err != nil {
			return nil, err
		}
	}
	for _, n := range cfg.JoiningNodes {
		w.addAgents(n, &cfg, ds, true)
	}
	w.primeCaches()
	for i, a := range cfg.Actions {
		w.schedule(item{at: a.At, kind: kindAction, action: i})
	}
	w.startTraffic(cfg.Traffic)
	e := &Engine{cfg: cfg, w: w, lastRewind: -1}
	e.checkpoints = []checkpoint{{tick: 0, w: w.checkpoint()}}
	return e, nil
}

// Now is the virtual time in milliseconds.
func (e *Engine) Now() int64 { return e.w.now }

// Tick is the number of ticks taken so far.
func (e *Engine) Tick() int { return e.w.ticks }

// Trace returns the ticks taken so far; the slice must not be modified.
func (e *Engine) Trace() []*trace.Tick { return e.trace }

// FirstTick is the earliest tick the engine can return to: 0 unless older
// ticks were discarded to bound memory (Config.MaxTraceTicks). Trace
// starts at tick FirstTick()+1.
func (e *Engine) FirstTick() int { return e.first }

// Store is the API server's objects at the current tick, as a read-only
// view: writes go through a tick (Act, or a component's reconcile).
func (e *Engine) Store() apiserver.Reader { return e.w.store }

// TimeZones is how the cluster loads the zones CronJobs name
// (Config.TimeZones).
func (e *Engine) TimeZones() timezone.Loader { return e.w.store.TimeZones() }

// Cached is the version of an object that a component's informer cache
// holds: ok says the cache has it, watched that the component (by name,
// not a kubelet) keeps a cache that would.
func (e *Engine) Cached(component string, k api.Key) (obj api.Object, ok, watched bool) {
	for _, c := range e.w.comps {
		if c.Name() != component || c.Host() != "" {
			continue
		}
		obj, ok = c.Cache().Get(k)
		return obj, ok, true
	}
	return nil, false, false
}

// CacheVersion is the resourceVersion of the API server's state a
// component's cache reflects (by name, not a kubelet): how far behind the
// API server (Store().ResourceVersion()) the component's view is.
func (e *Engine) CacheVersion(component string) (int64, bool) {
	for _, c := range e.w.comps {
		if c.Name() == component && c.Host() == "" {
			return c.Cache().ResourceVersion(), true
		}
	}
	return 0, false
}

// Components returns the components, for the differential harness, which
// rebuilds each one's view of the cluster. They may be shared with
// checkpoints: read them (or Clone them), never change them.
func (e *Engine) Components() []reconcile.Component { return e.w.comps }

// Settled reports whether no work is due or scheduled.
func (e *Engine) Settled() bool { return e.w.agenda.Len() == 0 }

// Step takes one tick. It returns nil when there is nothing left to do.
func (e *Engine) Step() *trace.Tick {
	if t := e.runInjected(); t != nil {
		return t
	}
	for e.w.agenda.Len() > 0 {
		if t := e.process(e.w.agenda.pop()); t != nil {
			return t
		}
	}
	return nil
}

// Drain processes the watch deliveries, timers and stale queue entries
// due before the next tick, without taking it, so the components are
// exactly as the next tick will find them (the differential harness
// copies them here). Step then takes that tick; Drain never changes what
// Step does.
func (e *Engine) Drain() {
	for _, in := range e.injected {
		if in.after == e.w.ticks {
			return
		}
	}
	for e.w.agenda.Len() > 0 {
		it := e.w.agenda.peek()
		if it.kind == kindAction || it.kind == kindTraffic || it.kind == kindClient {
			return
		}
		if it.kind == kindWork {
			if p, ok := e.w.pending[workKey{it.comp, it.key}]; ok && p.seq == it.seq {
				return
			}
		}
		e.process(e.w.agenda.pop())
	}
}

// process handles one agenda item and returns the tick it made, if any.
func (e *Engine) process(it item) *trace.Tick {
	w := e.w
	w.sendTraffic(e.cfg.Traffic, it.at)
	w.now = it.at
	w.store.SetNow(it.at)
	w.expireEvents()
	switch it.kind {
	case kindDelivery:
		ev := w.received(it.comp)
		w.q = queue{w: w, comp: it.comp, now: it.at, by: ev.Object}
		w.handle(it.comp, ev, &w.q) // a pointer: no allocation per delivery
		return nil
	case kindWork:
		wk := workKey{it.comp, it.key}
		p, ok := w.pending[wk]
		if !ok || p.seq != it.seq {
			return nil
		}
		delete(w.pending, wk)
		return e.finish(e.reconcile(it.comp, it.key, p.by))
	case kindTimer:
		wk := workKey{it.comp, it.key}
		if p, ok := w.waiting[wk]; ok && p.seq == it.seq {
			delete(w.waiting, wk)
			w.fire(wk, p)
		}
		return nil
	case kindAction:
		return e.finish(e.runAction(it.action))
	case kindTraffic:
		return e.finish(e.reportTraffic(it.action))
	case kindClient:
		return e.finish(e.runClient(it.action))
	}
	return nil
}

func (e *Engine) newTick(comp reconcile.Component, key api.Key) (*trace.Tick, *liveTick) {
	t := &trace.Tick{Seq: e.w.ticks + 1, Time: e.w.now, Component: comp.Name(), Host: comp.Host(), Object: key}
	e.scratch.lend(t)
	return t, &liveTick{w: e.w, tick: t, host: comp.Host(), name: comp.Name()}
}

// reconcile runs one component on one key, recovering from a panic so a
// bug in a component can never stop the simulation. queuedBy are the
// objects whose watch events queued the key: the tick reads them too, as
// its cache holds them before it acts.
func (e *Engine) reconcile(ci int, key api.Key, queuedBy []api.Key) *trace.Tick {
	w := e.w
	comp := w.comp(ci)
	t, tick := e.newTick(comp, key)
	e.queued = tick.queuedReads(e.queued, comp.Cache(), queuedBy)
	res, err := safely(func() (reconcile.Result, error) { return comp.Reconcile(tick, key) })
	tick.addQueued(e.queued)
	if err != nil {
		t.SetErr(err.Error())
		delay := w.addRateLimited(ci, key)
		why := t.Explanation()
		if why == "" {
			why = key.Short() + " failed"
		}
		if apiserver.IsReason(err, apiserver.ReasonConflict) {
			why += "; its write was refused because its cached copy is older than the API server's (optimistic concurrency)"
		}
		t.SetExplanation(w.lines.About(t.Object, why+"; will retry in "+trace.FormatTime(delay)))
		return t
	}
	w.forget(ci, key)
	if res.RequeueAfter > 0 {
		w.enqueue(ci, key, w.now+res.RequeueAfter)
	}
	return t
}

func safely(f func() (reconcile.Result, error)) (res reconcile.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error (recovered panic): %v\n%s", r, debug.Stack())
		}
	}()
	return f()
}

func (e *Engine) runAction(i int) *trace.Tick { return e.run(e.cfg.Actions[i]) }

func (e *Engine) run(a Action) *trace.Tick {
	// An injected action keeps the time it was taken at, even when a replay
	// reaches its tick with the clock not yet advanced that far.
	e.w.sendTraffic(e.cfg.Traffic, a.At)
	e.w.now = max(e.w.now, a.At)
	e.w.store.SetNow(e.w.now)
	t := &trace.Tick{Seq: e.w.ticks + 1, Time: e.w.now, Component: a.Component, Object: a.Object}
	tick := &liveTick{w: e.w, tick: t, name: a.Component}
	_, err := safely(func() (reconcile.Result, error) {
		if a.Fault != nil {
			return reconcile.Result{}, a.Fault.apply(e.w, tick)
		}
		if a.Client != nil {
			return reconcile.Result{}, e.w.startClient(a, tick)
		}
		return reconcile.Result{}, a.Run(tick)
	})
	if err != nil {
		t.SetErr(err.Error())
	}
	return t
}

// checkpointSpacing is how many ticks lie between two checkpoints: at
// least CheckpointEvery, a quarter as many ticks as the store holds
// objects, and at most half of MaxTraceTicks.
//
// A checkpoint shares the store's Version, the components and the Event
// recorder's per-object caches, but it copies the agenda, the inboxes,
// the work queues and the recorder's pointers at once (about 4 MiB at
// 10,000 pods), and the live world then copies each component the first
// time it changes it (the scheduler's and each kubelet's state): spacing
// by the object count keeps that cost per tick bounded, while a step
// back replays at most a quarter as many ticks as there are objects. The
// cap lets the trace be trimmed near MaxTraceTicks (it is trimmed only at
// a checkpoint): at 150,000 pods the spacing would be 225,000 ticks, and
// the trace kept up to 275,000 ticks of object versions. Capping at an
// eighth instead made that run's peak heap grow from 6.5 to 9.3 GiB.
//
// The spacing is then rounded up to a whole fraction of MaxTraceTicks
// (a half, a third, …), so that regular checkpoints fall where the trace
// is trimmed: the trim lets the oldest checkpoint go at the tick a new
// one is taken, and a spacing of MaxTraceTicks/m keeps m+1 checkpoints.
// A spacing that does not divide MaxTraceTicks keeps one checkpoint more
// part of the time: at 10,000 pods a quarter of the objects is about
// 20,000 ticks, and four checkpoints lived together at the largest heap
// where three do at 25,000 (a step back replays up to 25,000 ticks
// instead of 20,000).
func (e *Engine) checkpointSpacing() int {
	n := e.w.store.Len() / 4
	if limit := e.cfg.MaxTraceTicks; limit > 0 {
		n = limit / max(2, limit/max(n, 1))
	}
	return max(e.cfg.CheckpointEvery, n)
}

// finish numbers the tick, appends it to the trace and checkpoints.
//
// Checkpoints are spaced by checkpointSpacing.
func (e *Engine) finish(t *trace.Tick) *trace.Tick {
	e.scratch.settle(t)
	e.w.ticks++
	if len(t.Effects) > 0 {
		e.w.lastChange, e.w.lastChangeAt = e.w.ticks, t.Time
	}
	if len(t.Rules()) > 0 {
		e.w.rulesTick[t.Host] = e.w.ticks
	}
	e.trace = append(e.trace, t)
	if e.w.ticks%e.cfg.CheckpointEvery == 0 {
		e.w.rebaseIdle()
	}
	if e.w.ticks-e.lastRegular() >= e.checkpointSpacing() {
		e.checkpoints = append(e.checkpoints, checkpoint{tick: e.w.ticks, w: e.w.checkpoint()})
	}
	e.takePlanned() // after: a regular checkpoint at the same tick serves as the planned one
	e.prune(e.w.ticks - PodVersionTicks)
	e.trim()
	return t
}
