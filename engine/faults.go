package engine

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/nodelifecycle"
	"github.com/stateflow/stateflow/engine/trace"
)

// Fault is a fault a scenario action injects: the engine applies it in
// the action's tick, with the world it owns (SetNodeHealth, KillPod,
// FailImage make one).
type Fault struct {
	apply func(w *world, tick *liveTick) error
}

// SetNodeHealth is a node fault: condition "Unreachable" stops the node's
// kubelet (no status, no lease renewal, no pod sync), "NotReady" keeps it
// running but reporting Ready=False, and "Ready" brings it back. The change
// itself writes nothing: the kubelet and the node lifecycle controller
// react in their own ticks.
func SetNodeHealth(node string, condition kubelet.Health) *Fault {
	return &Fault{apply: func(w *world, tick *liveTick) error {
		i, k, ok := w.agent(node)
		if !ok {
			return fmt.Errorf("nodes %q not found", node)
		}
		if _, p, ok := w.nodeProxy(node); ok && p.Waiting() {
			return fmt.Errorf("node %q has not joined the cluster yet", node)
		}
		was := k.Health()
		for _, key := range k.SetHealth(condition) {
			w.enqueue(i, key, w.now)
		}
		if i, lc, ok := w.lifecycle(); ok {
			if condition == kubelet.Unreachable {
				lc.LeaseStopped(node, w.now)
				w.enqueue(i, api.Key{Kind: api.KindNode, Name: node}, nextMonitor(w.now+lc.GracePeriod()+1))
			} else {
				lc.LeaseResumed(node)
			}
		}
		tick.Explain("fault: %s", faultText(node, was, condition))
		return nil
	}}
}

// nextMonitor is the first node-monitor-period boundary at or after t.
func nextMonitor(t int64) int64 {
	p := int64(nodelifecycle.DefaultMonitorPeriodMS)
	return (t + p - 1) / p * p
}

func faultText(node string, was, now kubelet.Health) string {
	switch now {
	case kubelet.Unreachable:
		return fmt.Sprintf("node/%s becomes unreachable: its kubelet stops renewing its lease, posting status and syncing pods", node)
	case kubelet.NotReady:
		return fmt.Sprintf("node/%s's container runtime goes down: its kubelet reports Ready=False", node)
	}
	return fmt.Sprintf("node/%s recovers (was %s): its kubelet reports Ready and resyncs its pods", node, was)
}

// leaseTracker is what a node fault needs of the node lifecycle
// controller: when a node's Lease stops and resumes, and its grace period.
type leaseTracker interface {
	LeaseStopped(node string, at int64)
	LeaseResumed(node string)
	GracePeriod() int64
}

// lifecycle is the node lifecycle controller and its index, if the engine
// runs one.
func (w *world) lifecycle() (int, leaseTracker, bool) {
	for i, c := range w.comps {
		if _, ok := c.(leaseTracker); ok && c.Name() == NodeLifecycleController {
			return i, w.comp(i).(leaseTracker), true
		}
	}
	return 0, nil, false
}

// KillPod is a fault that kills the containers of one pod (by name, or the
// first pod by name matching a label selector such as "app=web") in
// namespace ns: its kubelet sees them exit with code 137 and restarts them
// as the pod's restartPolicy says (not at all with Never: the pod fails).
func KillPod(ns, target string, match func(labels map[string]string) bool) *Fault {
	return &Fault{apply: func(w *world, tick *liveTick) error {
		var pod *api.Pod
		for _, o := range w.store.List(api.KindPod, ns) {
			p := o.(*api.Pod)
			if p.DeletionTimestamp == nil && (p.Name == target || match != nil && match(p.Labels)) && p.Spec.NodeName != "" {
				pod = p
				break
			}
		}
		if pod == nil {
			tick.Explain("fault: kill-pod %s found no running pod in namespace %s", target, ns)
			return nil
		}
		i, k, ok := w.agent(pod.Spec.NodeName)
		if !ok || !k.Kill(api.KeyOf(pod), w.now) {
			tick.Explain("fault: pod/%s has no running container to kill", pod.Name)
			return nil
		}
		tick.Read(pod)
		w.enqueue(i, api.KeyOf(pod), w.now)
		if kubelet.Restarts(pod.Spec.RestartPolicy, 137) {
			tick.Explain("fault: the containers of pod/%s on %s are killed (exit code 137); its kubelet will notice and restart them (restartPolicy %s)", pod.Name, pod.Spec.NodeName, pod.Spec.RestartPolicy)
		} else {
			tick.Explain("fault: the containers of pod/%s on %s are killed (exit code 137); with restartPolicy %s its kubelet will not restart them, and the pod fails", pod.Name, pod.Spec.NodeName, pod.Spec.RestartPolicy)
		}
		return nil
	}}
}

// FailImage is a fault that makes every later pull of image fail on every
// node, as when a tag is deleted from the registry. Nodes that already
// have it keep it.
func FailImage(image string) *Fault {
	return &Fault{apply: func(w *world, tick *liveTick) error {
		msg := fmt.Sprintf("rpc error: code = NotFound desc = failed to pull and unpack image %q: not found", image)
		for node := range w.kubelets {
			if _, k, ok := w.agent(node); ok {
				k.FailImage(image, msg)
			}
		}
		tick.Explain("fault: image %s disappears from its registry; every new pull of it fails", image)
		return nil
	}}
}

// AddNode is a node joining the cluster: its kubelet registers the Node
// (a realize effect of the tick) and its kube-proxy starts and programs
// every Service's rules. The node must be one of Config.JoiningNodes.
func AddNode(node *api.Node) *Fault {
	return &Fault{apply: func(w *world, tick *liveTick) error {
		i, p, ok := w.nodeProxy(node.Name)
		if !ok || !p.Waiting() {
			return fmt.Errorf("node %q is not a node that joins later, or has already joined", node.Name)
		}
		if _, err := tick.Create(trace.Realize, node.DeepCopy(), "kubelet registered node/"+node.Name); err != nil {
			return err
		}
		key := w.comp(i).(serviceProxy).Start()
		w.enqueue(i, key, w.now)
		tick.Explain("node/%s joins the cluster: its kubelet registers the Node, and its kube-proxy starts programming the Services' rules", node.Name)
		return nil
	}}
}
