package model

// This file draws a StatefulSet over its pods, in ordinal order.

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
)

// statefulSet places a StatefulSet at the ReplicaSets' row with its pods
// below in ordinal order, after everything drawn so far, and returns the
// lowest y.
func (l *layout) statefulSet(set *api.StatefulSet, children []api.Object) int {
	var pods []*api.Pod
	for _, o := range children {
		if p, ok := o.(*api.Pod); ok {
			pods = append(pods, p)
		}
	}
	slices.SortFunc(pods, func(a, b *api.Pod) int { return cmp.Compare(ordinal(a.Name), ordinal(b.Name)) })
	st := set.Status
	title := "sts/" + set.Name
	rev := "revision " + revisionSuffix(st.CurrentRevision)
	if st.UpdateRevision != "" && st.UpdateRevision != st.CurrentRevision {
		rev = fmt.Sprintf("revision %s → %s", revisionSuffix(st.CurrentRevision), revisionSuffix(st.UpdateRevision))
	}
	lines := []string{fmt.Sprintf("ready %d/%d · updated %d · current %d", st.ReadyReplicas, set.Replicas(), st.UpdatedReplicas, st.CurrentReplicas), rev}
	cols := min(max(len(pods), 1), podsPerRow)
	w := widthFor(boxW, title, lines)
	width := max(cols*(podW+podGap)-podGap, w)
	x := l.x
	b := l.add(l.objectBox(set, x+(width-w)/2, rowRS, w, boxH))
	b.Title, b.Lines = title, lines
	switch {
	case set.DeletionTimestamp != nil:
		b.Status = "gone"
	case st.ReadyReplicas < set.Replicas() || st.CurrentRevision != st.UpdateRevision || st.ObservedGeneration < set.Generation:
		b.Status = "progress"
	default:
		b.Status = "ok"
	}
	b.Stale = l.stale(set, engine.StatefulSetController, func(o api.Object) string {
		return fmt.Sprintf("%d replicas", o.(*api.StatefulSet).Replicas())
	})
	bottom := l.podsBelow(set.UID, pods, x, width, engine.StatefulSetController)
	l.x = x + width + 2*margin
	return bottom
}

// ordinal is the number a StatefulSet pod's name ends with.
func ordinal(name string) int {
	n, err := strconv.Atoi(name[strings.LastIndex(name, "-")+1:])
	if err != nil {
		return -1
	}
	return n
}

// revisionSuffix is the hash part of a revision name.
func revisionSuffix(name string) string {
	if name == "" {
		return "—"
	}
	return name[strings.LastIndex(name, "-")+1:]
}
