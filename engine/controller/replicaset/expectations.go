package replicaset

import "github.com/stateflow/stateflow/engine/api"

// Expectations reports what the last sync of rs still waits to see: the
// pod creations not yet observed and the pods whose deletion is not yet
// observed. ok is false when the ReplicaSet may be synced (no record, all
// observed, or expired at virtual time now). The differential harness
// gives the upstream controller the same state.
func (c *Controller) Expectations(rs api.Key, now int64) (adds int, deletions []api.Key, ok bool) {
	return c.exp.Pending(rs, now)
}
