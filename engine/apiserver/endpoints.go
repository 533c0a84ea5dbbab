package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// endpointsStrategy is pkg/registry/core/endpoint/strategy.go.
var endpointsStrategy = strategy{
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		obj.(*api.Endpoints).TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: api.KindEndpoints}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		obj.(*api.Endpoints).TypeMeta = old.(*api.Endpoints).TypeMeta
		return nil
	},
}
