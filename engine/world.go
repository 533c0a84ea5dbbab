package engine

import (
	"maps"
	"math/rand/v2"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/events"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// world is the whole mutable state of a simulation; a checkpoint is a
// clone of it. Objects are immutable and shared between clones.
type world struct {
	store *apiserver.Store
	// sources are the Event sources of the components whose Events do not
	// name them by their Name (descriptor.eventSource); set once by New,
	// shared by every checkpoint.
	sources map[string]string
	now     int64
	ticks   int
	seq     uint64
	agenda  agenda
	inboxes []inbox                  // per component: its pending watch deliveries
	q       queue                    // the work queue handed to the component a delivery reaches
	pending map[workKey]pendingEntry // queued keys
	waiting map[workKey]pendingEntry // delayed adds (timers)
	// comps are the components. A checkpoint shares them with the live
	// world, which copies one (comp) the first time it changes it after
	// the checkpoint: compGen[i] == gen says the live world owns comps[i].
	// The one change made to a shared component in place is rebasing its
	// view (rebaseIdle), which changes nothing it or the checkpoint sees.
	comps   []reconcile.Component
	compGen []uint64
	gen     uint64
	// latency, watchers and kubelets are set up by New and shared by every
	// checkpoint.
	latency  []int64
	watchers map[string][]int // kind → component indexes (kubelets excluded)
	kubelets map[string]int   // node → component index
	proxies  map[string]int   // node → its kube-proxy's component index
	// proxyNodes are the nodes with a kube-proxy, sorted: the senders of
	// traffic that names none.
	proxyNodes []string
	seed       uint64
	// traffic counts each stream's current interval; rulesTick is, per
	// node, the last tick that changed its kube-proxy's rules.
	traffic   []trafficState
	rulesTick map[string]int
	failures  map[workKey]int
	// nextSweep is when expired Events are next removed.
	nextSweep int64
	// lastChange is the last tick that wrote to the API server (a tick
	// with at least one effect) and lastChangeAt its virtual time: when
	// the cluster settled, whatever no-op work came after.
	lastChange   int
	lastChangeAt int64
	recorder     *events.Recorder
	// lines keeps one copy of the rests that ticks' explanations and
	// effects' summaries share after their objects' names: a cache, shared
	// by clones (the engine runs one at a time).
	lines *trace.Lines
	// clients are the commands actions started that run on (kubectl
	// drain), in the order they started.
	clients []runningClient
	pcg     rand.PCG
	rng     *rand.Rand
}

// comp is component i, to change: the first change after a checkpoint
// copies it, so the checkpoint keeps the one it holds.
func (w *world) comp(i int) reconcile.Component {
	if w.compGen[i] != w.gen {
		w.comps[i] = w.comps[i].Clone()
		w.compGen[i] = w.gen
	}
	return w.comps[i]
}

// clone is a checkpoint of the world: the store is O(1) to copy, the
// components are shared until one side changes them; the work queues,
// the agenda, the inboxes and the Event recorder's per-object pointers
// are copied.
func (w *world) clone() *world {
	c := &world{store: w.store.Clone(), sources: w.sources, now: w.now, ticks: w.ticks, seq: w.seq, nextSweep: w.nextSweep, lastChange: w.lastChange, lastChangeAt: w.lastChangeAt,
		agenda: w.agenda.clone(), inboxes: cloneInboxes(w.inboxes), pending: maps.Clone(w.pending), waiting: maps.Clone(w.waiting),
		comps: slices.Clone(w.comps), compGen: slices.Clone(w.compGen), latency: w.latency, watchers: w.watchers,
		kubelets: w.kubelets, proxies: w.proxies, proxyNodes: w.proxyNodes, seed: w.seed, rulesTick: maps.Clone(w.rulesTick),
		failures: maps.Clone(w.failures),
		recorder: w.recorder.Clone(), lines: w.lines, clients: cloneClients(w.clients), pcg: w.pcg}
	c.rng = rand.New(&c.pcg)
	c.traffic = make([]trafficState, len(w.traffic))
	for i, s := range w.traffic {
		c.traffic[i] = s.clone()
	}
	// Neither side owns a component now: a new generation for each.
	w.gen += 2
	c.gen = w.gen + 1
	c.store.SetSink(c.fanOut)
	return c
}

// fanOut turns a write into deliveries, one per watching component, after
// that component's latency. Pods go only to the kubelets of their nodes.
func (w *world) fanOut(e apiserver.WatchEvent) {
	kind := e.Object.GetKind()
	if len(w.watchers[kind]) == 0 && kind != api.KindPod && kind != api.KindNode {
		return // an Event's write, which nobody watches
	}
	w.deliverAll(kind, e)
}

// deliverAll is fanOut of a watched write.
func (w *world) deliverAll(kind string, e apiserver.WatchEvent) {
	ev := &e // one copy, shared by every delivery
	for _, i := range w.watchers[kind] {
		w.deliver(i, ev)
	}
	if kind == api.KindNode {
		if i, ok := w.kubelets[ev.Object.Meta().Name]; ok {
			w.deliver(i, ev)
		}
	}
	if kind != api.KindPod && kind != api.KindNode {
		return
	}
	if kind == api.KindNode {
		return
	}
	node := ev.Object.(*api.Pod).Spec.NodeName
	if i, ok := w.kubelets[node]; ok && node != "" {
		w.deliver(i, ev)
	}
	if ev.Old != nil {
		if old := ev.Old.(*api.Pod).Spec.NodeName; old != node && old != "" {
			if i, ok := w.kubelets[old]; ok {
				w.deliver(i, ev)
			}
		}
	}
}

// eventSource is the source component Kubernetes writes in the Events of
// an actor of a tick.
func (w *world) eventSource(actor string) string {
	if s, ok := w.sources[actor]; ok {
		return s
	}
	return actor
}
