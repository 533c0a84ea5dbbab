package deployment

import (
	"fmt"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// syncRolloutStatus computes the status with the Progressing condition and
// writes it when it changed (progress.go). It returns when the deployment
// should be looked at again to check the progress deadline.
func (s *syncer) syncRolloutStatus(allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, d *api.Deployment) (reconcile.Result, error) {
	newStatus := s.calculateStatus(allRSs, newRS, d)
	if !hasProgressDeadline(d) {
		removeDeploymentCondition(&newStatus, api.DeploymentProgressing)
	}
	currentCond := d.Status.Condition(api.DeploymentProgressing)
	isComplete := newStatus.Replicas == newStatus.UpdatedReplicas && currentCond != nil && currentCond.Reason == NewRSAvailableReason
	if hasProgressDeadline(d) && !isComplete {
		switch {
		case deploymentComplete(d, &newStatus):
			msg := fmt.Sprintf("%s has successfully progressed.", rsOrDeployment(d, newRS))
			setDeploymentCondition(&newStatus, newDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, NewRSAvailableReason, msg, s.now))
		case deploymentProgressing(d, &newStatus):
			msg := fmt.Sprintf("%s is progressing.", rsOrDeployment(d, newRS))
			c := newDeploymentCondition(api.DeploymentProgressing, api.ConditionTrue, ReplicaSetUpdatedReason, msg, s.now)
			if currentCond != nil {
				if currentCond.Status == api.ConditionTrue {
					c.LastTransitionTime = currentCond.LastTransitionTime
				}
				removeDeploymentCondition(&newStatus, api.DeploymentProgressing)
			}
			setDeploymentCondition(&newStatus, c)
		case deploymentTimedOut(d, &newStatus, s.now):
			msg := fmt.Sprintf("%s has timed out progressing.", rsOrDeployment(d, newRS))
			setDeploymentCondition(&newStatus, newDeploymentCondition(api.DeploymentProgressing, api.ConditionFalse, TimedOutReason, msg, s.now))
		}
	}
	copyReplicaFailure(&newStatus, allRSs, newRS, s.now)
	if reflect.DeepEqual(&d.Status, &newStatus) {
		return s.requeueStuckDeployment(d, newStatus), nil
	}
	return reconcile.Result{}, s.writeStatus(d, newStatus)
}

// noteStatus explains a status write: the summary of the ReplicaSets and
// the conditions that changed.
func (s *syncer) noteStatus(d *api.Deployment, st *api.DeploymentStatus) {
	msg := fmt.Sprintf("summarised its ReplicaSets: %d/%d ready, %d updated, %d available", st.ReadyReplicas, d.Replicas(), st.UpdatedReplicas, st.AvailableReplicas)
	for _, c := range st.Conditions {
		if old := d.Status.Condition(c.Type); old == nil || old.Status != c.Status || old.Reason != c.Reason {
			msg += fmt.Sprintf("; %s=%s (%s)", c.Type, c.Status, c.Reason)
		}
	}
	s.Note("%s", msg)
}

// copyReplicaFailure mirrors a ReplicaFailure condition of the new (or an
// old) ReplicaSet into the deployment.
func copyReplicaFailure(st *api.DeploymentStatus, allRSs []*api.ReplicaSet, newRS *api.ReplicaSet, now int64) {
	var failure *api.ReplicaSetCondition
	if newRS != nil {
		failure = newRS.Status.Condition(api.ReplicaSetReplicaFailure)
	}
	for _, rs := range allRSs {
		if failure == nil && rs != nil {
			failure = rs.Status.Condition(api.ReplicaSetReplicaFailure)
		}
	}
	if failure == nil {
		removeDeploymentCondition(st, api.DeploymentReplicaFailure)
		return
	}
	c := api.DeploymentCondition{Type: api.DeploymentReplicaFailure, Status: failure.Status, Reason: failure.Reason,
		Message: failure.Message, LastUpdateTime: failure.LastTransitionTime, LastTransitionTime: failure.LastTransitionTime}
	setDeploymentCondition(st, c)
}

// requeueStuckDeployment schedules a sync for when the progress deadline
// would pass, so a stuck rollout is noticed without any other event.
func (s *syncer) requeueStuckDeployment(d *api.Deployment, newStatus api.DeploymentStatus) reconcile.Result {
	c := newStatus.Condition(api.DeploymentProgressing)
	if !hasProgressDeadline(d) || c == nil {
		return reconcile.Result{}
	}
	if deploymentComplete(d, &newStatus) || deploymentTimedOut(d, &newStatus, s.now) {
		return reconcile.Result{}
	}
	if c.Reason == NewRSAvailableReason {
		// A rollout that completed and then lost availability never times
		// out (kubernetes#106054): upstream requeues it rate-limited over
		// and over with no effect. Its status changes only through watch
		// events, so the simulator skips those empty syncs.
		return reconcile.Result{}
	}
	after := c.LastUpdateTime.MS + int64(*d.Spec.ProgressDeadlineSeconds)*1000 - s.now
	if after < 1000 {
		// Upstream requeues rate-limited (5 ms and up) until the deadline
		// has passed; the simulator wakes once, just after it.
		return reconcile.Result{RequeueAfter: max(after+1, 5)}
	}
	s.Note("rollout not complete; will re-check the %ds progress deadline in %s", *d.Spec.ProgressDeadlineSeconds, trace.FormatTime(after+1000))
	return reconcile.Result{RequeueAfter: after + 1000}
}

// statusSummary describes a status write for the trace.
func statusSummary(d *api.Deployment, s *api.DeploymentStatus) string {
	out := fmt.Sprintf("deploy/%s status: %d/%d ready, %d updated, %d available", d.Name, s.ReadyReplicas, d.Replicas(), s.UpdatedReplicas, s.AvailableReplicas)
	for _, c := range s.Conditions {
		out += fmt.Sprintf("; %s=%s (%s)", c.Type, c.Status, c.Reason)
	}
	return out
}
