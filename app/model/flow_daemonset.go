package model

// This file draws a DaemonSet over its pods, one per node.

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// daemonSet is a DaemonSet's lane: it stands at the ReplicaSets' row
// (it creates its pods itself), over its pods.
func (s *scene) daemonSet(ds *api.DaemonSet, children []api.Object) *lane {
	st := ds.Status
	b := s.kindBox(ds, []string{fmt.Sprintf("desired %d · current %d · ready %d", st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady),
		fmt.Sprintf("up-to-date %d · available %d", st.UpdatedNumberScheduled, st.NumberAvailable)}, daemonSetStatus(ds))
	return &lane{id: b.ID, owners: []*owner{s.podsOf(b, ds.UID, children)}}
}

// daemonSetStatus: gone while deleted, in progress until every node's pod
// is ready and up to date and the spec is observed.
func daemonSetStatus(ds *api.DaemonSet) string {
	st := ds.Status
	switch {
	case ds.DeletionTimestamp != nil:
		return "gone"
	case st.NumberReady < st.DesiredNumberScheduled || st.UpdatedNumberScheduled < st.DesiredNumberScheduled || st.ObservedGeneration < ds.Generation:
		return "progress"
	}
	return "ok"
}
