package apiserver

import (
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// replicaSetStrategy is pkg/registry/apps/replicaset/strategy.go.
var replicaSetStrategy = statusField(strategy{
	hasSpec:  true,
	defaults: func(obj api.Object) { defaultReplicaSet(obj.(*api.ReplicaSet)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateReplicaSet(e, obj.(*api.ReplicaSet)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.ReplicaSet)
		defaultReplicaSet(o)
		o.Status = api.ReplicaSetStatus{}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.ReplicaSet), old.(*api.ReplicaSet)
		defaultReplicaSet(o)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		if err := immutableSelector(o, prev.Spec.Selector, o.Spec.Selector); err != nil {
			return err
		}
		if !reflect.DeepEqual(&o.Spec, &prev.Spec) {
			o.Generation++
		}
		return nil
	},
}, &api.ReplicaSet{})
