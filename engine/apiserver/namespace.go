package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// namespaceStrategy is pkg/registry/core/namespace/strategy.go: a new
// namespace is Active.
var namespaceStrategy = strategy{
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.Namespace)
		o.Status.Phase = "Active"
	},
}
