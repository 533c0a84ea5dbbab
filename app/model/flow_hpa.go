package model

// This file draws HorizontalPodAutoscalers: each at the top row, beside
// what it scales, with the metrics it last read and the count it wants.
// A metrics-server scrape is drawn as arrows up from the nodes into each
// autoscaler (the usage the kubelets measured, summarised); the
// autoscaler's write of its target's replicas is the usual arrow down.

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/metrics"
	"github.com/stateflow/stateflow/engine/trace"
)

// hpa is an autoscaler's box, drawn at the top row beside what it
// scales.
func (s *scene) hpa(h *api.HorizontalPodAutoscaler) *Box {
	return s.kindBox(h, hpaLines(h), hpaStatus(h))
}

// hpaLines: what it scales and the metric against its target, then the
// counts.
func hpaLines(h *api.HorizontalPodAutoscaler) []string {
	ref := h.Spec.ScaleTargetRef
	first := fmt.Sprintf("%s/%s · %s", api.ShortKind(ref.Kind), ref.Name, HPATargets(h))
	st := h.Status
	second := fmt.Sprintf("replicas %d → %d · %d–%d", st.CurrentReplicas, st.DesiredReplicas, h.MinReplicas(), h.Spec.MaxReplicas)
	if c := h.Condition(api.HPAScalingActive); c != nil && c.Status == "False" {
		second = "ScalingActive=False: " + c.Reason
	} else if c := h.Condition(api.HPAAbleToScale); c != nil && c.Reason == "ScaleDownStabilized" {
		second += " · stabilising"
	}
	return []string{first, second}
}

// HPATargets is the metric against its target, as kubectl's TARGETS
// prints a Resource metric ("cpu: 90%/50%", "cpu: <unknown>/50%").
func HPATargets(h *api.HorizontalPodAutoscaler) string {
	var parts []string
	for i, m := range h.Spec.Metrics {
		if m.Resource == nil {
			continue
		}
		cur := "<unknown>"
		var status *api.MetricValueStatus
		if i < len(h.Status.CurrentMetrics) && h.Status.CurrentMetrics[i].Resource != nil {
			status = &h.Status.CurrentMetrics[i].Resource.Current
		}
		t := m.Resource.Target
		switch {
		case t.AverageUtilization != nil:
			if status != nil && status.AverageUtilization != nil {
				cur = fmt.Sprintf("%d%%", *status.AverageUtilization)
			}
			parts = append(parts, fmt.Sprintf("%s: %s/%d%%", m.Resource.Name, cur, *t.AverageUtilization))
		case t.AverageValue != nil:
			if status != nil && status.AverageValue != nil {
				cur = status.AverageValue.String()
			}
			parts = append(parts, fmt.Sprintf("%s: %s/%s", m.Resource.Name, cur, t.AverageValue))
		}
	}
	return strings.Join(parts, ", ")
}

func hpaStatus(h *api.HorizontalPodAutoscaler) string {
	switch {
	case h.DeletionTimestamp != nil:
		return "gone"
	case h.Condition(api.HPAScalingActive) != nil && h.Condition(api.HPAScalingActive).Status == "False":
		return "warn"
	case h.Status.DesiredReplicas != h.Status.CurrentReplicas:
		return "progress"
	}
	return "ok"
}

// metricsArrows draws the metrics going up: a metrics-server scrape as
// arrows from the node row into every autoscaler, and an autoscaler's sync
// (which reads the metrics API) as one into itself, so the loop shows
// at the autoscaler's own row of the story.
func (l *layout) metricsArrows(t *trace.Tick) {
	scrape := t.Component == metrics.Name && len(t.Effects) > 0
	if !scrape && t.Component != engine.HPAController {
		return
	}
	from := l.boxes["nodes"]
	for _, id := range sortedIDs(l.boxes) {
		if b := l.boxes[id]; b.Kind == api.KindNode && (from == nil || b.X < from.X) {
			from = b
		}
	}
	if from == nil {
		return
	}
	for _, id := range sortedIDs(l.boxes) {
		b := l.boxes[id]
		if b.Kind != api.KindHorizontalPodAutoscaler || !scrape && b.Key != t.Object {
			continue
		}
		// Straight up from the node row under the autoscaler: its column
		// holds no pod (it is drawn after every workload), so the arrow
		// and its label cross none.
		b.Highlight = trace.Aggregate
		l.f.Arrows = append(l.f.Arrows, Arrow{X1: b.X + b.W/2, Y1: from.Y, X2: b.X + b.W/2, Y2: b.Y + b.H,
			Class: trace.Aggregate, Label: trace.Aggregate.Symbol() + " metrics"})
	}
}
