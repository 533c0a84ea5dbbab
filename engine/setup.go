package engine

// This file wires a new world: its components, its nodes and their kubelets,
// and their caches primed with what exists at tick 0.

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/reconcile"
)

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

type discard struct{}

func (discard) Add(api.Key) {}

func (discard) AddAfter(api.Key, int64) {}
