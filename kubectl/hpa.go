package kubectl

// This file prints HorizontalPodAutoscalers (autoscaling/v2): their get
// columns (pkg/printers/internalversion printHorizontalPodAutoscaler and
// formatHPAMetrics) and describe (k8s.io/kubectl pkg/describe
// describeHorizontalPodAutoscalerV2).

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// hpaRow is printHorizontalPodAutoscaler: the target, the metrics'
// current values over their targets, the bounds and the replicas the
// status last counted. It has no wide columns.
func hpaRow(h *api.HorizontalPodAutoscaler, name string, now int64) []string {
	minPods := "<unset>"
	if m := h.Spec.MinReplicas; m != nil {
		minPods = fmt.Sprint(*m)
	}
	ref := h.Spec.ScaleTargetRef
	return []string{name, ref.Kind + "/" + ref.Name, formatHPAMetrics(h.Spec.Metrics, h.Status.CurrentMetrics), minPods,
		fmt.Sprint(h.Spec.MaxReplicas), fmt.Sprint(h.Status.CurrentReplicas), age(h.CreationTimestamp, now)}
}

// maxHPAMetrics is how many metrics TARGETS shows before "+ N more...".
const maxHPAMetrics = 2

// formatHPAMetrics is formatHPAMetrics for the Resource metrics
// Stateflow has: "cpu: 90%/50%" for a utilization target, "memory:
// 120Mi/200Mi" for an average value, "<unknown>" for a current value the
// status does not have yet (statuses match specs by index).
func formatHPAMetrics(specs []api.MetricSpec, statuses []api.MetricStatus) string {
	if len(specs) == 0 {
		return "<none>"
	}
	var list []string
	for i, spec := range specs {
		var st *api.ResourceMetricStatus
		if i < len(statuses) {
			st = statuses[i].Resource
		}
		list = append(list, formatHPAMetric(spec, st))
	}
	if len(list) > maxHPAMetrics {
		return fmt.Sprintf("%s + %d more...", strings.Join(list[:maxHPAMetrics], ", "), len(list)-maxHPAMetrics)
	}
	return strings.Join(list, ", ")
}

// formatHPAMetric is one entry of formatHPAMetrics.
func formatHPAMetric(spec api.MetricSpec, st *api.ResourceMetricStatus) string {
	if spec.Type != api.ResourceMetricSourceType || spec.Resource == nil {
		return "<unknown type>"
	}
	r := spec.Resource
	current := "<unknown>"
	if r.Target.AverageValue != nil {
		if st != nil {
			current = quantityString(st.Current.AverageValue)
		}
		return fmt.Sprintf("%s: %s/%s", r.Name, current, quantityString(r.Target.AverageValue))
	}
	if st != nil && st.Current.AverageUtilization != nil {
		current = fmt.Sprintf("%d%%", *st.Current.AverageUtilization)
	}
	return fmt.Sprintf("%s: %s/%s", r.Name, current, utilizationTarget(r.Target))
}

// utilizationTarget is a utilization target, "<auto>" when unset.
func utilizationTarget(t api.MetricTarget) string {
	if t.AverageUtilization == nil {
		return "<auto>"
	}
	return fmt.Sprintf("%d%%", *t.AverageUtilization)
}

// describeHPA is describeHorizontalPodAutoscalerV2.
func describeHPA(w *prefixWriter, h *api.HorizontalPodAutoscaler) {
	w.line(0, "Name:\t%s", h.Name)
	w.line(0, "Namespace:\t%s", h.Namespace)
	mapLines(w, 0, "Labels", h.Labels, "=")
	annotationLines(w, h.Annotations)
	w.line(0, "CreationTimestamp:\t%s", timestamp(h.CreationTimestamp))
	ref := h.Spec.ScaleTargetRef
	w.line(0, "Reference:\t%s/%s", ref.Kind, ref.Name)
	w.line(0, "Metrics:\t( current / target )")
	for i, m := range h.Spec.Metrics {
		var st *api.ResourceMetricStatus
		if i < len(h.Status.CurrentMetrics) {
			st = h.Status.CurrentMetrics[i].Resource
		}
		hpaMetricLine(w, m, st)
	}
	w.line(0, "Min replicas:\t%s", int32OrUnset(h.Spec.MinReplicas))
	w.line(0, "Max replicas:\t%d", h.Spec.MaxReplicas)
	if b := h.Spec.Behavior; b != nil {
		w.line(0, "Behavior:")
		behaviorLines(w, "Scale Up", b.ScaleUp)
		behaviorLines(w, "Scale Down", b.ScaleDown)
	}
	w.line(0, "%s pods:\t%d current / %d desired", ref.Kind, h.Status.CurrentReplicas, h.Status.DesiredReplicas)
	if len(h.Status.Conditions) > 0 {
		w.line(0, "Conditions:")
		w.line(1, "Type\tStatus\tReason\tMessage")
		w.line(1, "----\t------\t------\t-------")
		for _, c := range h.Status.Conditions {
			w.line(1, "%s\t%s\t%s\t%s", c.Type, c.Status, c.Reason, c.Message)
		}
	}
}

// hpaMetricLine is describe's line for one Resource metric: "resource
// cpu on pods  (as a percentage of request):  90% (450m) / 50%" (the
// second part written at level 1 in mid-line, hence the two spaces), or
// "resource memory on pods:  120Mi / 200Mi" for an average value.
func hpaMetricLine(w *prefixWriter, m api.MetricSpec, st *api.ResourceMetricStatus) {
	if m.Type != api.ResourceMetricSourceType || m.Resource == nil {
		w.line(1, "<unknown metric type %q>", m.Type)
		return
	}
	r := m.Resource
	current := "<unknown>"
	if r.Target.AverageValue != nil {
		if st != nil {
			current = quantityString(st.Current.AverageValue)
		}
		w.line(1, "resource %s on pods:\t%s / %s", r.Name, current, quantityString(r.Target.AverageValue))
		return
	}
	if st != nil && st.Current.AverageUtilization != nil {
		current = fmt.Sprintf("%d%% (%s)", *st.Current.AverageUtilization, quantityString(st.Current.AverageValue))
	}
	w.line(1, "resource %s on pods  (as a percentage of request):\t%s / %s", r.Name, current, utilizationTarget(r.Target))
}

// behaviorLines is printDirectionBehavior: the window, and the select
// policy (Max when unset) and policies when there are policies.
func behaviorLines(w *prefixWriter, direction string, r *api.HPAScalingRules) {
	if r == nil {
		return
	}
	w.line(1, "%s:", direction)
	if s := r.StabilizationWindowSeconds; s != nil {
		w.line(2, "Stabilization Window: %d seconds", *s)
	}
	if len(r.Policies) == 0 {
		return
	}
	sel := api.MaxChangePolicySelect
	if r.SelectPolicy != nil {
		sel = *r.SelectPolicy
	}
	w.line(2, "Select Policy: %s", sel)
	w.line(2, "Policies:")
	for _, p := range r.Policies {
		w.line(3, "- Type: %s\tValue: %d\tPeriod: %d seconds", p.Type, p.Value, p.PeriodSeconds)
	}
}
