package apiserver

// This file is the PodDisruptionBudget REST strategy (policy/v1,
// pkg/registry/policy/poddisruptionbudget/strategy.go): policy/v1 has no
// defaults; validation is ValidatePodDisruptionBudgetSpec
// (pkg/apis/policy/validation); an update keeps the status and bumps the
// generation when the spec changes.

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// validatePDB is ValidatePodDisruptionBudgetSpec.
func validatePDB(e *errs, p *api.PodDisruptionBudget) {
	sp := &p.Spec
	if sp.MinAvailable != nil && sp.MaxUnavailable != nil {
		e.add("spec", "Invalid value: %s: minAvailable and maxUnavailable cannot be both set", pdbSpecValue(sp))
	}
	for _, f := range []struct {
		path string
		v    *api.IntOrString
	}{{"spec.minAvailable", sp.MinAvailable}, {"spec.maxUnavailable", sp.MaxUnavailable}} {
		if f.v == nil {
			continue
		}
		if p := validateIntOrPercent(e, f.path, f.v); f.v.IsString && p > 100 {
			e.add(f.path, "Invalid value: %q: must not be greater than 100%%", f.v.StrVal)
		}
	}
	if sp.Selector != nil {
		validateLabelSelector(e, "spec.selector", sp.Selector)
	}
	if pol := sp.UnhealthyPodEvictionPolicy; pol != nil && *pol != api.AlwaysAllow && *pol != api.IfHealthyBudget {
		e.add("spec.unhealthyPodEvictionPolicy", "Unsupported value: %q: supported values: %q, %q", *pol, api.AlwaysAllow, api.IfHealthyBudget)
	}
}

// pdbSpecValue is how field.Error renders the internal spec type: as JSON
// with Go's field names (the internal type has no JSON tags).
func pdbSpecValue(sp *api.PodDisruptionBudgetSpec) string {
	b, err := json.Marshal(struct {
		MinAvailable               *api.IntOrString
		Selector                   *api.LabelSelector
		MaxUnavailable             *api.IntOrString
		UnhealthyPodEvictionPolicy *string
	}{sp.MinAvailable, sp.Selector, sp.MaxUnavailable, sp.UnhealthyPodEvictionPolicy})
	if err != nil {
		return fmt.Sprintf("%#v", *sp)
	}
	return string(b)
}

// updatePDB is the strategy's PrepareForUpdate.
func updatePDB(o, old *api.PodDisruptionBudget) {
	o.TypeMeta, o.Status = old.TypeMeta, old.Status
	if !reflect.DeepEqual(&o.Spec, &old.Spec) {
		o.Generation = old.Generation + 1
	}
}

// pdbStrategy is pkg/registry/policy/poddisruptionbudget/strategy.go.
var pdbStrategy = statusField(strategy{
	hasSpec:  true,
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validatePDB(e, obj.(*api.PodDisruptionBudget)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.PodDisruptionBudget)
		o.Status = api.PodDisruptionBudgetStatus{}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		updatePDB(obj.(*api.PodDisruptionBudget), old.(*api.PodDisruptionBudget))
		return nil
	},
}, &api.PodDisruptionBudget{})
