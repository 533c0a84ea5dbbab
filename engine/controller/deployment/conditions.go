package deployment

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// newDeploymentCondition returns a condition stamped at now.
func newDeploymentCondition(t, status, reason, message string, now int64) api.DeploymentCondition {
	return api.DeploymentCondition{Type: t, Status: status, Reason: reason, Message: message,
		LastUpdateTime: api.At(now), LastTransitionTime: api.At(now)}
}

// setDeploymentCondition sets c, leaving an existing condition with the
// same status and reason untouched, keeping lastTransitionTime when only the
// reason changes, and moving the condition to the end of the list.
func setDeploymentCondition(st *api.DeploymentStatus, c api.DeploymentCondition) {
	cur := st.Condition(c.Type)
	if cur != nil && cur.Status == c.Status && cur.Reason == c.Reason {
		return
	}
	if cur != nil && cur.Status == c.Status {
		c.LastTransitionTime = cur.LastTransitionTime
	}
	removeDeploymentCondition(st, c.Type)
	st.Conditions = append(st.Conditions, c)
}

// removeDeploymentCondition drops the condition of type t.
func removeDeploymentCondition(st *api.DeploymentStatus, t string) {
	var out []api.DeploymentCondition
	for _, c := range st.Conditions {
		if c.Type != t {
			out = append(out, c)
		}
	}
	st.Conditions = out
}

// hasProgressDeadline reports whether progressDeadlineSeconds is set and
// not MaxInt32.
func hasProgressDeadline(d *api.Deployment) bool {
	return d.Spec.ProgressDeadlineSeconds != nil && *d.Spec.ProgressDeadlineSeconds != 1<<31-1
}

// deploymentComplete reports whether every replica is updated and
// available and the latest generation has been observed.
func deploymentComplete(d *api.Deployment, s *api.DeploymentStatus) bool {
	return s.UpdatedReplicas == d.Replicas() && s.Replicas == d.Replicas() &&
		s.AvailableReplicas == d.Replicas() && s.ObservedGeneration >= d.Generation
}

// deploymentProgressing reports whether newStatus shows progress compared
// with the deployment's current status.
func deploymentProgressing(d *api.Deployment, s *api.DeploymentStatus) bool {
	old := &d.Status
	oldStatusOldReplicas := old.Replicas - old.UpdatedReplicas
	newStatusOldReplicas := s.Replicas - s.UpdatedReplicas
	return s.UpdatedReplicas > old.UpdatedReplicas || newStatusOldReplicas < oldStatusOldReplicas ||
		s.ReadyReplicas > old.ReadyReplicas || s.AvailableReplicas > old.AvailableReplicas
}

// deploymentTimedOut reports whether the Progressing condition has not
// been updated for longer than the progress deadline.
func deploymentTimedOut(d *api.Deployment, s *api.DeploymentStatus, now int64) bool {
	if !hasProgressDeadline(d) {
		return false
	}
	c := s.Condition(api.DeploymentProgressing)
	if c == nil {
		return false
	}
	switch c.Reason {
	case NewRSAvailableReason:
		return false
	case TimedOutReason:
		return true
	}
	deadline := c.LastUpdateTime.MS + int64(*d.Spec.ProgressDeadlineSeconds)*1000
	return deadline < now
}

func rsOrDeployment(d *api.Deployment, newRS *api.ReplicaSet) string {
	if newRS != nil {
		return fmt.Sprintf("ReplicaSet %q", newRS.Name)
	}
	return fmt.Sprintf("Deployment %q", d.Name)
}
