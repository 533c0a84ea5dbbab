package engine

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/deployment"
	"github.com/stateflow/stateflow/engine/controller/replicaset"
	"github.com/stateflow/stateflow/engine/events"
	"github.com/stateflow/stateflow/engine/gc"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/nodelifecycle"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/scheduler"
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
}

type checkpoint struct {
	tick int
	w    *world
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
	w := &world{store: apiserver.New(cfg.Seed), pending: map[workKey]pendingEntry{}, waiting: map[workKey]pendingEntry{}, watchers: map[string][]int{},
		kubelets: map[string]int{}, failures: map[workKey]int{}, down: map[string]int64{}, recorder: events.New(), pcg: *rand.NewPCG(cfg.Seed, 0xc0ffee)}
	w.rng = rand.New(&w.pcg)
	w.store.SetSink(w.fanOut)
	rsc := replicaset.New()
	w.store.SetPodQuota(cfg.PodLimit)
	for _, c := range []struct {
		comp reconcile.Component
		kind string
	}{{deployment.New(), DeploymentController}, {rsc, ReplicaSetController}, {scheduler.New(), Scheduler}, {gc.New(), GarbageCollector},
		{nodelifecycle.New(leaseView{w}, cfg.NodeMonitorGracePeriodMS), NodeLifecycleController}, {nodelifecycle.NewEvictor(), TaintEvictionController}} {
		w.addComponent(c.comp, cfg.latency(c.kind))
	}
	for _, ns := range append([]string{"default", "kube-node-lease", "kube-public", "kube-system"}, cfg.Namespaces...) {
		if _, ok := w.store.Get(api.Key{Kind: api.KindNamespace, Name: ns}); ok {
			continue
		}
		if _, err := w.store.Create(&api.Namespace{ObjectMeta: api.ObjectMeta{Name: ns}}); err != nil {
			return nil, fmt.Errorf("namespace %q: %w", ns, err)
		}
	}
	for _, n := range cfg.Nodes {
		if err := w.addNode(n.DeepCopy(), cfg); err != nil {
			return nil, err
		}
	}
	w.primeCaches()
	for i, a := range cfg.Actions {
		w.schedule(item{at: a.At, kind: kindAction, action: i})
	}
	e := &Engine{cfg: cfg, w: w}
	e.checkpoints = []checkpoint{{0, w.clone()}}
	return e, nil
}

func (w *world) addComponent(c reconcile.Component, latency int64) int {
	i := len(w.comps)
	w.comps = append(w.comps, c)
	w.latency = append(w.latency, latency)
	if c.Host() == "" {
		for _, kind := range c.Watches() {
			w.watchers[kind] = append(w.watchers[kind], i)
		}
	} else {
		w.kubelets[c.Host()] = i
	}
	return i
}

// addNode registers a node and starts its kubelet.
func (w *world) addNode(n *api.Node, cfg Config) error {
	created, err := w.store.Create(n)
	if err != nil {
		return fmt.Errorf("node %q: %w", n.Name, err)
	}
	node := created.(*api.Node)
	hostIP := ""
	for _, a := range node.Status.Addresses {
		if a.Type == "InternalIP" {
			hostIP = a.Address
		}
	}
	w.addComponent(kubelet.New(node.Name, hostIP, node.Spec.PodCIDR, cfg.Images), cfg.latency(Kubelet))
	return nil
}

// primeCaches hands the objects that exist before the story begins (nodes,
// namespaces) to every component's cache at once and queues no work: the
// components' informers synced long before the scenario starts.
func (w *world) primeCaches() {
	for w.agenda.Len() > 0 {
		it := w.agenda.pop()
		if it.kind == kindDelivery {
			w.comps[it.comp].Observe(it.ev, discard{})
		}
	}
	w.pending = map[workKey]pendingEntry{}
	w.waiting = map[workKey]pendingEntry{}
}

// EventTTLMS is how long an Event lives after its last update, like the
// API server's --event-ttl (1 hour).
const EventTTLMS = 3_600_000

// expireEvents removes Events older than EventTTLMS, once a minute, as
// etcd's lease does: no component acts, so it is not a tick.
func (w *world) expireEvents() {
	if w.now < w.nextSweep {
		return
	}
	w.nextSweep = w.now + 60_000
	for _, o := range w.store.List(api.KindEvent, "") {
		if e := o.(*api.Event); w.now-e.LastTimestamp.MS > EventTTLMS {
			_, _, _ = w.store.Delete(api.KeyOf(e), apiserver.DeleteOptions{})
		}
	}
}

// discard is a queue that drops every key.
type discard struct{}

func (discard) Add(api.Key)             {}
func (discard) AddAfter(api.Key, int64) {}
func (discard) Now() int64              { return 0 }

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

// Cached is the version of an object that a component's informer cache
// holds: ok says the cache has it, watched that the component (by name,
// not a kubelet) keeps a cache that would.
func (e *Engine) Cached(component string, k api.Key) (obj api.Object, ok, watched bool) {
	for _, c := range e.w.comps {
		if c.Name() != component || c.Host() != "" {
			continue
		}
		if cc, has := c.(interface{ Cache() *informer.Cache }); has {
			obj, ok = cc.Cache().Get(k)
			return obj, ok, true
		}
	}
	return nil, false, false
}

// Components returns the components, for the differential harness, which
// rebuilds each one's view of the cluster.
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
		if it.kind == kindAction {
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
	w.now = it.at
	w.store.SetNow(it.at)
	w.expireEvents()
	switch it.kind {
	case kindDelivery:
		w.comps[it.comp].Observe(it.ev, queue{w: w, comp: it.comp, now: it.at})
		return nil
	case kindWork:
		wk := workKey{it.comp, it.key}
		if p, ok := w.pending[wk]; !ok || p.seq != it.seq {
			return nil
		}
		delete(w.pending, wk)
		return e.finish(e.reconcile(it.comp, it.key))
	case kindTimer:
		wk := workKey{it.comp, it.key}
		if p, ok := w.waiting[wk]; ok && p.seq == it.seq {
			delete(w.waiting, wk)
			w.add(wk)
		}
		return nil
	case kindAction:
		return e.finish(e.runAction(it.action))
	}
	return nil
}

func (e *Engine) newTick(comp reconcile.Component, key api.Key) (*trace.Tick, *tickCtx) {
	t := &trace.Tick{Seq: e.w.ticks + 1, Time: e.w.now, Component: comp.Name(), Host: comp.Host(), Object: key}
	return t, &tickCtx{w: e.w, tick: t, host: comp.Host(), name: comp.Name()}
}

// reconcile runs one component on one key, recovering from a panic so a
// bug in a component can never stop the simulation.
func (e *Engine) reconcile(ci int, key api.Key) *trace.Tick {
	w := e.w
	comp := w.comps[ci]
	t, ctx := e.newTick(comp, key)
	res, err := safely(func() (reconcile.Result, error) { return comp.Reconcile(ctx, key) })
	wk := workKey{ci, key}
	if err != nil {
		t.Error = err.Error()
		w.failures[wk]++
		delay := rateLimit(w.failures[wk])
		if t.Explanation == "" {
			t.Explanation = fmt.Sprintf("%s failed", key.Short())
		}
		if apiserver.IsReason(err, apiserver.ReasonConflict) {
			t.Explanation += "; its write was refused because its cached copy is older than the API server's (optimistic concurrency)"
		}
		t.Explanation += fmt.Sprintf("; will retry in %s", trace.FormatTime(delay))
		w.enqueue(ci, key, w.now+delay)
		return t
	}
	delete(w.failures, wk)
	if res.RequeueAfter > 0 {
		w.enqueue(ci, key, w.now+res.RequeueAfter)
	}
	return t
}

// rateLimit is the per-item exponential failure backoff of client-go's
// default controller rate limiter: 5 ms doubling up to 1000 s.
func rateLimit(failures int) int64 {
	d := int64(5)
	for i := 1; i < failures && d < 1_000_000; i++ {
		d *= 2
	}
	return min(d, 1_000_000)
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
	e.w.now = max(e.w.now, a.At)
	e.w.store.SetNow(e.w.now)
	t := &trace.Tick{Seq: e.w.ticks + 1, Time: e.w.now, Component: a.Component, Object: a.Object}
	ctx := &tickCtx{w: e.w, tick: t, name: a.Component}
	_, err := safely(func() (reconcile.Result, error) {
		if a.Fault != nil {
			return reconcile.Result{}, a.Fault.apply(e.w, ctx)
		}
		return reconcile.Result{}, a.Run(ctx)
	})
	if err != nil {
		t.Error = err.Error()
	}
	return t
}

// finish numbers the tick, appends it to the trace and checkpoints.
//
// Checkpoints are at least CheckpointEvery ticks apart, and at least a
// quarter as many ticks as the store holds objects: a clone costs
// O(objects), so the amortised cost per tick stays constant (about four
// times the cost of cloning one object, small beside a tick's own cost),
// while a step back replays at most a quarter as many ticks as there are
// objects (at 1,000 pods, with their Events, about 1,500 ticks).
func (e *Engine) finish(t *trace.Tick) *trace.Tick {
	e.w.ticks++
	if len(t.Effects) > 0 {
		e.w.lastChange, e.w.lastChangeAt = e.w.ticks, t.Time
	}
	e.trace = append(e.trace, t)
	last := e.checkpoints[len(e.checkpoints)-1].tick
	if e.w.ticks-last >= max(e.cfg.CheckpointEvery, e.w.store.Len()/4) {
		e.checkpoints = append(e.checkpoints, checkpoint{e.w.ticks, e.w.clone()})
	}
	e.trim()
	return t
}

// trim discards the oldest ticks and checkpoints once the trace exceeds
// MaxTraceTicks by a quarter, keeping at least MaxTraceTicks ticks and
// starting at a checkpoint so every kept tick can still be sought.
func (e *Engine) trim() {
	limit := e.cfg.MaxTraceTicks
	if limit < 0 || len(e.trace) <= limit+limit/4 {
		return
	}
	target := e.w.ticks - limit
	i := sort.Search(len(e.checkpoints), func(i int) bool { return e.checkpoints[i].tick > target }) - 1
	if i <= 0 {
		return
	}
	cp := e.checkpoints[i].tick
	e.trace = append([]*trace.Tick(nil), e.trace[cp-e.first:]...)
	e.checkpoints = append([]checkpoint(nil), e.checkpoints[i:]...)
	e.first = cp
}

// NextTime returns the virtual time of the next agenda entry, or false.
func (e *Engine) NextTime() (int64, bool) {
	if e.w.agenda.Len() == 0 {
		return 0, false
	}
	return e.w.agenda.NextAt(), true
}

// RunUntil takes every tick due at or before virtual time ms and leaves
// the clock at ms.
func (e *Engine) RunUntil(ms int64) {
	for {
		if e.runInjected() != nil {
			continue
		}
		if e.w.agenda.Len() == 0 || e.w.agenda.NextAt() > ms {
			break
		}
		e.process(e.w.agenda.pop())
	}
	if ms > e.w.now {
		e.w.now = ms
		e.w.store.SetNow(ms)
		e.w.expireEvents()
	}
}

// SettleLimits bound RunUntilSettled.
type SettleLimits struct {
	// MaxTicks is the most ticks to take (default 1,000,000).
	MaxTicks int
	// MaxTime is the latest virtual time in ms to run to (default 1 hour
	// after the current time).
	MaxTime int64
	// Brief asks, at the limits, for a NotSettledError with only Ticks and
	// Time: a caller that runs in slices asks again and describes the
	// pending work (NotSettled) only when it stops for good.
	Brief bool
}

// NotSettledError says a run hit its bound while work was still pending.
type NotSettledError struct {
	Ticks int
	Time  int64
	// Reason says in a learner's words what keeps the cluster busy
	// (Engine.Busy): "Never settles: pod web-7d9c-x crashes and restarts
	// (CrashLoopBackOff, back-off 5m0s, 16 restarts)"; empty when the
	// work still scheduled is an ordinary rollout still going.
	Reason string
	// Pending describes the earliest queued work (at most three items,
	// earliest first); More counts the rest.
	Pending []string
	More    int
}

// Error leads with the Reason, then gives the engine's detail.
func (e *NotSettledError) Error() string {
	pending := strings.Join(e.Pending, ", ")
	if e.More > 0 {
		pending += fmt.Sprintf(" and %d more", e.More)
	}
	if e.Reason != "" {
		return fmt.Sprintf("%s. Not settled after %d ticks at %s: work is still scheduled (%s).", e.Reason, e.Ticks, trace.FormatTime(e.Time), pending)
	}
	return fmt.Sprintf("not settled after %d ticks at %s: work is still scheduled (%s); the scenario keeps changing (a crash loop, an unschedulable pod or a stuck rollout?)",
		e.Ticks, trace.FormatTime(e.Time), pending)
}

// RunUntilSettled steps until nothing is left to do, or returns a
// *NotSettledError at the limits.
func (e *Engine) RunUntilSettled(lim SettleLimits) error {
	if lim.MaxTicks <= 0 {
		lim.MaxTicks = 1_000_000
	}
	if lim.MaxTime <= 0 {
		lim.MaxTime = e.w.now + 3_600_000
	}
	start := e.w.ticks
	for {
		if e.runInjected() != nil {
			continue
		}
		if e.w.agenda.Len() == 0 {
			return nil
		}
		if e.w.ticks-start >= lim.MaxTicks || e.w.agenda.NextAt() > lim.MaxTime {
			if lim.Brief {
				return &NotSettledError{Ticks: e.w.ticks, Time: e.w.now}
			}
			return e.NotSettled()
		}
		e.process(e.w.agenda.pop())
	}
}

// pendingShown is how many queued items a NotSettledError names.
const pendingShown = 3

// NotSettled describes the queued keys: the earliest pendingShown by
// time (ties by description) and how many more there are. A paused run
// of a large cluster stops here often, so only the earliest are
// formatted.
func (e *Engine) NotSettled() *NotSettledError {
	var ats []int64
	for _, m := range []map[workKey]pendingEntry{e.w.pending, e.w.waiting} {
		for _, pe := range m {
			ats = append(ats, pe.at)
		}
	}
	slices.Sort(ats)
	err := &NotSettledError{Ticks: e.w.ticks, Time: e.w.now, Reason: e.Busy()}
	if len(ats) == 0 {
		return err
	}
	cut := ats[min(pendingShown, len(ats))-1]
	type p struct {
		at   int64
		desc string
	}
	var ps []p
	for _, m := range []map[workKey]pendingEntry{e.w.pending, e.w.waiting} {
		for wk, pe := range m {
			if pe.at <= cut {
				ps = append(ps, p{pe.at, fmt.Sprintf("%s %s at %s", e.w.comps[wk.comp].Name(), wk.key.Short(), trace.FormatTime(pe.at))})
			}
		}
	}
	slices.SortFunc(ps, func(a, b p) int { return cmp.Or(cmp.Compare(a.at, b.at), strings.Compare(a.desc, b.desc)) })
	for _, x := range ps[:min(pendingShown, len(ps))] {
		err.Pending = append(err.Pending, x.desc)
	}
	err.More = len(ats) - len(err.Pending)
	return err
}

// Rewind goes back to the nearest checkpoint at or before tick n, if n is
// behind the current tick, without replaying: Seek is Rewind, then Step
// until n. A caller that steps itself can replay in slices.
func (e *Engine) Rewind(n int) {
	n = max(n, e.first)
	if n >= e.w.ticks {
		return
	}
	i := e.checkpointAt(n)
	cp := e.checkpoints[i]
	e.w = cp.w.clone()
	e.trace = e.trace[:cp.tick-e.first]
	e.checkpoints = e.checkpoints[:i+1]
}

// ReplayTicks is how many ticks Seek(n) computes: from the nearest
// checkpoint when n is behind the current tick, else from the current
// tick.
func (e *Engine) ReplayTicks(n int) int {
	n = max(n, e.first)
	if n >= e.w.ticks {
		return n - e.w.ticks
	}
	return n - e.checkpoints[e.checkpointAt(n)].tick
}

// checkpointAt is the index of the last checkpoint at or before tick n.
func (e *Engine) checkpointAt(n int) int {
	return sort.Search(len(e.checkpoints), func(i int) bool { return e.checkpoints[i].tick > n }) - 1
}

// Seek moves to just after tick n: forward by stepping, backward by
// restoring the nearest checkpoint at or before n and replaying. A tick
// before FirstTick lands on FirstTick.
func (e *Engine) Seek(n int) {
	n = max(n, e.first)
	e.Rewind(n)
	for e.w.ticks < n {
		if e.Step() == nil {
			return
		}
	}
}

// StepBack returns to the state just after the previous tick.
func (e *Engine) StepBack() { e.Seek(e.w.ticks - 1) }
