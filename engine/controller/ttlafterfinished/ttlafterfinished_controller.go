package ttlafterfinished

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace.
const Name = "ttl-after-finished-controller"

// Controller is the TTL-after-finished controller with its cache of Jobs.
type Controller struct {
	reconcile.Base
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindJob))}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component { return &Controller{Base: c.CloneBase()} }

// Observe queues a finished Job with a TTL that is not being deleted
// already (addJob, updateJob).
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	if j, ok := ev.Object.(*api.Job); ok && ev.Type != apiserver.Deleted && j.DeletionTimestamp == nil && needsCleanup(j) {
		q.Add(api.KeyOf(j))
	}
}

// Reconcile is processJob: delete the Job once its TTL has passed, after
// checking the API server's copy; otherwise come back when it will have.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	j, ok := informer.Get[*api.Job](c.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "")
	}
	tick.Read(j)
	left, err := processTTL(j, tick.Now())
	if err != nil || left == nil {
		return reconcile.Result{}, err
	}
	if *left > 0 {
		tick.Explain("job/%s finished; its ttlSecondsAfterFinished (%ds) expires in %s", j.Name, *j.Spec.TTLSecondsAfterFinished, trace.FormatTime(*left))
		return reconcile.Result{RequeueAfter: *left}, nil
	}
	o, ok := tick.LiveGet(key)
	if !ok {
		return reconcile.Gone(tick, key, "")
	}
	fresh := o.(*api.Job)
	if left, err = processTTL(fresh, tick.Now()); err != nil || left == nil {
		return reconcile.Result{}, err
	}
	if *left > 0 {
		return reconcile.Result{RequeueAfter: *left}, nil
	}
	summary := fmt.Sprintf("job/%s finished %ds ago (ttlSecondsAfterFinished): deleted with its pods", fresh.Name, *fresh.Spec.TTLSecondsAfterFinished)
	if err := tick.Delete(trace.Translate, key, apiserver.DeleteOptions{UID: fresh.UID, Propagation: "foreground"}, summary); err != nil {
		return reconcile.Result{}, err
	}
	tick.Explain("%s", summary)
	return reconcile.Result{}, nil
}

// needsCleanup: a TTL is set and the Job has finished.
func needsCleanup(j *api.Job) bool {
	return j.Spec.TTLSecondsAfterFinished != nil && j.Finished()
}

// processTTL is processTTL and timeLeft: nil when the Job needs no
// cleanup (or is being deleted already), else the time left (≤ 0:
// expired).
func processTTL(j *api.Job, now int64) (*int64, error) {
	if j.DeletionTimestamp != nil || !needsCleanup(j) {
		return nil, nil
	}
	finish, ok := jobFinishTime(j)
	if !ok {
		return nil, fmt.Errorf("unable to find the time when the Job %s/%s finished", j.Namespace, j.Name)
	}
	left := finish + int64(*j.Spec.TTLSecondsAfterFinished)*1000 - now
	return &left, nil
}

// jobFinishTime is the Complete or Failed condition's transition time.
func jobFinishTime(j *api.Job) (int64, bool) {
	for _, c := range j.Status.Conditions {
		if (c.Type == api.JobComplete || c.Type == api.JobFailed) && c.Status == api.ConditionTrue && c.LastTransitionTime.Set {
			return c.LastTransitionTime.MS, true
		}
	}
	return 0, false
}
