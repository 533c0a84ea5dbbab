package daemon

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/refmanager"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Reconcile is syncDaemonSet (daemon_controller.go): the revisions, then
// (when the last sync's creations and deletions have been seen) manage
// and the rolling update, then the history's cleanup and the status.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	ds, ok := informer.Get[*api.DaemonSet](c.Informer, key)
	if !ok {
		delete(c.exp, key)
		tick.Explain("ds/%s: deleted; the garbage collector removes its pods", key.Name)
		return reconcile.Result{}, nil
	}
	tick.Read(ds)
	if ds.Spec.Selector.Empty() {
		tick.Event(ds, "", api.EventWarning, "SelectingAll", "This daemon set is selecting all pods. A non-empty selector is required.")
		tick.Explain("ds/%s selects every pod: refuses to act", ds.Name)
		return reconcile.Result{}, nil
	}
	if ds.DeletionTimestamp != nil {
		// No revisions or status for a DaemonSet being deleted: the
		// garbage collector is removing them (syncDaemonSet).
		tick.Explain("ds/%s is being deleted: nothing to do", ds.Name)
		return reconcile.Result{}, nil
	}
	nodes := c.nodes()
	pods, err := c.getDaemonPods(tick, ds)
	if err != nil {
		return reconcile.Result{}, err
	}
	cur, old, err := c.constructHistory(tick, ds)
	if err != nil {
		return reconcile.Result{}, fmt.Errorf("failed to construct revisions of DaemonSet: %w", err)
	}
	hash := cur.Labels[api.LabelControllerRevisionHash]
	if !c.exp.Satisfied(key, tick.Now()) {
		notes := []string{"waits for its earlier creations/deletions to show up in its cache"}
		return c.finish(tick, ds, nodes, pods, hash, false, notes)
	}
	notes, err := c.updateDaemonSet(tick, ds, nodes, pods, hash, old)
	// The status is written even after a failure (syncDaemonSet).
	res, statusErr := c.finish(tick, ds, nodes, pods, hash, true, notes)
	if err != nil {
		return res, err
	}
	return res, statusErr
}

// updateDaemonSet is updateDaemonSet: manage, then (once the last
// sync's creations and deletions are seen) the rolling update, then the
// history's cleanup; it stops at the first error.
func (c *Controller) updateDaemonSet(tick reconcile.Tick, ds *api.DaemonSet, nodes []*api.Node, pods []*api.Pod, hash string, old []*api.ControllerRevision) ([]string, error) {
	notes, err := c.manage(tick, ds, nodes, pods, hash)
	if err != nil {
		return notes, err
	}
	if c.exp.Satisfied(api.KeyOf(ds), tick.Now()) && ds.Spec.UpdateStrategy.Type == api.DaemonSetRollingUpdate {
		note, err := c.rollingUpdate(tick, ds, nodes, pods, hash)
		notes = append(notes, note...)
		if err != nil {
			return notes, err
		}
	}
	if err := c.cleanupHistory(tick, ds, pods, old); err != nil {
		return notes, fmt.Errorf("failed to clean up revisions of DaemonSet: %w", err)
	}
	return notes, nil
}

// finish writes the status and explains the sync.
func (c *Controller) finish(tick reconcile.Tick, ds *api.DaemonSet, nodes []*api.Node, pods []*api.Pod, hash string, observed bool, notes []string) (reconcile.Result, error) {
	st, err := c.updateStatus(tick, ds, nodes, pods, hash, observed)
	if err != nil {
		return reconcile.Result{}, err
	}
	action := ""
	if len(notes) > 0 {
		action = "; " + strings.Join(notes, "; ")
	}
	tick.Explain("ds/%s: %d nodes should run its pod; %d have one, %d ready, %d up to date%s", ds.Name, st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady, st.UpdatedNumberScheduled, action)
	if ds.Spec.MinReadySeconds > 0 && st.NumberReady != st.NumberAvailable {
		return reconcile.Result{RequeueAfter: int64(ds.Spec.MinReadySeconds) * 1000}, nil
	}
	return reconcile.Result{}, nil
}

// nodes lists the cached nodes by name.
func (c *Controller) nodes() []*api.Node {
	objs := c.Informer.List(api.KindNode, "")
	out := make([]*api.Node, len(objs))
	for i, o := range objs {
		out[i] = o.(*api.Node)
	}
	return out
}

// getDaemonPods is getDaemonPods: the cached pods the DaemonSet
// controls, and the orphans its selector matches, claimed
// (PodControllerRefManager).
func (c *Controller) getDaemonPods(tick reconcile.Tick, ds *api.DaemonSet) ([]*api.Pod, error) {
	owned, orphans := refmanager.CachedPods(c.Informer, ds)
	return refmanager.ClaimPods(tick, ds, ds.Spec.Selector, owned, orphans, nil)
}

// nodesToDaemonPods is getNodesToDaemonPods: the DaemonSet's pods by the
// node they are bound or pinned to, oldest first; pods deleted after
// finishing are left out.
func nodesToDaemonPods(pods []*api.Pod) map[string][]*api.Pod {
	out := map[string][]*api.Pod{}
	for _, p := range pods {
		if p.DeletionTimestamp != nil && (p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed) {
			continue
		}
		if n := targetNode(p); n != "" {
			out[n] = append(out[n], p)
		}
	}
	for _, pods := range out {
		slices.SortFunc(pods, byAge)
	}
	return out
}

// manage is manage: a pod for every node that should run one and has
// none, and away with pods on nodes that may not keep them (or surplus
// ones, or finished ones).
func (c *Controller) manage(tick reconcile.Tick, ds *api.DaemonSet, nodes []*api.Node, pods []*api.Pod, hash string) ([]string, error) {
	byNode := nodesToDaemonPods(pods)
	var create, del []string
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.Name] = true
		need, gone := c.podsShouldBeOnNode(tick, n, byNode[n.Name], ds, hash)
		if need {
			create = append(create, n.Name)
		}
		del = append(del, gone...)
	}
	// Pods pinned to nodes that no longer exist, never bound.
	var vanished []string
	for n, pods := range byNode {
		if known[n] {
			continue
		}
		for _, p := range pods {
			if p.Spec.NodeName == "" && p.DeletionTimestamp == nil {
				vanished = append(vanished, p.Name)
			}
		}
	}
	sort.Strings(vanished)
	del = append(del, vanished...)
	return c.syncNodes(tick, ds, del, create, hash)
}

// podsShouldBeOnNode is podsShouldBeOnNode: whether the node needs a
// pod, and which of its pods to delete.
func (c *Controller) podsShouldBeOnNode(tick reconcile.Tick, n *api.Node, pods []*api.Pod, ds *api.DaemonSet, hash string) (bool, []string) {
	shouldRun, shouldContinue := NodeShouldRunDaemonPod(n, ds)
	var del []string
	switch {
	case shouldRun && len(pods) == 0:
		return true, nil
	case shouldContinue:
		var running []*api.Pod // oldest first
		for _, p := range pods {
			switch {
			case p.DeletionTimestamp != nil:
			case p.Status.Phase == api.PodFailed:
				tick.Event(ds, "", api.EventWarning, "FailedDaemonPod", fmt.Sprintf("Found failed daemon pod %s/%s on node %s, will try to kill it", p.Namespace, p.Name, n.Name))
				del = append(del, p.Name)
			case p.Status.Phase == api.PodSucceeded:
				tick.Event(ds, "", api.EventNormal, "SucceededDaemonPod", fmt.Sprintf("Found succeeded daemon pod %s/%s on node %s, will try to delete it", p.Namespace, p.Name, n.Name))
				del = append(del, p.Name)
			default:
				running = append(running, p)
			}
		}
		if allowsSurge(ds) && len(running) == 0 && shouldRun {
			return true, del // surging: the node needs a pod that is not going
		}
		del = append(del, surplus(ds, hash, running, tick.Now())...)
	case len(pods) > 0:
		for _, p := range pods {
			if p.DeletionTimestamp == nil {
				del = append(del, p.Name)
			}
		}
	}
	return false, del
}

// surplus is which of a node's running pods (oldest first) go: all but
// the oldest without surge; with surge, every pod but the oldest of the
// current hash and the oldest of another, and that old one too once it
// is not Ready or the new one is available.
func surplus(ds *api.DaemonSet, hash string, running []*api.Pod, now int64) []string {
	if len(running) <= 1 {
		return nil
	}
	var out []string
	if !allowsSurge(ds) {
		for _, p := range running[1:] {
			out = append(out, p.Name)
		}
		return out
	}
	var oldestNew, oldestOld *api.Pod
	for _, p := range running {
		switch {
		case p.Labels[api.LabelControllerRevisionHash] == hash && oldestNew == nil:
			oldestNew = p
		case p.Labels[api.LabelControllerRevisionHash] != hash && oldestOld == nil:
			oldestOld = p
		default:
			out = append(out, p.Name)
		}
	}
	if oldestNew != nil && oldestOld != nil && (!api.IsPodReady(oldestOld) || api.IsPodAvailable(oldestNew, ds.Spec.MinReadySeconds, now)) {
		out = append(out, oldestOld.Name)
	}
	return out
}

// allowsSurge is AllowsSurge: a rolling update with maxSurge above 0.
func allowsSurge(ds *api.DaemonSet) bool {
	ru := ds.Spec.UpdateStrategy.RollingUpdate
	if ds.Spec.UpdateStrategy.Type != api.DaemonSetRollingUpdate || ru == nil || ru.MaxSurge == nil {
		return false
	}
	v, _ := ru.MaxSurge.ScaledValue(1, true)
	return v > 0
}

// syncNodes is syncNodes: deletions, then creations in slow-start
// batches (1, 2, 4, …), each capped at BurstReplicas, with expectations
// set first so the next sync waits to see them.
func (c *Controller) syncNodes(tick reconcile.Tick, ds *api.DaemonSet, del, create []string, hash string) ([]string, error) {
	key := api.KeyOf(ds)
	create = create[:min(len(create), BurstReplicas)]
	del = del[:min(len(del), BurstReplicas)]
	if len(create) == 0 && len(del) == 0 {
		return nil, nil
	}
	delKeys := make([]api.Key, len(del))
	for i, name := range del {
		delKeys[i] = api.Key{Kind: api.KindPod, Namespace: ds.Namespace, Name: name}
	}
	c.exp.Expect(key, len(create), delKeys, tick.Now())
	var notes []string
	var firstErr error
	created := 0
	for batch, next := min(len(create), 1), 0; batch > 0; batch = min(2*batch, len(create)-next) {
		failed := false
		for _, node := range create[next : next+batch] {
			if err := c.createPod(tick, ds, hash, node); err != nil {
				c.exp.CreationObserved(key)
				failed = true
				firstErr = cmpErr(firstErr, err)
				continue
			}
			created++
		}
		next += batch
		if failed {
			for range create[next:] {
				c.exp.CreationObserved(key) // the batches left are skipped
			}
			break
		}
	}
	if created > 0 {
		notes = append(notes, fmt.Sprintf("created %d pods (for %s)", created, nodeList(create[:created])))
	}
	deleted := 0
	for i, name := range del {
		if err := c.deletePod(tick, ds, name); err != nil {
			c.exp.DeletionObserved(key, delKeys[i])
			firstErr = cmpErr(firstErr, err)
			continue
		}
		deleted++
	}
	if deleted > 0 {
		notes = append(notes, fmt.Sprintf("deleted %d pods (%s)", deleted, strings.Join(del, ", ")))
	}
	return notes, firstErr
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

func nodeList(nodes []string) string {
	if len(nodes) > 3 {
		return fmt.Sprintf("%s and %d more nodes", strings.Join(nodes[:3], ", "), len(nodes)-3)
	}
	return strings.Join(nodes, ", ")
}

func (c *Controller) createPod(tick reconcile.Tick, ds *api.DaemonSet, hash, node string) error {
	created, err := tick.Create(trace.Translate, newPod(ds, hash, node), "")
	if err != nil {
		tick.Event(ds, "", api.EventWarning, "FailedCreate", "Error creating: "+err.Error())
		return err
	}
	tick.Event(ds, "", api.EventNormal, "SuccessfulCreate", "Created pod: "+created.Meta().Name)
	return nil
}

func (c *Controller) deletePod(tick reconcile.Tick, ds *api.DaemonSet, name string) error {
	key := api.Key{Kind: api.KindPod, Namespace: ds.Namespace, Name: name}
	err := tick.Delete(trace.Translate, key, apiserver.DeleteOptions{}, fmt.Sprintf("ds/%s deleted pod/%s", ds.Name, name))
	if err != nil {
		if apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return nil
		}
		tick.Event(ds, "", api.EventWarning, "FailedDelete", "Error deleting: "+err.Error())
		return err
	}
	tick.Event(ds, "", api.EventNormal, "SuccessfulDelete", "Deleted pod: "+name)
	return nil
}
