package pvcprotection

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace.
const Name = "pvc-protection-controller"

// Controller is the PVC protection controller with its cache of claims
// and pods.
type Controller struct {
	reconcile.Base
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindPersistentVolumeClaim, api.KindPod))}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component { return &Controller{Base: c.CloneBase()} }

// Observe queues a claim being deleted (pvcAddedUpdated), and the claims
// being deleted that a pod mounts when the pod goes, finishes or is
// scheduled (podAddedDeletedUpdated). Upstream queues every claim a pod
// mounts and finds most of them not being deleted; those visits write
// nothing and are left out here.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.PersistentVolumeClaim:
		if ev.Type != apiserver.Deleted && beingDeleted(o) {
			q.Add(api.KeyOf(o))
		}
	case *api.Pod:
		if ev.Type != apiserver.Deleted && !terminal(o) && o.Spec.NodeName == "" {
			return // cannot help a finalizer go
		}
		for _, name := range claimsOf(o) {
			k := api.Key{Kind: api.KindPersistentVolumeClaim, Namespace: o.Namespace, Name: name}
			if pvc, ok := informer.Get[*api.PersistentVolumeClaim](c.Informer, k); ok && beingDeleted(pvc) {
				q.Add(k)
			}
		}
	}
}

// Reconcile is processPVC: a claim being deleted keeps its finalizer while
// a scheduled pod mounts it (isBeingUsed, which asks the API server when
// the cache shows none), and loses it once none does.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	pvc, ok := informer.Get[*api.PersistentVolumeClaim](c.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "")
	}
	tick.Read(pvc)
	if !beingDeleted(pvc) {
		tick.Explain("pvc/%s is not being deleted", pvc.Name)
		return reconcile.Result{}, nil
	}
	if user := c.user(tick, pvc); user != "" {
		tick.Explain("pvc/%s is being deleted but pod/%s mounts it: its %s finalizer stays", pvc.Name, user, api.FinalizerPVCProtection)
		return reconcile.Result{}, nil
	}
	next := pvc.DeepCopy()
	next.Finalizers = slices.DeleteFunc(next.Finalizers, func(f string) bool { return f == api.FinalizerPVCProtection })
	if _, err := tick.Update(trace.Translate, next, "pvc/"+pvc.Name+": removed the "+api.FinalizerPVCProtection+" finalizer"); err != nil {
		return reconcile.Result{}, err
	}
	tick.Explain("pvc/%s: no pod mounts it any more; removed its %s finalizer, so the API server deletes it", pvc.Name, api.FinalizerPVCProtection)
	return reconcile.Result{}, nil
}

// user names a scheduled pod that mounts the claim: from the cache, then,
// when it shows none, from the API server (askInformer, askAPIServer).
func (c *Controller) user(tick reconcile.Tick, pvc *api.PersistentVolumeClaim) string {
	for _, o := range c.Informer.List(api.KindPod, pvc.Namespace) {
		if p := o.(*api.Pod); usesClaim(p, pvc.Name) {
			return p.Name
		}
	}
	for _, o := range tick.LiveList(api.KindPod, pvc.Namespace) {
		if p := o.(*api.Pod); usesClaim(p, pvc.Name) {
			tick.Read(p)
			return p.Name
		}
	}
	return ""
}

// usesClaim is podUsesPVC: a scheduled pod with a volume of the claim,
// finished or not (the kubelet may still be tearing it down).
func usesClaim(p *api.Pod, claim string) bool {
	return p.Spec.NodeName != "" && slices.Contains(claimsOf(p), claim)
}

// claimsOf names the claims the pod's volumes mount.
func claimsOf(p *api.Pod) []string {
	var out []string
	for _, v := range p.Spec.Volumes {
		if v.PersistentVolumeClaim != nil {
			out = append(out, v.PersistentVolumeClaim.ClaimName)
		}
	}
	return out
}

func beingDeleted(pvc *api.PersistentVolumeClaim) bool {
	return pvc.DeletionTimestamp != nil && slices.Contains(pvc.Finalizers, api.FinalizerPVCProtection)
}

func terminal(p *api.Pod) bool {
	return p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed
}
