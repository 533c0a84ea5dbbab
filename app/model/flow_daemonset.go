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
	b := objectBox(ds, "ds/"+ds.Name)
	b.Lines = []string{fmt.Sprintf("desired %d · current %d · ready %d", st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady),
		fmt.Sprintf("up-to-date %d · available %d", st.UpdatedNumberScheduled, st.NumberAvailable)}
	switch {
	case ds.DeletionTimestamp != nil:
		b.Status = "gone"
	case st.NumberReady < st.DesiredNumberScheduled || st.UpdatedNumberScheduled < st.DesiredNumberScheduled || ds.Status.ObservedGeneration < ds.Generation:
		b.Status = "progress"
	default:
		b.Status = "ok"
	}
	b.Stale = s.m.staleNote(ds)
	return &lane{id: b.ID, owners: []*owner{s.podsOf(b, ds.UID, children)}}
}
