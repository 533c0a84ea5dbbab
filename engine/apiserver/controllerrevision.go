package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// controllerRevisionStrategy is pkg/registry/apps/controllerrevision/strategy.go.
var controllerRevisionStrategy = strategy{
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		obj.(*api.ControllerRevision).TypeMeta = api.TypeMeta{APIVersion: "apps/v1", Kind: api.KindControllerRevision}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		obj.(*api.ControllerRevision).TypeMeta = old.(*api.ControllerRevision).TypeMeta
		return nil
	},
}
