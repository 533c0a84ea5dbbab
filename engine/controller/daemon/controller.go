package daemon

import (
	"maps"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/controller/expectations"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// Name is the component name in the trace and in Event sources.
const Name = "daemonset-controller"

// BurstReplicas caps the pods created or deleted in one sync.
const BurstReplicas = 250

// Controller is the DaemonSet controller with its cache of DaemonSets,
// Pods, Nodes and ControllerRevisions.
type Controller struct {
	reconcile.Base
	exp expectations.Expectations
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindDaemonSet, api.KindPod, api.KindNode, api.KindControllerRevision)), exp: expectations.Expectations{}}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), exp: c.exp.Clone()}
}

// Observe queues the DaemonSets it concerns
// (addDaemonset, addPod, updatePod, deletePod, addNode, updateNode).
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.DaemonSet:
		if ev.Type == apiserver.Deleted {
			delete(c.exp, api.KeyOf(o))
		}
		q.Add(api.KeyOf(o))
	case *api.Pod:
		c.observePod(ev, o, q)
	case *api.ControllerRevision:
		// addHistory, deleteHistory: a revision's owner syncs again.
		if ref := o.ControllerRef(); ref != nil && ref.Kind == api.KindDaemonSet {
			q.Add(api.Key{Kind: api.KindDaemonSet, Namespace: o.Namespace, Name: ref.Name})
		}
	case *api.Node:
		old, _ := ev.Old.(*api.Node)
		if ev.Type == apiserver.Modified && old != nil && !nodeChanged(old, o) {
			return
		}
		for _, d := range c.Informer.List(api.KindDaemonSet, "") {
			q.Add(api.KeyOf(d))
		}
	}
}

func (c *Controller) observePod(ev apiserver.WatchEvent, p *api.Pod, q reconcile.Queue) {
	ds := c.owner(p)
	if ds == nil {
		if p.ControllerRef() == nil && p.DeletionTimestamp == nil {
			// An orphan: the DaemonSets that may adopt it
			// (getDaemonSetsForPod).
			for _, o := range c.Informer.List(api.KindDaemonSet, p.Namespace) {
				if o.(*api.DaemonSet).Spec.Selector.Matches(p.Labels) {
					q.Add(api.KeyOf(o))
				}
			}
		}
		return
	}
	key := api.KeyOf(ds)
	old, _ := ev.Old.(*api.Pod)
	switch {
	case ev.Type == apiserver.Added && p.DeletionTimestamp == nil:
		c.exp.CreationObserved(key)
	case ev.Type == apiserver.Deleted || p.DeletionTimestamp != nil && (old == nil || old.DeletionTimestamp == nil):
		c.exp.DeletionObserved(key, api.KeyOf(p))
	}
	q.Add(key)
}

// owner is the pod's DaemonSet, if the controller's cache holds it.
func (c *Controller) owner(p *api.Pod) *api.DaemonSet {
	ds, _ := controllerutil.ResolveControllerRef[*api.DaemonSet](c.Informer, api.KindDaemonSet, p.Namespace, p.ControllerRef())
	return ds
}

// nodeChanged is shouldIgnoreNodeUpdate's opposite: only a change of
// labels or taints can change where daemon pods run.
func nodeChanged(old, cur *api.Node) bool {
	return !maps.Equal(old.Labels, cur.Labels) || !slices.EqualFunc(old.Spec.Taints, cur.Spec.Taints, func(a, b api.Taint) bool {
		return a.Key == b.Key && a.Value == b.Value && a.Effect == b.Effect && (a.TimeAdded == nil) == (b.TimeAdded == nil) && (a.TimeAdded == nil || *a.TimeAdded == *b.TimeAdded)
	})
}
