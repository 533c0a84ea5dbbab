package model

// This file draws a StatefulSet over its pods, in ordinal order.

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// statefulSet is a StatefulSet's lane: it stands at the ReplicaSets'
// row (it creates its pods itself), over its pods in ordinal order.
func (s *scene) statefulSet(set *api.StatefulSet, children []api.Object) *lane {
	st := set.Status
	rev := "revision " + revisionSuffix(st.CurrentRevision)
	if st.UpdateRevision != "" && st.UpdateRevision != st.CurrentRevision {
		rev = fmt.Sprintf("revision %s → %s", revisionSuffix(st.CurrentRevision), revisionSuffix(st.UpdateRevision))
	}
	b := s.kindBox(set, []string{fmt.Sprintf("ready %d/%d · updated %d · current %d", st.ReadyReplicas, set.Replicas(), st.UpdatedReplicas, st.CurrentReplicas), rev},
		statefulSetStatus(set))
	o := s.podsOf(b, set.UID, children)
	slices.SortFunc(o.pods, func(a, b *podItem) int { return cmp.Compare(ordinal(a.p.Name), ordinal(b.p.Name)) })
	return &lane{id: b.ID, owners: []*owner{o}}
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

// statefulSetStatus: gone while deleted, in progress until its pods are
// ready at the update revision and the spec is observed.
func statefulSetStatus(set *api.StatefulSet) string {
	st := set.Status
	switch {
	case set.DeletionTimestamp != nil:
		return "gone"
	case st.ReadyReplicas < set.Replicas() || st.CurrentRevision != st.UpdateRevision || st.ObservedGeneration < set.Generation:
		return "progress"
	}
	return "ok"
}
