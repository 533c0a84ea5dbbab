package model

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// replicationController is a ReplicationController's lane: its box at the
// top row over its pods, as the ReplicaSet controller keeps them.
func (s *scene) replicationController(rc *api.ReplicationController, children []api.Object) *lane {
	st := rc.Status
	b := s.kindBox(rc, []string{fmt.Sprintf("desired %d · current %d · ready %d", rc.Replicas(), st.Replicas, st.ReadyReplicas)},
		replicationControllerStatus(rc))
	return &lane{id: b.ID, owners: []*owner{s.podsOf(b, rc.UID, children)}}
}

// replicationControllerStatus: gone while deleted, in progress until its
// pods are all there and ready and its spec is observed.
func replicationControllerStatus(rc *api.ReplicationController) string {
	st := rc.Status
	switch {
	case rc.DeletionTimestamp != nil:
		return "gone"
	case st.ReadyReplicas < rc.Replicas() || st.Replicas != rc.Replicas() || st.ObservedGeneration < rc.Generation:
		return "progress"
	}
	return "ok"
}
