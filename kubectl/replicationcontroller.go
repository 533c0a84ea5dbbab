package kubectl

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// replicationControllerRow is printReplicationController: NAME DESIRED
// CURRENT READY AGE, and with -o wide the containers, images and the
// selector as labels.FormatLabels writes it.
func replicationControllerRow(x *api.ReplicationController, name string, wide bool, now int64) []string {
	r := []string{name, fmt.Sprint(x.Replicas()), fmt.Sprint(x.Status.Replicas), fmt.Sprint(x.Status.ReadyReplicas), age(x.CreationTimestamp, now)}
	if wide {
		var spec api.PodSpec
		if x.Spec.Template != nil {
			spec = x.Spec.Template.Spec
		}
		r = append(r, containerNames(&spec), images(&spec), formatLabels(x.Spec.Selector))
	}
	return r
}

// formatLabels is labels.FormatLabels: k=v pairs sorted by key, or
// <none>.
func formatLabels(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	return (&api.LabelSelector{MatchLabels: m}).String()
}

// describeReplicationController is describeReplicationController (kubectl
// v0.34 pkg/describe): the ReplicaSet's describe without Controlled By,
// its selector as labels, and <unset> for a missing template.
func (s *Session) describeReplicationController(w *prefixWriter, rc *api.ReplicationController) {
	w.line(0, "Name:\t%s", rc.Name)
	w.line(0, "Namespace:\t%s", rc.Namespace)
	w.line(0, "Selector:\t%s", formatLabels(rc.Spec.Selector))
	mapLines(w, 0, "Labels", rc.Labels, "=")
	annotationLines(w, rc.Annotations)
	w.line(0, "Replicas:\t%d current / %d desired", rc.Status.Replicas, rc.Replicas())
	running, waiting, succeeded, failed := s.podPhases(rc.Namespace, &api.LabelSelector{MatchLabels: rc.Spec.Selector}, rc.UID)
	w.line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed", running, waiting, succeeded, failed)
	w.line(0, "Pod Template:")
	if rc.Spec.Template == nil {
		w.line(1, "<unset>")
	} else {
		templateLines(w, 1, rc.Spec.Template)
	}
	if len(rc.Status.Conditions) > 0 {
		w.line(0, "Conditions:")
		w.line(1, "Type\tStatus\tReason")
		w.line(1, "----\t------\t------")
		for _, c := range rc.Status.Conditions {
			w.line(1, "%s \t%s\t%s", c.Type, c.Status, c.Reason)
		}
	}
}
