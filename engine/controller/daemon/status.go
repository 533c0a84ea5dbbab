package daemon

import (
	"fmt"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// calculateStatus is updateDaemonSetStatus's count: per node, the oldest
// of its pods says whether it is ready, available and up to date.
func (c *Controller) calculateStatus(ds *api.DaemonSet, nodes []*api.Node, pods []*api.Pod, hash string, now int64) api.DaemonSetStatus {
	byNode := nodesToDaemonPods(pods)
	var st api.DaemonSetStatus
	for _, n := range nodes {
		run, _ := NodeShouldRunDaemonPod(n, ds)
		pods := byNode[n.Name]
		if !run {
			if len(pods) > 0 {
				st.NumberMisscheduled++
			}
			continue
		}
		st.DesiredNumberScheduled++
		if len(pods) == 0 {
			continue
		}
		st.CurrentNumberScheduled++
		p := slices.MinFunc(pods, byAge)
		if api.IsPodReady(p) {
			st.NumberReady++
			if api.IsPodAvailable(p, ds.Spec.MinReadySeconds, now) {
				st.NumberAvailable++
			}
		}
		if isPodUpdated(p, hash, ds) {
			st.UpdatedNumberScheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	return st
}

// updateStatus is updateDaemonSetStatus and storeDaemonSetStatus: the
// status is written only when it changes, the observed generation (of
// the DaemonSet synced) only after a full sync; a conflict is retried
// once on the live object (storeDaemonSetStatus reads it with a Get).
func (c *Controller) updateStatus(tick reconcile.Tick, ds *api.DaemonSet, nodes []*api.Node, pods []*api.Pod, hash string, observed bool) (api.DaemonSetStatus, error) {
	st := c.calculateStatus(ds, nodes, pods, hash, tick.Now())
	cur := ds
	for attempt := 0; ; attempt++ {
		st.ObservedGeneration, st.CollisionCount = cur.Status.ObservedGeneration, cur.Status.CollisionCount
		if observed {
			st.ObservedGeneration = ds.Generation // the generation synced, not the live one
		}
		if st == cur.Status {
			return st, nil
		}
		next := cur.DeepCopy()
		next.Status = st
		_, err := tick.UpdateStatus(trace.Aggregate, next, summary(ds, st))
		if err == nil || attempt > 0 || !apiserver.IsReason(err, apiserver.ReasonConflict) {
			return st, err
		}
		live, ok := tick.LiveGet(api.KeyOf(ds))
		if !ok {
			return st, nil
		}
		cur = live.(*api.DaemonSet)
	}
}

func summary(ds *api.DaemonSet, st api.DaemonSetStatus) string {
	return fmt.Sprintf("ds/%s status: %d/%d ready, %d up to date, %d available", ds.Name, st.NumberReady, st.DesiredNumberScheduled, st.UpdatedNumberScheduled, st.NumberAvailable)
}
