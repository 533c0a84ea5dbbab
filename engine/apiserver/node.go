package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// nodeStrategy is pkg/registry/core/node/strategy.go.
var nodeStrategy = statusField(strategy{
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateNode(e, obj.(*api.Node)) },
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.Node), old.(*api.Node)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		return nil
	},
}, &api.Node{})
