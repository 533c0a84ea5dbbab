package apiserver

import (
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// podStrategy is pkg/registry/core/pod/strategy.go.
var podStrategy = statusField(strategy{
	hasSpec: true, // pods too since v1.34
	defaults: func(obj api.Object) {
		o := obj.(*api.Pod)
		ownSpec(o)
		defaultPodSpec(o.Spec)
	},
	validate: func(e *errs, obj api.Object, _ timezone.Loader) {
		if spec := obj.(*api.Pod).Spec; spec != nil {
			validatePodSpec(e, "spec", spec, false)
		} else {
			validatePodSpec(e, "spec", &api.PodSpec{}, false)
		}
	},
	prepareForCreate: func(obj api.Object, shared *admitted, specs *podSpecs) {
		o := obj.(*api.Pod)
		admitPod(o, shared, specs)
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.Pod), old.(*api.Pod)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		if node := prev.Spec.NodeName; o.Spec == nil || o.Spec.NodeName != node {
			ownSpec(o) // o may share its spec with a stored pod
			o.Spec.NodeName = node
		}
		if !reflect.DeepEqual(o.Spec, prev.Spec) {
			o.Generation++ // updatePodGeneration
		}
		return nil
	},
}, &api.Pod{})
