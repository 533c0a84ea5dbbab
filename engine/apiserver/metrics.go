package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// podMetricsStrategy and nodeMetricsStrategy store the metrics-server's
// objects (metrics.k8s.io) as written.
var podMetricsStrategy = strategy{
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		obj.(*api.PodMetrics).TypeMeta = api.TypeMeta{APIVersion: "metrics.k8s.io/v1beta1", Kind: api.KindPodMetrics}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		obj.(*api.PodMetrics).TypeMeta = old.(*api.PodMetrics).TypeMeta
		return nil
	},
}

var nodeMetricsStrategy = strategy{
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		obj.(*api.NodeMetrics).TypeMeta = api.TypeMeta{APIVersion: "metrics.k8s.io/v1beta1", Kind: api.KindNodeMetrics}
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		obj.(*api.NodeMetrics).TypeMeta = old.(*api.NodeMetrics).TypeMeta
		return nil
	},
}
