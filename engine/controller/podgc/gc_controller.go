package podgc

import (
	"errors"
	"fmt"
	"maps"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace.
const Name = "pod-garbage-collector"

// The sweep's timing (gc_controller.go).
const (
	GCCheckPeriodMS  = 20_000
	QuarantineTimeMS = 40_000
)

// Controller is the pod garbage collector.
type Controller struct {
	reconcile.Base
	// quarantine is, per missing node, when its quarantine ends (the
	// delaying queue's AddAfter).
	quarantine map[string]int64
}

// New returns a collector with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindPod, api.KindNode)), quarantine: map[string]int64{}}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), quarantine: maps.Clone(c.quarantine)}
}

// nextSweep is the first sweep at or after t.
func nextSweep(t int64) int64 {
	return (t + GCCheckPeriodMS - 1) / GCCheckPeriodMS * GCCheckPeriodMS
}

// Observe queues a deleted node's name for the next sweep, and the node
// of a pod bound to a node the cache does not hold.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	node := ""
	switch o := ev.Object.(type) {
	case *api.Node:
		if ev.Type == apiserver.Deleted {
			node = o.Name
		}
	case *api.Pod:
		if ev.Type != apiserver.Deleted && o.Spec.NodeName != "" {
			if _, ok := c.Informer.Get(api.Key{Kind: api.KindNode, Name: o.Spec.NodeName}); !ok {
				node = o.Spec.NodeName
			}
		}
	}
	if node != "" {
		q.AddAfter(api.Key{Kind: api.KindNode, Name: node}, nextSweep(q.Now())-q.Now())
	}
}

// Reconcile is one sweep's gcOrphaned for one node: quarantine it the
// first time, and once the quarantine is over and the API server still
// has no such node, mark its pods Failed and force delete them.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	now := tick.Now()
	if _, ok := c.Informer.Get(key); ok {
		delete(c.quarantine, key.Name)
		tick.Explain("node/%s exists again: its pods are not orphans", key.Name)
		return reconcile.Result{}, nil
	}
	pods := c.Informer.OnNode(key.Name)
	if len(pods) == 0 {
		delete(c.quarantine, key.Name)
		tick.Explain("node/%s is gone and no pod is bound to it", key.Name)
		return reconcile.Result{}, nil
	}
	until, ok := c.quarantine[key.Name]
	if !ok || now < until {
		if !ok {
			until = now + QuarantineTimeMS
			c.quarantine[key.Name] = until
		}
		tick.Explain("node/%s is gone but %d pod(s) are bound to it: quarantined until %s in case it comes back", key.Name, len(pods), trace.FormatTime(until))
		return reconcile.Result{RequeueAfter: nextSweep(until) - now}, nil
	}
	if _, exists := tick.LiveGet(key); exists {
		delete(c.quarantine, key.Name)
		tick.Explain("node/%s exists again (live read): its pods are not orphans", key.Name)
		return reconcile.Result{}, nil
	}
	// Each pod on its own, as upstream (an error is logged and the others
	// go on); the quarantine is over, so a retry deletes at once.
	var errs []error
	for _, o := range pods {
		tick.Read(o)
		if err := markFailedAndDeletePod(tick, o.(*api.Pod)); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return reconcile.Result{}, errors.Join(errs...)
	}
	delete(c.quarantine, key.Name)
	tick.Explain("node/%s no longer exists: %d orphaned pod(s) marked Failed and force deleted", key.Name, len(pods))
	return reconcile.Result{}, nil
}

// markFailedAndDeletePodWithCondition: Failed with the DisruptionTarget
// condition (a pod of a gone node would stay Running forever, with no
// kubelet to end it), then a delete with grace period 0.
func markFailedAndDeletePod(tick reconcile.Tick, p *api.Pod) error {
	if p.Status.Phase != api.PodSucceeded && p.Status.Phase != api.PodFailed {
		next := p.DeepCopy()
		next.Status.Phase = api.PodFailed
		api.UpdatePodCondition(&next.Status, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "DeletionByPodGC",
			Message: "PodGC: node no longer exists"}, tick.Now())
		if _, err := tick.PatchStatus(trace.Realize, next, fmt.Sprintf("pod/%s: Failed (PodGC: node no longer exists)", p.Name)); err != nil {
			if apiserver.IsReason(err, apiserver.ReasonNotFound) {
				return nil
			}
			return err
		}
	}
	err := tick.Delete(trace.Translate, api.KeyOf(p), apiserver.DeleteOptions{GracePeriodSeconds: api.Int64(0), UID: p.UID},
		fmt.Sprintf("force deleted pod/%s: its node is gone", p.Name))
	if err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
		return err
	}
	return nil
}
