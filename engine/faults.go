package engine

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/nodelifecycle"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// leaseView implements nodelifecycle.Leases from the kubelets' health: an
// unreachable kubelet stopped renewing when the fault began.
type leaseView struct{ w *world }

func (l leaseView) LastRenew(node string, now int64) int64 {
	if since, down := l.w.down[node]; down {
		return since
	}
	return now
}

// SetNodeCondition applies a node fault from a scenario action: condition
// "Unreachable" stops the node's kubelet (no status, no lease renewal, no
// pod sync), "NotReady" keeps it running but reporting Ready=False, and
// "Ready" brings it back. The change itself writes nothing: the kubelet and
// the node lifecycle controller react in their own ticks.
func SetNodeCondition(ctx reconcile.Context, node, condition string) error {
	tc, ok := ctx.(*tickCtx)
	if !ok {
		return fmt.Errorf("node faults run only inside the engine")
	}
	w := tc.w
	i, ok := w.kubelets[node]
	if !ok {
		return fmt.Errorf("nodes %q not found", node)
	}
	k := w.comps[i].(*kubelet.Kubelet)
	was := k.Health()
	for _, key := range k.SetHealth(condition) {
		w.enqueue(i, key, w.now)
	}
	if condition == "Unreachable" {
		if _, already := w.down[node]; !already {
			w.down[node] = w.now
		}
		if lc := w.lifecycle(); lc >= 0 {
			grace := w.comps[lc].(*nodelifecycle.Controller).GracePeriod()
			w.enqueue(lc, api.Key{Kind: api.KindNode, Name: node}, nextMonitor(w.now+grace+1))
		}
	} else {
		delete(w.down, node)
	}
	ctx.Explain("fault: %s", faultText(node, was, condition))
	return nil
}

// nextMonitor is the first node-monitor-period boundary at or after t.
func nextMonitor(t int64) int64 {
	p := int64(nodelifecycle.DefaultMonitorPeriodMS)
	return (t + p - 1) / p * p
}

func faultText(node, was, now string) string {
	switch now {
	case "Unreachable":
		return fmt.Sprintf("node/%s becomes unreachable: its kubelet stops renewing its lease, posting status and syncing pods", node)
	case "NotReady":
		return fmt.Sprintf("node/%s's container runtime goes down: its kubelet reports Ready=False", node)
	}
	return fmt.Sprintf("node/%s recovers (was %s): its kubelet reports Ready and resyncs its pods", node, was)
}

// lifecycle is the index of the node lifecycle controller, or -1.
func (w *world) lifecycle() int {
	for i, c := range w.comps {
		if _, ok := c.(*nodelifecycle.Controller); ok {
			return i
		}
	}
	return -1
}

// KillPod kills the containers of one pod (by name, or the first pod by
// name matching a label selector such as "app=web") in namespace ns: its
// kubelet sees them exit with code 137 and restarts them.
func KillPod(ctx reconcile.Context, ns, target string, match func(labels map[string]string) bool) error {
	tc, ok := ctx.(*tickCtx)
	if !ok {
		return fmt.Errorf("faults run only inside the engine")
	}
	w := tc.w
	var pod *api.Pod
	for _, o := range w.store.List(api.KindPod, ns) {
		p := o.(*api.Pod)
		if p.DeletionTimestamp == nil && (p.Name == target || match != nil && match(p.Labels)) && p.Spec.NodeName != "" {
			pod = p
			break
		}
	}
	if pod == nil {
		ctx.Explain("fault: kill-pod %s found no running pod in namespace %s", target, ns)
		return nil
	}
	i, ok := w.kubelets[pod.Spec.NodeName]
	if !ok || !w.comps[i].(*kubelet.Kubelet).Kill(api.KeyOf(pod), w.now) {
		ctx.Explain("fault: pod/%s has no running container to kill", pod.Name)
		return nil
	}
	ctx.Read(pod)
	w.enqueue(i, api.KeyOf(pod), w.now)
	ctx.Explain("fault: the containers of pod/%s on %s are killed (exit code 137); its kubelet will notice and restart them", pod.Name, pod.Spec.NodeName)
	return nil
}

// FailImage makes every later pull of image fail on every node, as when a
// tag is deleted from the registry. Nodes that already have it keep it.
func FailImage(ctx reconcile.Context, image string) error {
	tc, ok := ctx.(*tickCtx)
	if !ok {
		return fmt.Errorf("faults run only inside the engine")
	}
	msg := fmt.Sprintf("rpc error: code = NotFound desc = failed to pull and unpack image %q: not found", image)
	for _, i := range tc.w.kubelets {
		tc.w.comps[i].(*kubelet.Kubelet).FailImage(image, msg)
	}
	ctx.Explain("fault: image %s disappears from its registry; every new pull of it fails", image)
	return nil
}
