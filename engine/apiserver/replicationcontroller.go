package apiserver

import (
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// replicationControllerStrategy is
// pkg/registry/core/replicationcontroller/strategy.go: the spec's
// generation, the status subresource.
var replicationControllerStrategy = statusField(strategy{
	hasSpec:  true,
	defaults: func(obj api.Object) { defaultReplicationController(obj.(*api.ReplicationController)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) {
		validateReplicationController(e, obj.(*api.ReplicationController))
	},
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.ReplicationController)
		defaultReplicationController(o)
		o.Status = api.ReplicationControllerStatus{}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.ReplicationController), old.(*api.ReplicationController)
		defaultReplicationController(o)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		if !reflect.DeepEqual(&o.Spec, &prev.Spec) {
			o.Generation++
		}
		return nil
	},
}, &api.ReplicationController{})

// defaultReplicationController is SetDefaults_ReplicationController: the
// template's labels as the selector and the labels when they are empty,
// one replica, and the pod template's defaults.
func defaultReplicationController(r *api.ReplicationController) {
	if t := r.Spec.Template; t != nil && t.Labels != nil {
		if len(r.Spec.Selector) == 0 {
			r.Spec.Selector = t.Labels
		}
		if len(r.Labels) == 0 {
			r.Labels = t.Labels
		}
	}
	if r.Spec.Replicas == nil {
		r.Spec.Replicas = api.Int32(1)
	}
	if r.Spec.Template != nil {
		defaultPodSpec(&r.Spec.Template.Spec)
	}
}

// validateReplicationController is ValidateReplicationControllerSpec: a
// non-empty selector the template's labels match, replicas and
// minReadySeconds not negative, a template whose pods always restart.
func validateReplicationController(e *errs, r *api.ReplicationController) {
	s := &r.Spec
	if s.MinReadySeconds < 0 {
		e.invalid("spec.minReadySeconds", int64(s.MinReadySeconds), "must be greater than or equal to 0")
	}
	if len(s.Selector) == 0 {
		e.required("spec.selector")
	}
	validateReplicas(e, "spec.replicas", s.Replicas)
	t := s.Template
	if t == nil {
		e.required("spec.template")
		return
	}
	if len(s.Selector) > 0 && !api.EqualityMatcher(s.Selector).Matches(t.Labels) {
		e.invalid("spec.template.metadata.labels", t.Labels, "`selector` does not match template `labels`")
	}
	validateLabels(e, "spec.template.metadata.labels", t.Labels)
	validatePodSpec(e, "spec.template.spec", &t.Spec, true)
	validateAlwaysRestart(e, "spec.template.spec", t.Spec.RestartPolicy)
}
