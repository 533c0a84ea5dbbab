package model

// This file draws a DaemonSet over its pods, one per node.

import (
	"fmt"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
)

// daemonSet places a DaemonSet at the ReplicaSets' row with its pods
// below, after everything drawn so far, and returns the lowest y.
func (l *layout) daemonSet(ds *api.DaemonSet, children []api.Object) int {
	var pods []*api.Pod
	for _, o := range children {
		if p, ok := o.(*api.Pod); ok {
			pods = append(pods, p)
		}
	}
	st := ds.Status
	title := "ds/" + ds.Name
	lines := []string{fmt.Sprintf("desired %d · current %d · ready %d", st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.NumberReady),
		fmt.Sprintf("up-to-date %d · available %d", st.UpdatedNumberScheduled, st.NumberAvailable)}
	cols := min(max(len(pods), 1), podsPerRow)
	w := widthFor(boxW, title, lines)
	width := max(cols*(podW+podGap)-podGap, w)
	x := l.x
	b := l.add(l.objectBox(ds, x+(width-w)/2, rowRS, w, boxH))
	b.Title, b.Lines = title, lines
	switch {
	case ds.DeletionTimestamp != nil:
		b.Status = "gone"
	case st.NumberReady < st.DesiredNumberScheduled || st.UpdatedNumberScheduled < st.DesiredNumberScheduled || ds.Status.ObservedGeneration < ds.Generation:
		b.Status = "progress"
	default:
		b.Status = "ok"
	}
	b.Stale = l.stale(ds, engine.DaemonSetController, func(o api.Object) string {
		return fmt.Sprintf("template generation %s", o.Meta().Annotations[api.AnnotationTemplateGeneration])
	})
	bottom := l.podsBelow(ds.UID, pods, x, width, engine.DaemonSetController)
	l.x = x + width + 2*margin
	return bottom
}
