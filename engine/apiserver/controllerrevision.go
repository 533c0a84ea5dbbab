package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// controllerRevisionStrategy is pkg/registry/apps/controllerrevision/strategy.go.
var controllerRevisionStrategy = strategy{
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		obj.(*api.ControllerRevision).TypeMeta = old.(*api.ControllerRevision).TypeMeta
		return nil
	},
}
