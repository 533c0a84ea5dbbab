package nodelifecycle

import (
	"fmt"
	"maps"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name; its Events carry the source "node-controller".
const Name = "node-lifecycle-controller"

// Defaults of kube-controller-manager: --node-monitor-grace-period 50s
// (40s until kubernetes/kubernetes#126287, merged July 2024, raised it in
// pkg/controller/nodelifecycle/config/v1alpha1/defaults.go) and
// --node-monitor-period 5s.
const (
	DefaultGracePeriodMS   = 50_000
	DefaultMonitorPeriodMS = 5_000
)

// Taint keys (k8s.io/api/core/v1 well_known_taints.go).
const (
	TaintNotReady    = "node.kubernetes.io/not-ready"
	TaintUnreachable = "node.kubernetes.io/unreachable"
)

// Controller is the node lifecycle controller.
//
// Lease renewals are not writes in the simulation (a Lease every 10 s
// would be a tick per node every 10 s): a healthy kubelet counts as
// renewing continuously, and the engine tells the controller when a
// node's kubelet stops renewing (LeaseStopped) and starts again
// (LeaseResumed), as its lease informer would see.
type Controller struct {
	reconcile.Base
	stopped map[string]int64 // node → when its kubelet last renewed
	grace   int64
}

// New returns a controller with the given node monitor grace period.
func New(graceMS int64) *Controller {
	if graceMS <= 0 {
		graceMS = DefaultGracePeriodMS
	}
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindNode, api.KindPod)), stopped: map[string]int64{}, grace: graceMS}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), stopped: maps.Clone(c.stopped), grace: c.grace}
}

// LeaseStopped records that node's kubelet stopped renewing its Lease at
// time at (the first stop counts until LeaseResumed).
func (c *Controller) LeaseStopped(node string, at int64) {
	if _, already := c.stopped[node]; !already {
		c.stopped[node] = at
	}
}

// LeaseResumed records that node's kubelet renews its Lease again.
func (c *Controller) LeaseResumed(node string) { delete(c.stopped, node) }

// lastRenew is when node's Lease was last renewed, as of now.
func (c *Controller) lastRenew(node string, now int64) int64 {
	if since, ok := c.stopped[node]; ok {
		return since
	}
	return now
}

// GracePeriod is the node monitor grace period in ms.
func (c *Controller) GracePeriod() int64 { return c.grace }

// Observe queues nodes whose status changed.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	if n, ok := ev.Object.(*api.Node); ok && ev.Type != apiserver.Deleted {
		q.Add(api.KeyOf(n))
	}
}

// Reconcile is monitorNodeHealth for one node.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	n, ok := informer.Get[*api.Node](c.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "")
	}
	tick.Read(n)
	now := tick.Now()
	ready := n.Status.Condition(api.NodeReady)
	silent := now - c.lastRenew(n.Name, now)
	if silent > c.grace && (ready == nil || ready.Status != api.ConditionUnknown) {
		return reconcile.Result{}, c.markUnknown(tick, n, silent)
	}
	changed, err := c.syncTaints(tick, n)
	if err != nil {
		return reconcile.Result{}, err
	}
	if !changed {
		tick.Explain("node/%s: Ready=%s, lease renewed %s ago; taints in step", n.Name, status(ready), trace.FormatTime(silent))
	}
	return reconcile.Result{}, nil
}

func status(c *api.NodeCondition) string {
	if c == nil {
		return "<none>"
	}
	return c.Status
}

// markUnknown sets every kubelet-posted condition to Unknown, marks the
// node's pods not ready and records the NodeNotReady events.
func (c *Controller) markUnknown(tick reconcile.Tick, n *api.Node, silent int64) error {
	cp := n.DeepCopy()
	now := api.At(tick.Now())
	for i := range cp.Status.Conditions {
		cond := &cp.Status.Conditions[i]
		if cond.Status != api.ConditionUnknown {
			cond.LastTransitionTime = now
		}
		cond.Status, cond.Reason, cond.Message = api.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status."
	}
	updated, err := tick.UpdateStatus(trace.Aggregate, cp, fmt.Sprintf("node/%s conditions Unknown (NodeStatusUnknown)", n.Name))
	if err != nil {
		return err
	}
	tick.Event(n, "", api.EventNormal, "NodeNotReady", fmt.Sprintf("Node %s status is now: NodeNotReady", n.Name))
	marked := 0
	for _, o := range c.Informer.OnNode(n.Name) {
		p := o.(*api.Pod)
		if !api.IsPodReady(p) || p.DeletionTimestamp != nil {
			continue
		}
		pc := *p
		pc.Status.Conditions = append([]api.PodCondition(nil), p.Status.Conditions...)
		apiserver.SetPodCondition(&pc.Status, api.PodCondition{Type: api.PodReady, Status: api.ConditionFalse}, tick.Now())
		if _, err := tick.PatchStatus(trace.Aggregate, &pc, fmt.Sprintf("pod/%s Ready=False: its node is not ready", p.Name)); err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return err
		}
		tick.Event(p, "", api.EventWarning, "NodeNotReady", "Node is not ready")
		marked++
	}
	if _, err := c.syncTaints(tick, updated.(*api.Node)); err != nil {
		return err
	}
	tick.Explain("node/%s: no lease renewal for %s (> %s grace): conditions Unknown, %d pods marked not ready, unreachable taints added",
		n.Name, trace.FormatTime(silent), trace.FormatTime(c.grace), marked)
	return nil
}

// desiredTaints is the not-ready/unreachable taints the Ready condition
// calls for (NoSchedule from TaintNodesByCondition, NoExecute for eviction).
func desiredTaints(ready *api.NodeCondition) []string {
	switch status(ready) {
	case api.ConditionFalse:
		return []string{TaintNotReady}
	case api.ConditionUnknown:
		return []string{TaintUnreachable}
	}
	return nil
}

// syncTaints adds and removes the condition taints; it reports whether it wrote.
func (c *Controller) syncTaints(tick reconcile.Tick, n *api.Node) (bool, error) {
	want := desiredTaints(n.Status.Condition(api.NodeReady))
	var taints []api.Taint
	for _, t := range n.Spec.Taints {
		if t.Key != TaintNotReady && t.Key != TaintUnreachable {
			taints = append(taints, t)
		}
	}
	for _, key := range want {
		for _, effect := range []string{api.TaintNoSchedule, api.TaintNoExecute} {
			t := api.Taint{Key: key, Effect: effect}
			if old := findTaint(n.Spec.Taints, key, effect); old != nil {
				t = *old
			} else if effect == api.TaintNoExecute {
				at := api.At(tick.Now())
				t.TimeAdded = &at
			}
			taints = append(taints, t)
		}
	}
	if reflect.DeepEqual(taints, n.Spec.Taints) || len(taints) == 0 && len(n.Spec.Taints) == 0 {
		return false, nil
	}
	live, ok := tick.LiveGet(api.KeyOf(n))
	if !ok {
		return false, nil
	}
	cp := live.(*api.Node).DeepCopy()
	cp.Spec.Taints = taints
	if _, err := tick.Update(trace.Translate, cp, fmt.Sprintf("node/%s taints: %s", n.Name, taintList(taints))); err != nil {
		return false, err
	}
	if len(want) == 0 {
		tick.Event(n, "", api.EventNormal, "NodeReady", fmt.Sprintf("Node %s status is now: NodeReady", n.Name))
		tick.Explain("node/%s is Ready again: removed the not-ready/unreachable taints", n.Name)
	} else {
		tick.Explain("node/%s Ready=%s: taints now %s", n.Name, status(n.Status.Condition(api.NodeReady)), taintList(taints))
	}
	return true, nil
}

func findTaint(ts []api.Taint, key, effect string) *api.Taint {
	for i := range ts {
		if ts[i].Key == key && ts[i].Effect == effect {
			return &ts[i]
		}
	}
	return nil
}

func taintList(ts []api.Taint) string {
	if len(ts) == 0 {
		return "<none>"
	}
	out := ""
	for i, t := range ts {
		if i > 0 {
			out += ", "
		}
		out += t.Key + ":" + t.Effect
	}
	return out
}
