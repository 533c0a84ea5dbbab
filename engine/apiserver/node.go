package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
	"reflect"
)

// nodeStrategy is pkg/registry/core/node/strategy.go.
var nodeStrategy = strategy{
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateNode(e, obj.(*api.Node)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		obj.(*api.Node).TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: api.KindNode}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.Node), old.(*api.Node)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		return nil
	},
	sameStatus:   nodeSameStatus,
	withStatusOf: nodeWithStatusOf,
}

// nodeSameStatus and nodeWithStatusOf are its status subresource.
func nodeSameStatus(obj, old api.Object) bool {
	return reflect.DeepEqual(&obj.(*api.Node).Status, &old.(*api.Node).Status)
}

func nodeWithStatusOf(old, src api.Object) api.Object {
	c := *old.(*api.Node)
	c.Status = src.(*api.Node).Status
	return &c
}
