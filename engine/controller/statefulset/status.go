package statefulset

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// status is computeReplicaStatus over the sync's pods (new ones not yet
// created are not counted).
func (s *setSync) status() api.StatefulSetStatus {
	var collisions int32 // always written, 0 when none (updateStatefulSet)
	if c := s.set.Status.CollisionCount; c != nil {
		collisions = *c
	}
	st := api.StatefulSetStatus{ObservedGeneration: s.set.Generation, CurrentRevision: s.current.Name, UpdateRevision: s.update.Name,
		CollisionCount: &collisions}
	now := s.tick.Now()
	for _, p := range append(append([]*api.Pod(nil), s.replicas...), s.condemned...) {
		if isCreated(p) {
			st.Replicas++
		}
		if isRunningAndReady(p) {
			st.ReadyReplicas++
			if isRunningAndAvailable(p, s.set.Spec.MinReadySeconds, now) {
				st.AvailableReplicas++
			}
		}
		if isCreated(p) && !isTerminating(p) {
			if podRevision(p) == s.current.Name {
				st.CurrentReplicas++
			}
			if podRevision(p) == s.update.Name {
				st.UpdatedReplicas++
			}
		}
	}
	return st
}

// completeRollingUpdate is completeRollingUpdate: once every pod is
// updated and ready, the update revision becomes the current one.
func completeRollingUpdate(set *api.StatefulSet, st *api.StatefulSetStatus) {
	if set.Spec.UpdateStrategy.Type == api.StatefulSetRollingUpdate && st.UpdatedReplicas == st.ReadyReplicas &&
		st.ReadyReplicas == set.Replicas() && st.Replicas == set.Replicas() {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
}

// updateStatefulSetStatus is updateStatefulSetStatus: written only when
// it differs (inconsistentStatus).
func (c *Controller) updateStatefulSetStatus(tick reconcile.Tick, set *api.StatefulSet, st api.StatefulSetStatus) (api.StatefulSetStatus, error) {
	completeRollingUpdate(set, &st)
	if !inconsistent(set, &st) {
		return st, nil
	}
	next := set.DeepCopy()
	next.Status = st
	summary := fmt.Sprintf("sts/%s status: %d/%d ready, %d current, %d updated", set.Name, st.ReadyReplicas, set.Replicas(), st.CurrentReplicas, st.UpdatedReplicas)
	// UpdateStatefulSetStatus retries a conflict against its lister, the
	// cache the sync read: within one sync that cache cannot have caught
	// up, so a conflict ends the sync with the error, and the set is
	// synced again.
	_, err := tick.UpdateStatus(trace.Aggregate, next, summary)
	return st, err
}

// inconsistent is inconsistentStatus.
func inconsistent(set *api.StatefulSet, st *api.StatefulSetStatus) bool {
	c := &set.Status
	return st.ObservedGeneration > c.ObservedGeneration || c.CollisionCount == nil || st.Replicas != c.Replicas || st.CurrentReplicas != c.CurrentReplicas ||
		st.ReadyReplicas != c.ReadyReplicas || st.AvailableReplicas != c.AvailableReplicas || st.UpdatedReplicas != c.UpdatedReplicas ||
		st.CurrentRevision != c.CurrentRevision || st.UpdateRevision != c.UpdateRevision
}
