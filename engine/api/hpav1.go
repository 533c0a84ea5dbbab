package api

// HorizontalPodAutoscalerV1 is autoscaling/v1's HorizontalPodAutoscaler,
// which the API server still serves beside autoscaling/v2: a CPU
// utilization target only. Manifests written for it are read into this
// type and converted (ToV2) into the object the API server stores.
type HorizontalPodAutoscalerV1 struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       HorizontalPodAutoscalerSpecV1 `json:"spec" yaml:"spec"`
}

// HorizontalPodAutoscalerSpecV1 is autoscaling/v1's spec.
type HorizontalPodAutoscalerSpecV1 struct {
	ScaleTargetRef                 CrossVersionObjectReference `json:"scaleTargetRef" yaml:"scaleTargetRef"`
	MinReplicas                    *int32                      `json:"minReplicas,omitempty" yaml:"minReplicas,omitempty"`
	MaxReplicas                    int32                       `json:"maxReplicas" yaml:"maxReplicas"`
	TargetCPUUtilizationPercentage *int32                      `json:"targetCPUUtilizationPercentage,omitempty" yaml:"targetCPUUtilizationPercentage,omitempty"`
}

// ToV2 is the object the API server stores for h
// (pkg/apis/autoscaling/v1/conversion.go,
// Convert_v1_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler):
// the CPU target becomes a Resource metric of type Utilization; without
// one there are no metrics, and autoscaling/v2's defaults give the 80 %
// CPU target.
func (h *HorizontalPodAutoscalerV1) ToV2() Object {
	out := &HorizontalPodAutoscaler{
		TypeMeta:   TypeMeta{APIVersion: "autoscaling/v2", Kind: KindHorizontalPodAutoscaler},
		ObjectMeta: h.ObjectMeta,
		Spec:       HorizontalPodAutoscalerSpec{ScaleTargetRef: h.Spec.ScaleTargetRef, MinReplicas: h.Spec.MinReplicas, MaxReplicas: h.Spec.MaxReplicas},
	}
	if t := h.Spec.TargetCPUUtilizationPercentage; t != nil {
		out.Spec.Metrics = []MetricSpec{{Type: ResourceMetricSourceType, Resource: &ResourceMetricSource{Name: "cpu",
			Target: MetricTarget{Type: UtilizationMetricType, AverageUtilization: Int32(*t)}}}}
	}
	return out
}
