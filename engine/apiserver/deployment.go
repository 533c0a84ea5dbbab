package apiserver

import (
	"maps"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// deploymentStrategy is pkg/registry/apps/deployment/strategy.go.
var deploymentStrategy = strategy{
	hasSpec:  true,
	defaults: func(obj api.Object) { defaultDeployment(obj.(*api.Deployment)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateDeployment(e, obj.(*api.Deployment)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.Deployment)
		defaultDeployment(o)
		o.Status = api.DeploymentStatus{}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.Deployment), old.(*api.Deployment)
		defaultDeployment(o)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		if err := immutableSelector(o, prev.Spec.Selector, o.Spec.Selector); err != nil {
			return err
		}
		// A new spec or new annotations.
		if !reflect.DeepEqual(&o.Spec, &prev.Spec) || !maps.Equal(o.Annotations, prev.Annotations) {
			o.Generation++
		}
		return nil
	},
	// deploymentStatusStrategy.PrepareForUpdate keeps only spec and labels
	// from the stored object: annotations written with the status (the
	// revision) persist. A status write replaces the object.
	withStatusOf: func(old, src api.Object) api.Object {
		o := old.(*api.Deployment)
		c := src.(*api.Deployment).DeepCopy()
		c.Spec = o.DeepCopy().Spec
		c.Labels = o.DeepCopy().Labels
		keepSystemMeta(&c.ObjectMeta, &o.ObjectMeta)
		c.TypeMeta = o.TypeMeta
		return c
	},
}
