package apiserver

import (
	"maps"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
)

// endpointSliceStrategy is pkg/registry/discovery/endpointslice/strategy.go.
var endpointSliceStrategy = strategy{
	hasSpec: true,
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.EndpointSlice), old.(*api.EndpointSlice)
		o.TypeMeta = prev.TypeMeta
		// Anything but metadata, or the labels.
		if o.AddressType != prev.AddressType || !reflect.DeepEqual(o.Endpoints, prev.Endpoints) || !reflect.DeepEqual(o.Ports, prev.Ports) || !maps.Equal(o.Labels, prev.Labels) {
			o.Generation++
		}
		return nil
	},
}
