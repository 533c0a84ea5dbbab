package job

import (
	"maps"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// Name is the component name in the trace and in Event sources.
const Name = "job-controller"

// Timings of the controller's work queue (job_controller.go).
const (
	// syncJobBatchPeriod batches the syncs that pod events and status
	// updates trigger.
	syncJobBatchPeriod = 1000
	// defaultJobAPIBackOff and maxJobAPIBackOff are the queue's rate
	// limiter after a failed sync.
	defaultJobAPIBackOff = 1000
	maxJobAPIBackOff     = 60_000
	// maxPodCreateDeletePerSync and maxUncountedPods cap one sync's work.
	maxPodCreateDeletePerSync = 500
	maxUncountedPods          = 500
)

// Controller is the Job controller with its cache of Jobs and Pods and
// the state upstream keeps between syncs: the expectations, the pods
// whose finalizer removal it has yet to see, the failure backoff records
// and the Jobs it marked finished.
type Controller struct {
	reconcile.Base
	expectations podExpectations
	finalizers   uidTrackingExpectations
	backoff      map[api.Key]backoffRecord
	finishedUIDs map[string]bool // finishedJobExpectations
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindJob, api.KindPod)), expectations: podExpectations{},
		finalizers: uidTrackingExpectations{}, backoff: map[api.Key]backoffRecord{}, finishedUIDs: map[string]bool{}}
}

// FailureBackoff is the queue's rate limiter: 1 s doubling to 1 minute
// (DefaultJobApiBackOff, MaxJobApiBackOff).
func (c *Controller) FailureBackoff() (base, max int64) {
	return defaultJobAPIBackOff, maxJobAPIBackOff
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), expectations: maps.Clone(c.expectations), finalizers: c.finalizers.clone(),
		backoff: maps.Clone(c.backoff), finishedUIDs: maps.Clone(c.finishedUIDs)}
}

// Backoff returns the failure backoff record the controller keeps for a
// Job: the failures since its last success and when the last finished
// (ms), for the differential harness.
func (c *Controller) Backoff(k api.Key) (failures int32, lastFailure int64, ok bool) {
	b, ok := c.backoff[k]
	return b.failuresAfterLastSuccess, b.lastFailure, ok && b.set
}

// Observe queues what it concerns (addJob,
// updateJob, deleteJob, addPod, updatePod, deletePod).
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.Job:
		c.observeJob(ev, o, q)
	case *api.Pod:
		old, _ := ev.Old.(*api.Pod)
		switch {
		case ev.Type == apiserver.Deleted:
			c.deletePod(o, true, q)
		case o.DeletionTimestamp != nil:
			c.deletePod(o, false, q)
		case ev.Type == apiserver.Added:
			c.addPod(o, q)
		default:
			c.updatePod(old, o, q)
		}
	}
}

func (c *Controller) observeJob(ev apiserver.WatchEvent, j *api.Job, q reconcile.Queue) {
	key := api.KeyOf(j)
	switch ev.Type {
	case apiserver.Added:
		q.Add(key)
	case apiserver.Deleted:
		q.Add(key)
		delete(c.finishedUIDs, j.UID)
		c.enqueueLabelSelector(j, q)
		delete(c.backoff, key)
	default:
		old, _ := ev.Old.(*api.Job)
		if j.Finished() {
			c.enqueueLabelSelector(j, q)
			return
		}
		if old != nil && j.Generation == old.Generation {
			q.AddAfter(key, syncJobBatchPeriod)
		} else {
			q.Add(key)
		}
		if j.Status.StartTime != nil && j.Spec.ActiveDeadlineSeconds != nil && old != nil {
			if o := old.Spec.ActiveDeadlineSeconds; o == nil || *o != *j.Spec.ActiveDeadlineSeconds {
				q.AddAfter(key, max(0, *j.Spec.ActiveDeadlineSeconds*1000-(q.Now()-j.Status.StartTime.MS)))
			}
		}
	}
}

// enqueueLabelSelector queues the Job's pods that still carry the
// tracking finalizer, to have it removed (orphan pods of a finished or
// deleted Job).
func (c *Controller) enqueueLabelSelector(j *api.Job, q reconcile.Queue) {
	for _, o := range c.Informer.List(api.KindPod, j.Namespace) {
		if p := o.(*api.Pod); hasJobTrackingFinalizer(p) && j.Spec.Selector.Matches(p.Labels) {
			q.Add(api.KeyOf(p))
		}
	}
}

func (c *Controller) addPod(p *api.Pod, q reconcile.Queue) {
	if ref := p.ControllerRef(); ref != nil {
		j := c.resolveControllerRef(p.Namespace, ref)
		if j == nil {
			return
		}
		c.expectations.creationObserved(api.KeyOf(j))
		q.AddAfter(api.KeyOf(j), syncJobBatchPeriod)
		return
	}
	if hasJobTrackingFinalizer(p) {
		q.Add(api.KeyOf(p))
	}
	for _, j := range c.getPodJobs(p) {
		q.AddAfter(api.KeyOf(j), syncJobBatchPeriod)
	}
}

func (c *Controller) updatePod(old, cur *api.Pod, q reconcile.Queue) {
	if old != nil && old.ResourceVersion == cur.ResourceVersion {
		return
	}
	finalizerRemoved := !hasJobTrackingFinalizer(cur)
	curRef := cur.ControllerRef()
	var oldRef *api.OwnerReference
	if old != nil {
		oldRef = old.ControllerRef()
	}
	refChanged := !controllerutil.SameControllerRef(curRef, oldRef)
	if refChanged && oldRef != nil {
		if j := c.resolveControllerRef(cur.Namespace, oldRef); j != nil {
			if finalizerRemoved {
				c.finalizers.finalizerRemovalObserved(api.KeyOf(j), cur.UID)
			}
			q.AddAfter(api.KeyOf(j), syncJobBatchPeriod)
		}
	}
	if curRef != nil {
		j := c.resolveControllerRef(cur.Namespace, curRef)
		if j == nil {
			return
		}
		if finalizerRemoved {
			c.finalizers.finalizerRemovalObserved(api.KeyOf(j), cur.UID)
		}
		q.AddAfter(api.KeyOf(j), syncJobBatchPeriod)
		return
	}
	if hasJobTrackingFinalizer(cur) {
		q.Add(api.KeyOf(cur))
	}
	if refChanged || old == nil || !maps.Equal(old.Labels, cur.Labels) {
		for _, j := range c.getPodJobs(cur) {
			q.AddAfter(api.KeyOf(j), syncJobBatchPeriod)
		}
	}
}

// deletePod is deletePod: a pod deleted, or being deleted (final false).
func (c *Controller) deletePod(p *api.Pod, final bool, q reconcile.Queue) {
	ref := p.ControllerRef()
	has := hasJobTrackingFinalizer(p)
	if ref == nil {
		if has {
			q.Add(api.KeyOf(p))
		}
		return
	}
	j := c.resolveControllerRef(p.Namespace, ref)
	if j == nil || j.Finished() {
		if has {
			q.Add(api.KeyOf(p))
		}
		return
	}
	key := api.KeyOf(j)
	c.expectations.deletionObserved(key)
	if final || !has {
		c.finalizers.finalizerRemovalObserved(key, p.UID)
	}
	q.AddAfter(key, syncJobBatchPeriod)
}

// resolveControllerRef is the cached Job a controller reference names.
func (c *Controller) resolveControllerRef(ns string, ref *api.OwnerReference) *api.Job {
	j, _ := controllerutil.ResolveControllerRef[*api.Job](c.Informer, api.KindJob, ns, ref)
	return j
}

// getPodJobs is the Jobs whose selector matches an orphan pod.
func (c *Controller) getPodJobs(p *api.Pod) []*api.Job {
	if len(p.Labels) == 0 {
		return nil
	}
	var out []*api.Job
	for _, o := range c.Informer.List(api.KindJob, p.Namespace) {
		if j := o.(*api.Job); j.Spec.Selector.Matches(p.Labels) {
			out = append(out, j)
		}
	}
	return out
}

func hasJobTrackingFinalizer(p *api.Pod) bool {
	return slices.Contains(p.Finalizers, api.JobTrackingFinalizer)
}
