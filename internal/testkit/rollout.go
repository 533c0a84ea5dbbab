package testkit

import (
	"fmt"

	"github.com/stateflow/stateflow/engine"
)

// RolloutBounds checks a rolling update's bounds in namespace ns: the
// ReplicaSets ask for at most maxPods pods (replicas + maxSurge) in all,
// and at least minAvailable (replicas - maxUnavailable) of their pods are
// available. A minAvailable of 0 checks only the first bound.
func RolloutBounds(e *engine.Engine, ns string, maxPods, minAvailable int32) error {
	var total, available int32
	for _, rs := range ReplicaSets(e, ns) {
		total += rs.Replicas()
		available += rs.Status.AvailableReplicas
	}
	if total > maxPods {
		return fmt.Errorf("tick %d: ReplicaSets ask for %d pods, more than replicas+maxSurge = %d", e.Tick(), total, maxPods)
	}
	if available < minAvailable {
		return fmt.Errorf("tick %d: %d available, fewer than minAvailable = %d", e.Tick(), available, minAvailable)
	}
	return nil
}
