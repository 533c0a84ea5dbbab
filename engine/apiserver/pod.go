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
		if err := validatePodUpdate(o, prev); err != nil {
			return err
		}
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

// updatablePodSpecFields are what ValidatePodUpdate lets an update of a
// pod change.
const updatablePodSpecFields = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`," +
	"`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// validatePodUpdate is the part of ValidatePodUpdate that keeps a pod's
// containers: an update may not add, remove or rename containers or init
// containers (it may change their images). Upstream's message goes on
// with a diff of the two specs, which Stateflow does not print.
func validatePodUpdate(o, prev *api.Pod) error {
	if o.Spec == nil || prev.Spec == nil || sameNames(o.Spec.Containers, prev.Spec.Containers) && sameNames(o.Spec.InitContainers, prev.Spec.InitContainers) {
		return nil
	}
	return &InvalidError{Kind: api.KindPod, Name: o.Name, Fields: []FieldError{{
		Path: "spec", Detail: "Forbidden: pod updates may not change fields other than " + updatablePodSpecFields}}}
}

func sameNames(a, b []api.Container) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}
