package api

// HorizontalPodAutoscaler metric source and target types, scaling policy
// types and condition types (autoscaling/v2).
const (
	ResourceMetricSourceType = "Resource"
	UtilizationMetricType    = "Utilization"
	ValueMetricType          = "Value"
	AverageValueMetricType   = "AverageValue"

	PodsScalingPolicy     = "Pods"
	PercentScalingPolicy  = "Percent"
	MaxChangePolicySelect = "Max"
	MinChangePolicySelect = "Min"
	DisabledPolicySelect  = "Disabled"

	HPAScalingActive  = "ScalingActive"
	HPAAbleToScale    = "AbleToScale"
	HPAScalingLimited = "ScalingLimited"
)

// HorizontalPodAutoscaler is autoscaling/v2 HorizontalPodAutoscaler.
type HorizontalPodAutoscaler struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       HorizontalPodAutoscalerSpec   `json:"spec" yaml:"spec"`
	Status     HorizontalPodAutoscalerStatus `json:"status" yaml:"status"`
}

// HorizontalPodAutoscalerSpec is autoscaling/v2's.
type HorizontalPodAutoscalerSpec struct {
	ScaleTargetRef CrossVersionObjectReference      `json:"scaleTargetRef" yaml:"scaleTargetRef"`
	MinReplicas    *int32                           `json:"minReplicas,omitempty" yaml:"minReplicas,omitempty"`
	MaxReplicas    int32                            `json:"maxReplicas" yaml:"maxReplicas"`
	Metrics        []MetricSpec                     `json:"metrics,omitempty" yaml:"metrics,omitempty"`
	Behavior       *HorizontalPodAutoscalerBehavior `json:"behavior,omitempty" yaml:"behavior,omitempty"`
}

// CrossVersionObjectReference is autoscaling/v2's.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind" yaml:"kind"`
	Name       string `json:"name" yaml:"name"`
	APIVersion string `json:"apiVersion,omitempty" yaml:"apiVersion,omitempty"`
}

// MetricSpec is autoscaling/v2 MetricSpec with the Resource source only
// (Pods, Object, External and ContainerResource are not simulated).
type MetricSpec struct {
	Type     string                `json:"type" yaml:"type"`
	Resource *ResourceMetricSource `json:"resource,omitempty" yaml:"resource,omitempty"`
}

// ResourceMetricSource is autoscaling/v2's.
type ResourceMetricSource struct {
	Name   string       `json:"name" yaml:"name"`
	Target MetricTarget `json:"target" yaml:"target"`
}

// MetricTarget is autoscaling/v2's.
type MetricTarget struct {
	Type               string    `json:"type" yaml:"type"`
	Value              *Quantity `json:"value,omitempty" yaml:"value,omitempty"`
	AverageValue       *Quantity `json:"averageValue,omitempty" yaml:"averageValue,omitempty"`
	AverageUtilization *int32    `json:"averageUtilization,omitempty" yaml:"averageUtilization,omitempty"`
}

// HorizontalPodAutoscalerBehavior is autoscaling/v2's.
type HorizontalPodAutoscalerBehavior struct {
	ScaleUp   *HPAScalingRules `json:"scaleUp,omitempty" yaml:"scaleUp,omitempty"`
	ScaleDown *HPAScalingRules `json:"scaleDown,omitempty" yaml:"scaleDown,omitempty"`
}

// HPAScalingRules is autoscaling/v2's (without 1.35's tolerance).
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32             `json:"stabilizationWindowSeconds,omitempty" yaml:"stabilizationWindowSeconds,omitempty"`
	SelectPolicy               *string            `json:"selectPolicy,omitempty" yaml:"selectPolicy,omitempty"`
	Policies                   []HPAScalingPolicy `json:"policies,omitempty" yaml:"policies,omitempty"`
}

// HPAScalingPolicy is autoscaling/v2's.
type HPAScalingPolicy struct {
	Type          string `json:"type" yaml:"type"`
	Value         int32  `json:"value" yaml:"value"`
	PeriodSeconds int32  `json:"periodSeconds" yaml:"periodSeconds"`
}

// HorizontalPodAutoscalerStatus is autoscaling/v2's.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration *int64                             `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	LastScaleTime      *Time                              `json:"lastScaleTime,omitempty" yaml:"lastScaleTime,omitempty"`
	CurrentReplicas    int32                              `json:"currentReplicas,omitempty" yaml:"currentReplicas,omitempty"`
	DesiredReplicas    int32                              `json:"desiredReplicas" yaml:"desiredReplicas"`
	CurrentMetrics     []MetricStatus                     `json:"currentMetrics" yaml:"currentMetrics"`
	Conditions         []HorizontalPodAutoscalerCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
}

// MetricStatus is autoscaling/v2's, Resource only.
type MetricStatus struct {
	Type     string                `json:"type" yaml:"type"`
	Resource *ResourceMetricStatus `json:"resource,omitempty" yaml:"resource,omitempty"`
}

// ResourceMetricStatus is autoscaling/v2's.
type ResourceMetricStatus struct {
	Name    string            `json:"name" yaml:"name"`
	Current MetricValueStatus `json:"current" yaml:"current"`
}

// MetricValueStatus is autoscaling/v2's.
type MetricValueStatus struct {
	Value              *Quantity `json:"value,omitempty" yaml:"value,omitempty"`
	AverageValue       *Quantity `json:"averageValue,omitempty" yaml:"averageValue,omitempty"`
	AverageUtilization *int32    `json:"averageUtilization,omitempty" yaml:"averageUtilization,omitempty"`
}

// HorizontalPodAutoscalerCondition is autoscaling/v2's.
type HorizontalPodAutoscalerCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"lastTransitionTime"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// GetKind returns "HorizontalPodAutoscaler".
func (h *HorizontalPodAutoscaler) GetKind() string { return KindHorizontalPodAutoscaler }

// Meta returns the metadata.
func (h *HorizontalPodAutoscaler) Meta() *ObjectMeta { return &h.ObjectMeta }

// MinReplicas is spec.minReplicas, 1 when unset.
func (h *HorizontalPodAutoscaler) MinReplicas() int32 {
	if h.Spec.MinReplicas == nil {
		return 1
	}
	return *h.Spec.MinReplicas
}

// Condition returns the condition of type t, if any.
func (h *HorizontalPodAutoscaler) Condition(t string) *HorizontalPodAutoscalerCondition {
	for i := range h.Status.Conditions {
		if h.Status.Conditions[i].Type == t {
			return &h.Status.Conditions[i]
		}
	}
	return nil
}

// DeepCopy returns an independent copy.
func (h *HorizontalPodAutoscaler) DeepCopy() *HorizontalPodAutoscaler {
	out := &HorizontalPodAutoscaler{TypeMeta: h.TypeMeta, ObjectMeta: h.ObjectMeta.DeepCopy(), Spec: h.Spec, Status: h.Status}
	out.Spec.MinReplicas = copyPtr(h.Spec.MinReplicas)
	out.Spec.Metrics = copyMetricSpecs(h.Spec.Metrics)
	if b := h.Spec.Behavior; b != nil {
		out.Spec.Behavior = &HorizontalPodAutoscalerBehavior{ScaleUp: b.ScaleUp.deepCopy(), ScaleDown: b.ScaleDown.deepCopy()}
	}
	st := &out.Status
	st.ObservedGeneration = copyPtr(h.Status.ObservedGeneration)
	st.LastScaleTime = copyPtr(h.Status.LastScaleTime)
	st.Conditions = copySlice(h.Status.Conditions)
	if h.Status.CurrentMetrics != nil {
		st.CurrentMetrics = make([]MetricStatus, len(h.Status.CurrentMetrics))
		for i, m := range h.Status.CurrentMetrics {
			if m.Resource != nil {
				r := *m.Resource
				r.Current = MetricValueStatus{Value: copyPtr(r.Current.Value), AverageValue: copyPtr(r.Current.AverageValue), AverageUtilization: copyPtr(r.Current.AverageUtilization)}
				m.Resource = &r
			}
			st.CurrentMetrics[i] = m
		}
	}
	return out
}

func copyMetricSpecs(in []MetricSpec) []MetricSpec {
	if in == nil {
		return nil
	}
	out := make([]MetricSpec, len(in))
	for i, m := range in {
		if m.Resource != nil {
			r := *m.Resource
			r.Target = MetricTarget{Type: r.Target.Type, Value: copyPtr(r.Target.Value), AverageValue: copyPtr(r.Target.AverageValue), AverageUtilization: copyPtr(r.Target.AverageUtilization)}
			m.Resource = &r
		}
		out[i] = m
	}
	return out
}

func (r *HPAScalingRules) deepCopy() *HPAScalingRules {
	if r == nil {
		return nil
	}
	return &HPAScalingRules{StabilizationWindowSeconds: copyPtr(r.StabilizationWindowSeconds), SelectPolicy: copyPtr(r.SelectPolicy), Policies: copySlice(r.Policies)}
}

// DeepCopyObject implements Object.
func (h *HorizontalPodAutoscaler) DeepCopyObject() Object { return h.DeepCopy() }
