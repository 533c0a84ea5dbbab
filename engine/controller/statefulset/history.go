package statefulset

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// getStatefulSetRevisions is getStatefulSetRevisions: the update revision
// is the one whose template is the set's (the newest, an older one
// renumbered as the newest when the template went back to it, or a new
// one); the current revision is the one status.currentRevision names, or
// the update revision.
func (c *Controller) getStatefulSetRevisions(tick reconcile.Tick, set *api.StatefulSet, revisions []*api.ControllerRevision) (current, update *api.ControllerRevision, all []*api.ControllerRevision, err error) {
	slices.SortFunc(revisions, func(a, b *api.ControllerRevision) int { return cmp.Compare(a.Revision, b.Revision) })
	next := int64(1)
	if n := len(revisions); n > 0 {
		next = revisions[n-1].Revision + 1
	}
	// The collision count always takes part (0 when the status has none),
	// so the hash does not change once the status records it.
	var collisions int32
	if c := set.Status.CollisionCount; c != nil {
		collisions = *c
	}
	hash := controllerutil.ComputeHash(&set.Spec.Template, &collisions)
	name := set.Name + "-" + hash
	i := slices.IndexFunc(revisions, func(r *api.ControllerRevision) bool { return r.Name == name })
	switch {
	case i >= 0 && i == len(revisions)-1:
		update = revisions[i]
	case i >= 0:
		r := revisions[i].DeepCopy()
		r.Revision = next
		out, err := tick.Update(trace.Translate, r, fmt.Sprintf("sts/%s went back to %s: it becomes revision %d", set.Name, r.Name, next))
		if err != nil {
			return nil, nil, nil, err
		}
		update = out.(*api.ControllerRevision)
		revisions[i] = update
	default:
		r := newRevision(set, name, hash, next)
		out, err := tick.Create(trace.Translate, r, fmt.Sprintf("sts/%s recorded revision %d of its template (%s)", set.Name, next, name))
		if apiserver.IsReason(err, apiserver.ReasonAlreadyExists) {
			live, ok := tick.LiveGet(api.KeyOf(r))
			if !ok {
				return nil, nil, nil, err
			}
			out, err = live, nil
		}
		if err != nil {
			return nil, nil, nil, err
		}
		update = out.(*api.ControllerRevision)
		revisions = append(revisions, update)
	}
	current = update
	for _, r := range revisions {
		if r.Name == set.Status.CurrentRevision {
			current = r
		}
	}
	return current, update, revisions, nil
}

// LabelRevisionHash is the label a StatefulSet's revisions carry their
// hash under (history.ControllerRevisionHashLabel); its pods carry the
// revision's name under controller-revision-hash.
const LabelRevisionHash = "controller.kubernetes.io/hash"

// newRevision is newRevision: the template as a replace patch, labelled
// with the template's labels and the revision's hash.
func newRevision(set *api.StatefulSet, name, hash string, revision int64) *api.ControllerRevision {
	t := set.Spec.Template.DeepCopy()
	labels := map[string]string{LabelRevisionHash: hash}
	for k, v := range t.Labels {
		labels[k] = v
	}
	return &api.ControllerRevision{
		ObjectMeta: api.ObjectMeta{Name: name, Namespace: set.Namespace, Labels: labels, Annotations: maps.Clone(set.Annotations),
			OwnerReferences: []api.OwnerReference{api.NewControllerRef(set, "apps/v1")}},
		Data:     api.RevisionData{Spec: api.RevisionSpec{Template: api.RevisionTemplate{Patch: "replace", PodTemplateSpec: t}}},
		Revision: revision,
	}
}

// truncateHistory is truncateHistory: revisions no pod runs, other than
// the current and the update one, beyond revisionHistoryLimit, oldest
// first.
func (c *Controller) truncateHistory(tick reconcile.Tick, set *api.StatefulSet, pods []*api.Pod, revisions []*api.ControllerRevision, current, update *api.ControllerRevision) error {
	live := map[string]bool{current.Name: true, update.Name: true}
	for _, p := range pods {
		live[podRevision(p)] = true
	}
	var history []*api.ControllerRevision
	for _, r := range revisions {
		if !live[r.Name] {
			history = append(history, r)
		}
	}
	extra := len(history) - int(*set.Spec.RevisionHistoryLimit)
	for _, r := range history[:max(extra, 0)] {
		err := tick.Delete(trace.Translate, api.KeyOf(r), apiserver.DeleteOptions{}, fmt.Sprintf("sts/%s dropped revision %d beyond its revisionHistoryLimit", set.Name, r.Revision))
		if err != nil {
			return err // NotFound too: the cache lagged (truncateHistory)
		}
	}
	return nil
}
