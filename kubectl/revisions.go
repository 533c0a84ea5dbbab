package kubectl

// This file is the history of the workloads that keep it in
// ControllerRevisions, DaemonSets and StatefulSets: rollout history
// (pkg/polymorphichelpers history.go printHistory, which
// DaemonSetHistoryViewer and StatefulSetHistoryViewer share) and rollout
// undo (rollback.go DaemonSetRollbacker and StatefulSetRollbacker, the
// same steps for both).

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// revisioned returns the selector and pod template of a workload whose
// history is ControllerRevisions, or ok false for any other object.
func revisioned(o api.Object) (sel *api.LabelSelector, tpl *api.PodTemplateSpec, ok bool) {
	if revisions := helperFor(o.GetKind()).revisions; revisions != nil {
		sel, tpl = revisions(o)
		return sel, tpl, true
	}
	return nil, nil, false
}

// controlledRevisions is controlledHistory: the ControllerRevisions the
// owner's selector matches and it controls, by revision.
func controlledRevisions(list []api.Object, owner api.Object) []*api.ControllerRevision {
	sel, _, _ := revisioned(owner)
	uid := owner.Meta().UID
	var out []*api.ControllerRevision
	for _, o := range list {
		r := o.(*api.ControllerRevision)
		if ref := r.ControllerRef(); ref != nil && ref.UID == uid && sel.Matches(r.Labels) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Revision < out[j].Revision })
	return out
}

// revisionHistory is printHistory with the line rollout history prints
// before it: the REVISION CHANGE-CAUSE table of the owner's
// ControllerRevisions, or with --revision the template one of them holds.
func (s *Session) revisionHistory(owner api.Object, revision int64) (string, error) {
	m := owner.Meta()
	revs := controlledRevisions(s.Cluster.Store().List(api.KindControllerRevision, m.Namespace), owner)
	ref := resourceFor(owner.GetKind()).qualified() + "/" + m.Name
	head := ref + " "
	if revision > 0 {
		head = fmt.Sprintf("%s with revision #%d", ref, revision)
	}
	if len(revs) == 0 {
		return head + "\nNo rollout history found.\n", nil
	}
	if revision > 0 {
		for _, r := range revs {
			if r.Revision == revision {
				return head + "\n" + describeTemplate(&r.Data.Spec.Template.PodTemplateSpec) + "\n", nil
			}
		}
		return "", errorf("unable to find the specified revision")
	}
	return head + "\n" + historyTable(revs) + "\n", nil
}

// historyTable is the REVISION CHANGE-CAUSE table the history viewers
// print through their own tabwriter (padding 2, not the get tables' 3).
// A revision number held twice shows once, the last one listed winning.
func historyTable[T api.Object](items []T) string {
	causes := map[int64]string{}
	var revs []int64
	for _, o := range items {
		rev := revisionOf(o)
		if _, ok := causes[rev]; !ok {
			revs = append(revs, rev)
		}
		causes[rev] = o.Meta().Annotations[changeCauseAnnotation]
	}
	sort.Slice(revs, func(i, j int) bool { return revs[i] < revs[j] })
	w := newPrefixWriter()
	w.line(0, "REVISION\tCHANGE-CAUSE")
	for _, r := range revs {
		w.line(0, "%d\t%s", r, orNone(causes[r]))
	}
	return w.String()
}

const changeCauseAnnotation = "kubernetes.io/change-cause"

// undoRevision is DaemonSetRollbacker.Rollback and
// StatefulSetRollbacker.Rollback: the revision's template (--to-revision,
// else the one before the newest) replaces the owner's, unless it is
// already the same.
func undoRevision(tick reconcile.Tick, owner api.Object, toRevision int64) (string, error) {
	if toRevision < 0 {
		return "", errorf("unable to find specified revision %d in history", toRevision)
	}
	m := owner.Meta()
	revs := controlledRevisions(tick.LiveList(api.KindControllerRevision, m.Namespace), owner)
	if toRevision == 0 && len(revs) <= 1 {
		return "", errorf("no last revision to roll back to")
	}
	var to *api.ControllerRevision
	if toRevision == 0 {
		to = revs[len(revs)-2]
	} else {
		for _, r := range revs {
			if r.Revision == toRevision {
				to = r
				break
			}
		}
	}
	if to == nil {
		return "", errorf("unable to find specified revision %d in history", toRevision)
	}
	_, cur, _ := revisioned(owner)
	tpl := to.Data.Spec.Template.PodTemplateSpec.DeepCopy()
	if sameTemplate(cur, &tpl) {
		// Upstream prints the flag's value, 0 without --to-revision.
		return fmt.Sprintf("%s/%s skipped rollback (current template already matches revision %d)\n", resourceFor(owner.GetKind()).qualified(), m.Name, toRevision), nil
	}
	*cur = tpl
	return updated(tick, owner, fmt.Sprintf("kubectl rollout undo: %s template set to revision %d's", api.KeyOf(owner).Short(), to.Revision), "rolled back")
}

// sameTemplate is daemonSetMatch and statefulsetMatch: the templates
// serialize the same (the rollbackers compare the patch they would write
// with the revision's).
func sameTemplate(a, b *api.PodTemplateSpec) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}
