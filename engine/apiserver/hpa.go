package apiserver

// This file is the HorizontalPodAutoscaler REST strategy (autoscaling/v2):
// defaults (SetDefaults_HorizontalPodAutoscaler in
// pkg/apis/autoscaling/v2/defaults.go), validation (the parts of
// ValidateHorizontalPodAutoscaler the simulated fields have) and the
// generation rule of an update.

import (
	"fmt"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// defaultHPA is SetDefaults_HorizontalPodAutoscaler: minReplicas 1, a CPU
// utilization target of 80 % when there are no metrics, and the default
// scaling rules filled in only when a behavior is given.
func defaultHPA(h *api.HorizontalPodAutoscaler) {
	sp := &h.Spec
	if sp.MinReplicas == nil {
		sp.MinReplicas = api.Int32(1)
	}
	if len(sp.Metrics) == 0 {
		sp.Metrics = []api.MetricSpec{{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: "cpu",
			Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(80)}}}}
	}
	if b := sp.Behavior; b != nil {
		b.ScaleUp = mergeRules(b.ScaleUp, api.HPAScalingRules{StabilizationWindowSeconds: api.Int32(0), SelectPolicy: strPtr(api.MaxChangePolicySelect),
			Policies: []api.HPAScalingPolicy{{Type: api.PodsScalingPolicy, Value: 4, PeriodSeconds: 15}, {Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}})
		b.ScaleDown = mergeRules(b.ScaleDown, api.HPAScalingRules{SelectPolicy: strPtr(api.MaxChangePolicySelect),
			Policies: []api.HPAScalingPolicy{{Type: api.PercentScalingPolicy, Value: 100, PeriodSeconds: 15}}})
	}
}

func strPtr(s string) *string { return &s }

// mergeRules is copyHPAScalingRules over the defaults.
func mergeRules(from *api.HPAScalingRules, to api.HPAScalingRules) *api.HPAScalingRules {
	if from != nil {
		if from.SelectPolicy != nil {
			to.SelectPolicy = from.SelectPolicy
		}
		if from.StabilizationWindowSeconds != nil {
			to.StabilizationWindowSeconds = from.StabilizationWindowSeconds
		}
		if from.Policies != nil {
			to.Policies = from.Policies
		}
	}
	return &to
}

// validateHPA is ValidateHorizontalPodAutoscaler for the simulated
// fields.
func validateHPA(e *errs, h *api.HorizontalPodAutoscaler) {
	sp := &h.Spec
	ref := sp.ScaleTargetRef
	switch {
	case ref.Kind == "":
		e.required("spec.scaleTargetRef.kind")
	case ref.Name == "":
		e.required("spec.scaleTargetRef.name")
	}
	if sp.MinReplicas != nil && *sp.MinReplicas < 1 {
		e.invalid("spec.minReplicas", int64(*sp.MinReplicas), "must be greater than or equal to 1")
	}
	if sp.MaxReplicas < 1 {
		e.invalid("spec.maxReplicas", int64(sp.MaxReplicas), "must be greater than 0")
	}
	if sp.MinReplicas != nil && sp.MaxReplicas < *sp.MinReplicas {
		e.invalid("spec.maxReplicas", int64(sp.MaxReplicas), "must be greater than or equal to `minReplicas`")
	}
	for i, m := range sp.Metrics {
		validateMetricSpec(e, fmt.Sprintf("spec.metrics[%d]", i), m)
	}
	if b := sp.Behavior; b != nil {
		validateScalingRules(e, "spec.behavior.scaleUp", b.ScaleUp)
		validateScalingRules(e, "spec.behavior.scaleDown", b.ScaleDown)
	}
}

func validateMetricSpec(e *errs, path string, m api.MetricSpec) {
	switch m.Type {
	case api.ResourceMetricSourceType:
	case "":
		e.add(path+".type", "Required value: must specify a metric source type")
		return
	case "Pods", "Object", "External", "ContainerResource":
		e.add(path+".type", "Unsupported value: %q: Stateflow simulates Resource metrics only (cpu and memory)", m.Type)
		return
	default:
		e.add(path+".type", "Unsupported value: %q: supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"", m.Type)
		return
	}
	r := m.Resource
	if r == nil {
		e.add(path+".resource", "Required value: must populate information for the given metric source")
		return
	}
	validateResourceSource(e, path+".resource", r)
}

// validateResourceSource is validateResourceSource and
// validateMetricTarget. (A Value target is valid for the API; the
// controller rejects it for a Resource metric, as upstream's does.)
func validateResourceSource(e *errs, path string, r *api.ResourceMetricSource) {
	switch r.Name {
	case "":
		e.add(path+".name", "Required value: must specify a resource name")
	case "cpu", "memory":
	default:
		e.add(path+".name", "Unsupported value: %q: Stateflow simulates cpu and memory", r.Name)
	}
	t := r.Target
	switch t.Type {
	case api.UtilizationMetricType, api.ValueMetricType, api.AverageValueMetricType:
	case "":
		e.add(path+".target.type", "Required value: must specify a metric target type")
		e.add(path+".target.type", "Invalid value: \"\": must be either Utilization, Value, or AverageValue")
	default:
		e.add(path+".target.type", "Invalid value: %q: must be either Utilization, Value, or AverageValue", t.Type)
	}
	if t.Value != nil && t.Value.MilliValue() <= 0 {
		e.add(path+".target.value", "Invalid value: %q: must be positive", t.Value.String())
	}
	if t.AverageValue != nil && t.AverageValue.MilliValue() <= 0 {
		e.add(path+".target.averageValue", "Invalid value: %q: must be positive", t.AverageValue.String())
	}
	if t.AverageUtilization != nil && *t.AverageUtilization < 1 {
		e.invalid(path+".target.averageUtilization", int64(*t.AverageUtilization), "must be greater than 0")
	}
	if t.AverageUtilization == nil && t.AverageValue == nil {
		e.add(path+".target.averageUtilization", "Required value: must set either a target raw value or a target utilization")
	}
	if t.AverageUtilization != nil && t.AverageValue != nil {
		e.add(path+".target.averageValue", "Forbidden: may not set both a target raw value and a target utilization")
	}
}

func validateScalingRules(e *errs, path string, r *api.HPAScalingRules) {
	if r == nil {
		return
	}
	if w := r.StabilizationWindowSeconds; w != nil && *w < 0 {
		e.invalid(path+".stabilizationWindowSeconds", int64(*w), "must be greater than or equal to zero")
	}
	if w := r.StabilizationWindowSeconds; w != nil && *w > 3600 {
		e.invalid(path+".stabilizationWindowSeconds", int64(*w), "must be less than or equal to 3600")
	}
	if p := r.SelectPolicy; p != nil && *p != api.MaxChangePolicySelect && *p != api.MinChangePolicySelect && *p != api.DisabledPolicySelect {
		e.add(path+".selectPolicy", "Unsupported value: %q: supported values: \"Disabled\", \"Max\", \"Min\"", *p)
	}
	if len(r.Policies) == 0 {
		e.add(path+".policies", "Required value: must specify at least one Policy")
	}
	for i, p := range r.Policies {
		pp := fmt.Sprintf("%s.policies[%d]", path, i)
		if p.Type != api.PodsScalingPolicy && p.Type != api.PercentScalingPolicy {
			e.add(pp+".type", "Unsupported value: %q: supported values: \"Percent\", \"Pods\"", p.Type)
		}
		if p.Value <= 0 {
			e.invalid(pp+".value", int64(p.Value), "must be greater than zero")
		}
		if p.PeriodSeconds <= 0 {
			e.invalid(pp+".periodSeconds", int64(p.PeriodSeconds), "must be greater than zero")
		}
		if p.PeriodSeconds > 1800 {
			e.invalid(pp+".periodSeconds", int64(p.PeriodSeconds), "must be less than or equal to 1800")
		}
	}
}

// updateHPA is the strategy's PrepareForUpdate: the status is kept, a
// spec change bumps the generation.
func updateHPA(o, old *api.HorizontalPodAutoscaler) error {
	defaultHPA(o)
	o.TypeMeta, o.Status = old.TypeMeta, old.Status
	if !reflect.DeepEqual(&o.Spec, &old.Spec) {
		o.Generation++
	}
	return nil
}

// hpaStrategy is pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go.
var hpaStrategy = statusField(strategy{
	hasSpec:  true,
	defaults: func(obj api.Object) { defaultHPA(obj.(*api.HorizontalPodAutoscaler)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateHPA(e, obj.(*api.HorizontalPodAutoscaler)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.HorizontalPodAutoscaler)
		defaultHPA(o)
		o.Status = api.HorizontalPodAutoscalerStatus{}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		return updateHPA(obj.(*api.HorizontalPodAutoscaler), old.(*api.HorizontalPodAutoscaler))
	},
}, &api.HorizontalPodAutoscaler{})
