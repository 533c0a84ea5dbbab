package kubectl

// This file prints DaemonSets and ControllerRevisions: their get columns
// (pkg/printers/internalversion/printers.go printDaemonSet,
// printControllerRevision), describe (k8s.io/kubectl pkg/describe
// DaemonSetDescriber; ControllerRevisions have no describer of their own
// and get the generic one), and rollout status of a DaemonSet
// (pkg/polymorphichelpers DaemonSetStatusViewer). Its history and undo
// are revisions.go's, shared with StatefulSets.

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stateflow/stateflow/engine/api"
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
