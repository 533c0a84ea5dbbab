package engine

// This file wires a new world: its components, its nodes and their kubelets,
// and their caches primed with what exists at tick 0.

import (
	"fmt"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/proxy"
	"github.com/stateflow/stateflow/engine/reconcile"
)

func (w *world) addComponent(c reconcile.Component, latency int64) int {
	i := len(w.comps)
	w.comps = append(w.comps, c)
	w.compGen = append(w.compGen, w.gen)
	w.latency = append(w.latency, latency)
	w.inboxes = append(w.inboxes, inbox{})
	switch {
	case c.Host() == "":
		for _, kind := range c.Watches() {
			w.watchers[kind] = append(w.watchers[kind], i)
		}
	case c.Name() == proxy.Name:
		// Every kube-proxy watches every Service and slice.
		for _, kind := range c.Watches() {
			w.watchers[kind] = append(w.watchers[kind], i)
		}
		w.proxies[c.Host()] = i
		w.proxyNodes = append(w.proxyNodes, c.Host())
		slices.Sort(w.proxyNodes)
	default:
		// A kubelet gets its node and the pods bound to it (deliverAll),
		// and every object of the other kinds it watches (Services).
		w.kubelets[c.Host()] = i
		for _, kind := range c.Watches() {
			if kind != api.KindPod && kind != api.KindNode {
				w.watchers[kind] = append(w.watchers[kind], i)
			}
		}
	}
	return i
}

// addNode registers a node and starts its kubelet and kube-proxy.
func (w *world) addNode(n *api.Node, cfg *Config, ds []descriptor) error {
	created, err := w.store.Create(n)
	if err != nil {
		return fmt.Errorf("node %q: %w", n.Name, err)
	}
	w.addAgents(created.(*api.Node), cfg, ds, false)
	return nil
}

// addAgents adds a node's kubelet and kube-proxy. A node that joins later
// (Config.JoiningNodes) gets them at once, so every checkpoint shares the
// same components, but its kube-proxy waits for the node to join, and its
// kubelet has nothing to do before a pod is bound there.
func (w *world) addAgents(node *api.Node, cfg *Config, ds []descriptor, joinsLater bool) {
	for i := range ds {
		if d := &ds[i]; d.newOnNode != nil {
			w.addComponent(d.newOnNode(cfg, node, joinsLater), cfg.latency(d))
		}
	}
}

// handle is a shared informer's HandleDeltas for the watch event comp
// received: the event goes into comp's cache, then to its handlers
// (Observe), which see the cache as it now is.
func (w *world) handle(comp int, ev apiserver.WatchEvent, q reconcile.Queue) {
	c := w.comp(comp)
	c.Cache().Apply(ev)
	c.Observe(ev, q)
}

// primeCaches hands the objects that exist before the story begins (nodes,
// namespaces) to every component's cache at once and queues no work: the
// components' informers synced long before the scenario starts.
func (w *world) primeCaches() {
	for w.agenda.Len() > 0 {
		it := w.agenda.pop()
		if it.kind == kindDelivery {
			w.handle(it.comp, w.received(it.comp), discard{})
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
	w.store.ExpireEvents(w.now - EventTTLMS)
}

// discard is a queue that drops every key.
type discard struct{}

func (discard) Add(api.Key) {}

func (discard) AddAfter(api.Key, int64) {}

func (discard) Now() int64 { return 0 }
