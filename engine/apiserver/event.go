package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// eventStrategy is pkg/registry/core/event/strategy.go: an Event is
// stored as written. (A stored record, api.EventRecord, reports kind
// Event too; it is never created through the strategy, and is left as
// it is.)
var eventStrategy = strategy{
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		if e, ok := obj.(*api.Event); ok {
			e.TypeMeta = api.TypeMeta{APIVersion: "v1", Kind: api.KindEvent}
		}
	},
}
