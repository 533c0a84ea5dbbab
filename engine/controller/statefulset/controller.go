package statefulset

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/controller/refmanager"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// Name is the component name in the trace and in Event sources.
const Name = "statefulset-controller"

// Controller is the StatefulSet controller with its cache of
// StatefulSets, Pods, PersistentVolumeClaims and ControllerRevisions.
type Controller struct {
	reconcile.Base
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindStatefulSet, api.KindPod, api.KindPersistentVolumeClaim, api.KindControllerRevision))}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component { return &Controller{Base: c.CloneBase()} }

// Observe queues the StatefulSet it concerns
// (the handlers of stateful_set.go: a set's own changes, and any change
// of one of its pods).
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.StatefulSet:
		q.Add(api.KeyOf(o))
	case *api.Pod:
		set := c.owner(o)
		if set == nil {
			if o.ControllerRef() == nil && o.DeletionTimestamp == nil {
				// An orphan: the sets that may adopt it.
				for _, s := range c.Informer.List(api.KindStatefulSet, o.Namespace) {
					if s.(*api.StatefulSet).Spec.Selector.Matches(o.Labels) {
						q.Add(api.KeyOf(s))
					}
				}
			}
			return
		}
		q.Add(api.KeyOf(set))
		old, _ := ev.Old.(*api.Pod)
		if old != nil && !api.IsPodReady(old) && api.IsPodReady(o) && set.Spec.MinReadySeconds > 0 {
			q.AddAfter(api.KeyOf(set), int64(set.Spec.MinReadySeconds)*1000)
		}
	}
}

// owner is the pod's StatefulSet, if the cache holds it.
func (c *Controller) owner(p *api.Pod) *api.StatefulSet {
	set, _ := controllerutil.ResolveControllerRef[*api.StatefulSet](c.Informer, api.KindStatefulSet, p.Namespace, p.ControllerRef())
	return set
}

// Reconcile is sync and UpdateStatefulSet (stateful_set.go,
// stateful_set_control.go): the revisions, the pods, the status, then
// the history's cleanup.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	set, ok := informer.Get[*api.StatefulSet](c.Informer, key)
	if !ok {
		tick.Explain("sts/%s: deleted; the garbage collector removes its pods (its claims stay)", key.Name)
		return reconcile.Result{}, nil
	}
	tick.Read(set)
	pods, err := c.pods(tick, set)
	if err != nil {
		return reconcile.Result{}, err
	}
	revisions := c.revisions(set)
	current, update, revisions, err := c.getStatefulSetRevisions(tick, set, revisions)
	if err != nil {
		return reconcile.Result{}, err
	}
	s := &setSync{c: c, tick: tick, set: set, current: current, update: update}
	status, note, syncErr := s.updateStatefulSet(pods)
	// The status and the history are kept up even after a failure
	// (performUpdate, UpdateStatefulSet).
	written, err := c.updateStatefulSetStatus(tick, set, status)
	if syncErr != nil {
		tick.Explain("sts/%s: %v%s", set.Name, syncErr, note)
		return reconcile.Result{}, syncErr
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if err := c.truncateHistory(tick, set, pods, revisions, current, update); err != nil {
		return reconcile.Result{}, err
	}
	tick.Explain("sts/%s: %d of %d pods ready, %d at the update revision%s", set.Name, written.ReadyReplicas, set.Replicas(), written.UpdatedReplicas, note)
	if set.Spec.MinReadySeconds > 0 && written.ReadyReplicas != written.AvailableReplicas {
		return reconcile.Result{RequeueAfter: int64(set.Spec.MinReadySeconds) * 1000}, nil
	}
	return reconcile.Result{}, nil
}

// pods is getPodsForStatefulSet: the cached pods the set controls and
// the orphans its selector matches whose names make them its members
// (isMemberOf), claimed (PodControllerRefManager).
func (c *Controller) pods(tick reconcile.Tick, set *api.StatefulSet) ([]*api.Pod, error) {
	owned, orphans := refmanager.CachedPods(c.Informer, set)
	member := func(p *api.Pod) bool {
		parent, _, ok := getParentNameAndOrdinal(p.Name)
		return ok && parent == set.Name
	}
	return refmanager.ClaimPods(tick, set, set.Spec.Selector, owned, orphans, member)
}

// revisions lists the cached ControllerRevisions the set controls.
func (c *Controller) revisions(set *api.StatefulSet) []*api.ControllerRevision {
	var out []*api.ControllerRevision
	c.Informer.EachOwned(api.KindControllerRevision, set.UID, func(o api.Object) { out = append(out, o.(*api.ControllerRevision)) })
	return out
}
