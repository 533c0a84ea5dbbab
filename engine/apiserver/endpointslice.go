package apiserver

import (
	"maps"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
)

// endpointSliceStrategy is pkg/registry/discovery/endpointslice/strategy.go.
var endpointSliceStrategy = strategy{
	hasSpec: true,
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		obj.(*api.EndpointSlice).TypeMeta = api.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: api.KindEndpointSlice}
	},
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
