package deployment

import (
	"github.com/stateflow/stateflow/engine/api/labels"

	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name used in Event sources and the trace.
const Name = "deployment-controller"

// Controller is the deployment controller with its informer cache of
// Deployments, ReplicaSets and Pods.
type Controller struct {
	reconcile.Base
}

// New returns a deployment controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindDeployment, api.KindReplicaSet, api.KindPod))}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component { return &Controller{Base: c.CloneBase()} }

// Observe queues the deployments it concerns,
// like the controller's add/update/delete handlers.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.Deployment:
		q.Add(api.KeyOf(o))
	case *api.ReplicaSet:
		c.enqueueForReplicaSet(o, q)
		if old, ok := ev.Old.(*api.ReplicaSet); ok && ev.Type == apiserver.Modified {
			if oref, nref := old.ControllerRef(), o.ControllerRef(); oref != nil && (nref == nil || oref.UID != nref.UID) {
				c.enqueueForReplicaSet(old, q)
			}
		}
	case *api.Pod:
		if ev.Type == apiserver.Deleted {
			c.podDeleted(o, q)
		}
	}
}

func (c *Controller) enqueueForReplicaSet(rs *api.ReplicaSet, q reconcile.Queue) {
	if ref := rs.ControllerRef(); ref != nil {
		if ref.Kind != api.KindDeployment {
			return
		}
		if d := c.deployment(rs.Namespace, ref.Name); d != nil && d.UID == ref.UID {
			q.Add(api.KeyOf(d))
		}
		return
	}
	for _, o := range c.Informer.List(api.KindDeployment, rs.Namespace) {
		if d := o.(*api.Deployment); d.Spec.Selector.Matches(rs.Labels) {
			q.Add(api.KeyOf(d))
		}
	}
}

// podDeleted wakes a Recreate deployment once its last pod is gone.
func (c *Controller) podDeleted(p *api.Pod, q reconcile.Queue) {
	ref := p.ControllerRef()
	if ref == nil {
		return
	}
	rsObj, ok := c.Informer.Get(api.Key{Kind: api.KindReplicaSet, Namespace: p.Namespace, Name: ref.Name})
	if !ok {
		return
	}
	dref := rsObj.Meta().ControllerRef()
	if dref == nil {
		return
	}
	d := c.deployment(p.Namespace, dref.Name)
	if d == nil || d.Spec.Strategy.Type != api.RecreateStrategy {
		return
	}
	for _, rs := range c.Informer.Owned(api.KindReplicaSet, d.UID) {
		if c.Informer.CountOwned(api.KindPod, rs.Meta().UID) > 0 {
			return
		}
	}
	q.Add(api.KeyOf(d))
}

func (c *Controller) deployment(ns, name string) *api.Deployment {
	d, _ := informer.Get[*api.Deployment](c.Informer, api.Key{Kind: api.KindDeployment, Namespace: ns, Name: name})
	return d
}

// syncer carries one sync's tick, cache and time, and the notes that
// become the tick's explanation.
type syncer struct {
	tick  reconcile.Tick
	cache *informer.Cache
	now   int64
	reconcile.Notes
}

// Reconcile is syncDeployment (deployment_controller.go).
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	s := &syncer{tick: tick, cache: c.Informer, now: tick.Now()}
	res, err := c.syncDeployment(s, key)
	otherwise := "nothing to change"
	if d := c.deployment(key.Namespace, key.Name); d != nil {
		otherwise = fmt.Sprintf("nothing to change (%d/%d available, %d updated)", d.Status.AvailableReplicas, d.Replicas(), d.Status.UpdatedReplicas)
	}
	s.Explain(tick, "deploy/"+key.Name, otherwise)
	return res, err
}

func (c *Controller) syncDeployment(s *syncer, key api.Key) (reconcile.Result, error) {
	cached := c.deployment(key.Namespace, key.Name)
	if cached == nil {
		s.Note("deleted; nothing to do")
		return reconcile.Result{}, nil
	}
	s.tick.Read(cached)
	d := cached.DeepCopy()
	if d.Spec.Selector.Empty() {
		s.tick.Event(d, "", api.EventWarning, "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required.")
		if d.Status.ObservedGeneration < d.Generation {
			d.Status.ObservedGeneration = d.Generation
			_, _ = s.tick.UpdateStatus(trace.Aggregate, d, "observedGeneration")
		}
		return reconcile.Result{}, nil
	}
	rsList, err := c.getReplicaSetsForDeployment(s, d)
	if err != nil {
		return reconcile.Result{}, err
	}
	s.describe(d, rsList)
	if d.DeletionTimestamp != nil {
		return reconcile.Result{}, s.syncStatusOnly(d, rsList)
	}
	if err := s.checkPausedConditions(d); err != nil {
		return reconcile.Result{}, err
	}
	if d.Spec.Paused {
		return s.sync(d, rsList)
	}
	scaling, err := s.isScalingEvent(d, rsList)
	if err != nil {
		return reconcile.Result{}, err
	}
	if scaling {
		s.Note("spec.replicas changed to %d: scaling, not a rollout", d.Replicas())
		return s.sync(d, rsList)
	}
	if d.Spec.Strategy.Type == api.RecreateStrategy {
		return s.rolloutRecreate(d, rsList, c.getPodMapForDeployment(rsList))
	}
	return s.rolloutRolling(d, rsList)
}

// describe notes what the controller's cache showed it.
func (s *syncer) describe(d *api.Deployment, rsList []*api.ReplicaSet) {
	for _, rs := range rsList {
		s.tick.Read(rs)
	}
	if len(rsList) == 0 {
		s.Note("saw no ReplicaSet for the template")
	}
}

func (s *syncer) syncStatusOnly(d *api.Deployment, rsList []*api.ReplicaSet) error {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return err
	}
	return s.syncDeploymentStatus(append(oldRSs, newRS), newRS, d)
}

// getReplicaSetsForDeployment returns the ReplicaSets the deployment
// controls, adopting matching orphans and releasing owned ones that no
// longer match (ControllerRefManager.ClaimReplicaSets).
func (c *Controller) getReplicaSetsForDeployment(s *syncer, d *api.Deployment) ([]*api.ReplicaSet, error) {
	var out []*api.ReplicaSet
	selector := d.Spec.Selector.AsSelector()
	for _, o := range c.Informer.Owned(api.KindReplicaSet, d.UID) {
		rs := o.(*api.ReplicaSet)
		if selector.Matches(labels.Set(rs.Labels)) || d.DeletionTimestamp != nil {
			out = append(out, rs)
			continue
		}
		if err := s.release(d, rs); err != nil {
			return nil, err
		}
	}
	if d.DeletionTimestamp != nil {
		return out, nil
	}
	for _, o := range c.Informer.Orphans(api.KindReplicaSet, d.Namespace) {
		rs := o.(*api.ReplicaSet)
		if rs.DeletionTimestamp != nil || !selector.Matches(labels.Set(rs.Labels)) {
			continue
		}
		adopted, err := s.adopt(d, rs)
		if err != nil {
			if apiserver.IsReason(err, apiserver.ReasonNotFound) {
				continue
			}
			return nil, err
		}
		out = append(out, adopted)
	}
	return out, nil
}

func (s *syncer) adopt(d *api.Deployment, rs *api.ReplicaSet) (*api.ReplicaSet, error) {
	c := rs.DeepCopy()
	c.OwnerReferences = append(c.OwnerReferences, api.NewControllerRef(d, "apps/v1"))
	out, err := s.tick.Update(trace.Translate, c, fmt.Sprintf("deploy/%s adopted orphan %s", d.Name, rsKey(rs)))
	if err != nil {
		return nil, err
	}
	s.Note("adopted orphan %s", rsKey(rs))
	return out.(*api.ReplicaSet), nil
}

func (s *syncer) release(d *api.Deployment, rs *api.ReplicaSet) error {
	c := rs.DeepCopy()
	var refs []api.OwnerReference
	for _, r := range c.OwnerReferences {
		if r.UID != d.UID {
			refs = append(refs, r)
		}
	}
	c.OwnerReferences = refs
	_, err := s.tick.Update(trace.Translate, c, fmt.Sprintf("deploy/%s released %s (labels no longer match)", d.Name, rsKey(rs)))
	if err == nil {
		s.Note("released %s", rsKey(rs))
	}
	return err
}

// getPodMapForDeployment groups the cached pods by owning ReplicaSet UID.
func (c *Controller) getPodMapForDeployment(rsList []*api.ReplicaSet) map[string][]*api.Pod {
	m := make(map[string][]*api.Pod, len(rsList))
	for _, rs := range rsList {
		var pods []*api.Pod
		c.Informer.EachOwned(api.KindPod, rs.UID, func(o api.Object) { pods = append(pods, o.(*api.Pod)) })
		m[rs.UID] = pods
	}
	return m
}
