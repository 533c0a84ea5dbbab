package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// eventStrategy is pkg/registry/core/event/strategy.go: an Event is
// stored as written.
var eventStrategy = strategy{
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		obj.(*api.Event).TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent}
	},
}
