package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// endpointsStrategy is pkg/registry/core/endpoint/strategy.go.
var endpointsStrategy = strategy{
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		obj.(*api.Endpoints).TypeMeta = old.(*api.Endpoints).TypeMeta
		return nil
	},
}
