package engine

import (
	"math/rand/v2"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/events"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// world is the whole mutable state of a simulation; a checkpoint is a
// clone of it. Objects are immutable and shared between clones.
type world struct {
	store    *apiserver.Store
	now      int64
	ticks    int
	seq      uint64
	agenda   agenda
	pending  map[workKey]pendingEntry // queued keys
	waiting  map[workKey]pendingEntry // delayed adds (timers)
	comps    []reconcile.Component
	latency  []int64
	watchers map[string][]int // kind → component indexes (kubelets excluded)
	kubelets map[string]int   // node → component index
	failures map[workKey]int
	// nextSweep is when expired Events are next removed.
	nextSweep int64
	// lastChange is the last tick that wrote to the API server (a tick
	// with at least one effect) and lastChangeAt its virtual time: when
	// the cluster settled, whatever no-op work came after.
	lastChange   int
	lastChangeAt int64
	recorder     *events.Recorder
	pcg          rand.PCG
	rng          *rand.Rand
}

func (w *world) clone() *world {
	c := &world{store: w.store.Clone(), now: w.now, ticks: w.ticks, seq: w.seq, nextSweep: w.nextSweep, lastChange: w.lastChange, lastChangeAt: w.lastChangeAt,
		agenda: w.agenda.clone(), pending: make(map[workKey]pendingEntry, len(w.pending)),
		waiting: make(map[workKey]pendingEntry, len(w.waiting)),
		comps:   make([]reconcile.Component, len(w.comps)), latency: append([]int64(nil), w.latency...), watchers: w.watchers,
		kubelets: make(map[string]int, len(w.kubelets)), failures: make(map[workKey]int, len(w.failures)),
		recorder: w.recorder.Clone(), pcg: w.pcg}
	c.rng = rand.New(&c.pcg)
	for k, v := range w.pending {
		c.pending[k] = v
	}
	for k, v := range w.waiting {
		c.waiting[k] = v
	}
	for i, comp := range w.comps {
		c.comps[i] = comp.Clone()
	}
	for k, v := range w.kubelets {
		c.kubelets[k] = v
	}
	for k, v := range w.failures {
		c.failures[k] = v
	}
	c.store.SetSink(c.fanOut)
	return c
}

// fanOut turns a write into deliveries, one per watching component, after
// that component's latency. Pods go only to the kubelets of their nodes.
func (w *world) fanOut(ev apiserver.WatchEvent) {
	kind := ev.Object.GetKind()
	for _, i := range w.watchers[kind] {
		w.schedule(item{at: w.now + w.latency[i], kind: kindDelivery, comp: i, ev: ev})
	}
	if kind == api.KindNode {
		if i, ok := w.kubelets[ev.Object.Meta().Name]; ok {
			w.schedule(item{at: w.now + w.latency[i], kind: kindDelivery, comp: i, ev: ev})
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
		w.schedule(item{at: w.now + w.latency[i], kind: kindDelivery, comp: i, ev: ev})
	}
	if ev.Old != nil {
		if old := ev.Old.(*api.Pod).Spec.NodeName; old != node && old != "" {
			if i, ok := w.kubelets[old]; ok {
				w.schedule(item{at: w.now + w.latency[i], kind: kindDelivery, comp: i, ev: ev})
			}
		}
	}
}
