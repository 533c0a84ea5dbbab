package deployment

import (
	"fmt"
	"sort"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// rolloutRolling implements the RollingUpdate strategy (rolling.go): scale
// the new ReplicaSet up within maxSurge, or else scale old ones down within
// maxUnavailable, never both in one pass.
func (s *syncer) rolloutRolling(d *api.Deployment, rsList []*api.ReplicaSet) (reconcile.Result, error) {
	newRS, oldRSs, err := s.getAllReplicaSetsAndSyncRevision(d, rsList, true)
	if err != nil {
		return reconcile.Result{}, err
	}
	allRSs := append(append([]*api.ReplicaSet(nil), oldRSs...), newRS)
	scaledUp, err := s.reconcileNewReplicaSet(allRSs, newRS, d)
	if err != nil {
		return reconcile.Result{}, err
	}
	if scaledUp {
		return s.syncRolloutStatus(allRSs, newRS, d)
	}
	scaledDown, err := s.reconcileOldReplicaSets(allRSs, activeRSs(oldRSs), newRS, d)
	if err != nil {
		return reconcile.Result{}, err
	}
	if scaledDown {
		return s.syncRolloutStatus(allRSs, newRS, d)
	}
	if deploymentComplete(d, &d.Status) {
		if err := s.cleanupDeployment(oldRSs, d); err != nil {
			return reconcile.Result{}, err
		}
	}
	return s.syncRolloutStatus(allRSs, newRS, d)
}

func (s *syncer) reconcileNewReplicaSet(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	if newRS.Replicas() == d.Replicas() {
		return false, nil
	}
	if newRS.Replicas() > d.Replicas() {
		scaled, _, err := s.scaleReplicaSetAndRecordEvent(newRS, d.Replicas(), d)
		return scaled, err
	}
	n := newRSNewReplicas(d, allRSs, newRS)
	if n == newRS.Replicas() {
		s.Note("new %s stays at %d: %d pods already (maxSurge allows %d)", rsKey(newRS), n, getReplicaCountForReplicaSets(allRSs), d.Replicas()+MaxSurge(d))
	}
	scaled, _, err := s.scaleReplicaSetAndRecordEvent(newRS, n, d)
	return scaled, err
}

func (s *syncer) reconcileOldReplicaSets(allRSs, oldRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (bool, error) {
	if getReplicaCountForReplicaSets(oldRSs) == 0 {
		return false, nil
	}
	allPodsCount := getReplicaCountForReplicaSets(allRSs)
	minAvailable := d.Replicas() - MaxUnavailable(d)
	newRSUnavailable := newRS.Replicas() - newRS.Status.AvailableReplicas
	maxScaledDown := allPodsCount - minAvailable - newRSUnavailable
	if maxScaledDown <= 0 {
		s.Note("old ReplicaSets wait: %d pods, %d must stay available, %d new pods not available yet", allPodsCount, minAvailable, newRSUnavailable)
		return false, nil
	}
	// Upstream swallows both errors below (returns false, nil), so the
	// sync goes on to clean up old revisions and write the status; the
	// error never reaches the trace, so the note says what was skipped.
	oldRSs, cleaned, err := s.cleanupUnhealthyReplicas(oldRSs, maxScaledDown, d)
	if err != nil {
		s.Note("skipped scaling down old ReplicaSets this sync: %v", err)
		return false, nil
	}
	allRSs = append(append([]*api.ReplicaSet(nil), oldRSs...), newRS)
	scaled, err := s.scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs, d)
	if err != nil {
		s.Note("stopped scaling down old ReplicaSets this sync: %v", err)
		return false, nil
	}
	return cleaned+scaled > 0, nil
}

// cleanupUnhealthyReplicas scales down old ReplicaSets' unavailable pods
// first, oldest ReplicaSet first.
func (s *syncer) cleanupUnhealthyReplicas(oldRSs []*api.ReplicaSet, maxCleanup int32, d *api.Deployment) ([]*api.ReplicaSet, int32, error) {
	byCreation(oldRSs)
	var total int32
	for i, rs := range oldRSs {
		if total >= maxCleanup {
			break
		}
		if rs.Replicas() == 0 || rs.Replicas() == rs.Status.AvailableReplicas {
			continue
		}
		n := min(maxCleanup-total, rs.Replicas()-rs.Status.AvailableReplicas)
		newReplicas := rs.Replicas() - n
		if newReplicas > rs.Replicas() {
			// The cached status shows more available pods than spec asks
			// for: a scale-down the ReplicaSet controller has not carried
			// out yet. Earlier ReplicaSets in this loop stay scaled.
			return nil, 0, fmt.Errorf("when cleaning up unhealthy replicas, got invalid request to scale down %s/%s %d -> %d", rs.Namespace, rs.Name, rs.Replicas(), newReplicas)
		}
		_, updated, err := s.scaleReplicaSetAndRecordEvent(rs, newReplicas, d)
		if err != nil {
			return nil, total, err
		}
		total += n
		oldRSs[i] = updated
	}
	return oldRSs, total, nil
}

// scaleDownOldReplicaSetsForRollingUpdate scales old ReplicaSets down as
// far as availability allows, oldest first.
func (s *syncer) scaleDownOldReplicaSetsForRollingUpdate(allRSs, oldRSs []*api.ReplicaSet, d *api.Deployment) (int32, error) {
	minAvailable := d.Replicas() - MaxUnavailable(d)
	available := getAvailableReplicaCountForReplicaSets(allRSs)
	if available <= minAvailable {
		s.Note("old ReplicaSets wait: %d available, at least %d must stay available", available, minAvailable)
		return 0, nil
	}
	sort.SliceStable(oldRSs, func(i, j int) bool {
		a, b := oldRSs[i], oldRSs[j]
		if a.CreationTimestamp.MS == b.CreationTimestamp.MS {
			return a.Name < b.Name
		}
		return a.CreationTimestamp.MS < b.CreationTimestamp.MS
	})
	var total int32
	budget := available - minAvailable
	for _, rs := range oldRSs {
		if total >= budget {
			break
		}
		if rs.Replicas() == 0 {
			continue
		}
		n := min(rs.Replicas(), budget-total)
		if _, _, err := s.scaleReplicaSetAndRecordEvent(rs, rs.Replicas()-n, d); err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}
