package kubectl

// This file prints DaemonSets and ControllerRevisions: their get columns
// (pkg/printers/internalversion/printers.go printDaemonSet,
// printControllerRevision), describe (k8s.io/kubectl pkg/describe
// DaemonSetDescriber; ControllerRevisions have no describer of their own
// and get the generic one), and the DaemonSet halves of the rollout
// commands (pkg/polymorphichelpers DaemonSetStatusViewer,
// DaemonSetHistoryViewer, DaemonSetRollbacker).

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// daemonSetRow is printDaemonSet: the status counts, then the template's
// nodeSelector.
func daemonSetRow(d *api.DaemonSet, name string, wide bool, now int64) []string {
	st := d.Status
	r := []string{name, fmt.Sprint(st.DesiredNumberScheduled), fmt.Sprint(st.CurrentNumberScheduled), fmt.Sprint(st.NumberReady),
		fmt.Sprint(st.UpdatedNumberScheduled), fmt.Sprint(st.NumberAvailable), api.FormatLabels(d.Spec.Template.Spec.NodeSelector), age(d.CreationTimestamp, now)}
	if wide {
		r = append(r, containerNames(&d.Spec.Template.Spec), images(&d.Spec.Template.Spec), d.Spec.Selector.String())
	}
	return r
}

// revisionController is printControllerRevision's CONTROLLER cell: the
// controller's group kind and name, "daemonset.apps/fluentd".
func revisionController(r *api.ControllerRevision) string {
	ref := r.ControllerRef()
	if ref == nil {
		return "<none>"
	}
	kind := ref.Kind
	if group, _, ok := strings.Cut(ref.APIVersion, "/"); ok && group != "" {
		kind += "." + group
	}
	if kind == "" {
		return ref.Name
	}
	return strings.ToLower(kind) + "/" + ref.Name
}

// describeDaemonSet is describeDaemonSet. The counts are written without
// a tab, so they are not aligned with the other fields.
func (s *Session) describeDaemonSet(w *prefixWriter, d *api.DaemonSet) {
	w.line(0, "Name:\t%s", d.Name)
	w.line(0, "Namespace:\t%s", d.Namespace)
	w.line(0, "Selector:\t%s", d.Spec.Selector.String())
	w.line(0, "Node-Selector:\t%s", api.FormatLabels(d.Spec.Template.Spec.NodeSelector))
	mapLines(w, 0, "Labels", d.Labels, "=")
	annotationLines(w, d.Annotations)
	st := d.Status
	w.line(0, "Desired Number of Nodes Scheduled: %d", st.DesiredNumberScheduled)
	w.line(0, "Current Number of Nodes Scheduled: %d", st.CurrentNumberScheduled)
	w.line(0, "Number of Nodes Scheduled with Up-to-date Pods: %d", st.UpdatedNumberScheduled)
	w.line(0, "Number of Nodes Scheduled with Available Pods: %d", st.NumberAvailable)
	w.line(0, "Number of Nodes Misscheduled: %d", st.NumberMisscheduled)
	running, waiting, succeeded, failed := s.podPhases(d.Namespace, d.Spec.Selector, d.UID)
	w.line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed", running, waiting, succeeded, failed)
	w.line(0, "Pod Template:")
	templateLines(w, 1, &d.Spec.Template)
}

// podPhases is getPodStatusForController: the phases of the pods the
// selector matches whose controller is uid.
func (s *Session) podPhases(ns string, sel *api.LabelSelector, uid string) (running, waiting, succeeded, failed int) {
	for _, o := range s.Cluster.Store().List(api.KindPod, ns) {
		p := o.(*api.Pod)
		if ref := p.ControllerRef(); ref == nil || ref.UID != uid || (sel != nil && !sel.Matches(p.Labels)) {
			continue
		}
		switch p.Status.Phase {
		case api.PodRunning:
			running++
		case api.PodPending:
			waiting++
		case api.PodSucceeded:
			succeeded++
		case api.PodFailed:
			failed++
		}
	}
	return running, waiting, succeeded, failed
}

// daemonSetStatus is DaemonSetStatusViewer.Status (it ignores
// --revision).
func daemonSetStatus(d *api.DaemonSet) (string, bool, error) {
	if d.Spec.UpdateStrategy.Type != api.DaemonSetRollingUpdate {
		return "", true, errorf("rollout status is only available for %s strategy type", api.DaemonSetRollingUpdate)
	}
	if d.Generation > d.Status.ObservedGeneration {
		return "Waiting for daemon set spec update to be observed...\n", false, nil
	}
	st := d.Status
	switch {
	case st.UpdatedNumberScheduled < st.DesiredNumberScheduled:
		return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d out of %d new pods have been updated...\n", d.Name, st.UpdatedNumberScheduled, st.DesiredNumberScheduled), false, nil
	case st.NumberAvailable < st.DesiredNumberScheduled:
		return fmt.Sprintf("Waiting for daemon set %q rollout to finish: %d of %d updated pods are available...\n", d.Name, st.NumberAvailable, st.DesiredNumberScheduled), false, nil
	}
	return fmt.Sprintf("daemon set %q successfully rolled out\n", d.Name), true, nil
}

// controlledRevisions is controlledHistory: the ControllerRevisions the
// DaemonSet's selector matches and it controls, by revision.
func controlledRevisions(list []api.Object, d *api.DaemonSet) []*api.ControllerRevision {
	var out []*api.ControllerRevision
	for _, o := range list {
		r := o.(*api.ControllerRevision)
		if ref := r.ControllerRef(); ref != nil && ref.UID == d.UID && d.Spec.Selector.Matches(r.Labels) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Revision < out[j].Revision })
	return out
}

// daemonSetHistory is DaemonSetHistoryViewer.ViewHistory with the line
// rollout history prints before it.
func (s *Session) daemonSetHistory(d *api.DaemonSet, revision int64) (string, error) {
	revs := controlledRevisions(s.Cluster.Store().List(api.KindControllerRevision, d.Namespace), d)
	head := "daemonset.apps/" + d.Name + " "
	if revision > 0 {
		head = fmt.Sprintf("daemonset.apps/%s with revision #%d", d.Name, revision)
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

// undoDaemonSet is DaemonSetRollbacker.Rollback: the revision's template
// (--to-revision, else the one before the newest) replaces the
// DaemonSet's, unless it is already the same.
func undoDaemonSet(tick reconcile.Tick, d *api.DaemonSet, toRevision int64) (string, error) {
	if toRevision < 0 {
		return "", errorf("unable to find specified revision %d in history", toRevision)
	}
	revs := controlledRevisions(tick.LiveList(api.KindControllerRevision, d.Namespace), d)
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
	tpl := to.Data.Spec.Template.PodTemplateSpec.DeepCopy()
	if sameTemplate(&d.Spec.Template, &tpl) {
		// Upstream prints the flag's value, 0 without --to-revision.
		return fmt.Sprintf("daemonset.apps/%s skipped rollback (current template already matches revision %d)\n", d.Name, toRevision), nil
	}
	d.Spec.Template = tpl
	return updated(tick, d, fmt.Sprintf("kubectl rollout undo: ds/%s template set to revision %d's", d.Name, to.Revision), "rolled back")
}

// sameTemplate is daemonSetMatch: the templates serialize the same (the
// rollbacker compares the patch it would write with the revision's).
func sameTemplate(a, b *api.PodTemplateSpec) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// describeGeneric is the generic describer kubectl falls back on for a
// kind without a describer of its own: name, namespace, labels and
// annotations, then every other field of the object, sorted, with
// camel-case names spelt out (printUnstructuredContent).
func describeGeneric(w *prefixWriter, o api.Object) {
	m := o.Meta()
	w.line(0, "Name:\t%s", m.Name)
	w.line(0, "Namespace:\t%s", m.Namespace)
	mapLines(w, 0, "Labels", m.Labels, "=")
	annotationLines(w, m.Annotations)
	unstructuredLines(w, 0, toMap(o), "", ".metadata.managedFields", ".metadata.name", ".metadata.namespace", ".metadata.labels", ".metadata.annotations")
}

func unstructuredLines(w *prefixWriter, level int, content map[string]any, skipPrefix string, skip ...string) {
	keys := make([]string, 0, len(content))
	for k := range content {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, field := range keys {
		path := skipPrefix + "." + field
		if contains(skip, path) {
			continue
		}
		switch v := content[field].(type) {
		case map[string]any:
			w.line(level, "%s:", smartLabel(field))
			unstructuredLines(w, level+1, v, path, skip...)
		case []any:
			w.line(level, "%s:", smartLabel(field))
			for _, child := range v {
				if cm, ok := child.(map[string]any); ok {
					unstructuredLines(w, level+1, cm, path, skip...)
				} else {
					w.line(level+1, "%v", child)
				}
			}
		default:
			w.line(level, "%s:\t%v", smartLabel(field), v)
		}
	}
}

// smartLabel is smartLabelFor: "ownerReferences" → "Owner References",
// "apiVersion" → "API Version"; a name with characters other than
// letters and '-' stays as it is.
func smartLabel(field string) string {
	if strings.IndexFunc(field, func(r rune) bool { return !unicode.IsLetter(r) && r != '-' }) != -1 {
		return field
	}
	var parts []string
	for _, p := range camelSplit(field) {
		if p == "_" {
			continue
		}
		switch up := strings.ToUpper(p); up {
		case "API", "URL", "UID", "OSB", "GUID":
			p = up
		default:
			r, n := utf8.DecodeRuneInString(p)
			p = string(unicode.ToTitle(r)) + p[n:]
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, " ")
}

// camelSplit is github.com/fatih/camelcase Split: runs of lower case,
// upper case, digits and other characters, the last capital of an upper
// case run moving to the lower case run after it ("PDFLoader" → "PDF",
// "Loader").
func camelSplit(src string) []string {
	if !utf8.ValidString(src) {
		return []string{src}
	}
	var runs [][]rune
	last := 0
	for _, r := range src {
		class := 4
		switch {
		case unicode.IsLower(r):
			class = 1
		case unicode.IsUpper(r):
			class = 2
		case unicode.IsDigit(r):
			class = 3
		}
		if class == last {
			runs[len(runs)-1] = append(runs[len(runs)-1], r)
		} else {
			runs = append(runs, []rune{r})
		}
		last = class
	}
	for i := 0; i < len(runs)-1; i++ {
		if unicode.IsUpper(runs[i][0]) && unicode.IsLower(runs[i+1][0]) {
			runs[i+1] = append([]rune{runs[i][len(runs[i])-1]}, runs[i+1]...)
			runs[i] = runs[i][:len(runs[i])-1]
		}
	}
	var out []string
	for _, r := range runs {
		if len(r) > 0 {
			out = append(out, string(r))
		}
	}
	return out
}
