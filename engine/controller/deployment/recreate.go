package deployment

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// rolloutRecreate implements the Recreate strategy (recreate.go): scale
// every old ReplicaSet to zero, wait until no old pod object is left, then
// create the new ReplicaSet at full size.
func (s *syncer) rolloutRecreate(d *api.Deployment, rsList []*api.ReplicaSet, podMap map[string][]*api.Pod) (reconcile.Result, error) {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(d, rsList, false)
	if err != nil {
		return reconcile.Result{}, err
	}
	allRSs := append(append([]*api.ReplicaSet(nil), oldRSs...), newRS)
	active := activeRSs(oldRSs)
	if len(active) > 0 {
		for _, rs := range active {
			if _, _, err := s.scaleReplicaSetAndRecordEvent(rs, 0, d); err != nil {
				return reconcile.Result{}, err
			}
		}
		return s.syncRolloutStatus(allRSs, newRS, d)
	}
	if oldPodsRunning(newRS, oldRSs, podMap) {
		s.Note("Recreate waits until every old pod is gone")
		return s.syncRolloutStatus(allRSs, newRS, d)
	}
	if newRS == nil {
		newRS, oldRSs, err = s.getAllReplicaSetsAndSyncRevision(d, rsList, true)
		if err != nil {
			return reconcile.Result{}, err
		}
		allRSs = append(append([]*api.ReplicaSet(nil), oldRSs...), newRS)
	}
	if _, _, err := s.scaleReplicaSetAndRecordEvent(newRS, d.Replicas(), d); err != nil {
		return reconcile.Result{}, err
	}
	if deploymentComplete(d, &d.Status) {
		if err := s.cleanupDeployment(oldRSs, d); err != nil {
			return reconcile.Result{}, err
		}
	}
	return s.syncRolloutStatus(allRSs, newRS, d)
}

// oldPodsRunning reports whether any old ReplicaSet still has pods, or any
// pod of an old ReplicaSet still exists and is not terminal.
func oldPodsRunning(newRS *api.ReplicaSet, oldRSs []*api.ReplicaSet, podMap map[string][]*api.Pod) bool {
	if getActualReplicaCountForReplicaSets(oldRSs) > 0 {
		return true
	}
	for uid, pods := range podMap {
		if newRS != nil && newRS.UID == uid {
			continue
		}
		for _, p := range pods {
			if p.Status.Phase != api.PodFailed && p.Status.Phase != api.PodSucceeded {
				return true
			}
		}
	}
	return false
}
