package apiserver

import (
	"github.com/stateflow/stateflow/engine/api"
)

// podMetricsStrategy and nodeMetricsStrategy store the metrics-server's
// objects (metrics.k8s.io) as written.
var podMetricsStrategy = strategy{
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		obj.(*api.PodMetrics).TypeMeta = old.(*api.PodMetrics).TypeMeta
		return nil
	},
}

var nodeMetricsStrategy = strategy{
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		obj.(*api.NodeMetrics).TypeMeta = old.(*api.NodeMetrics).TypeMeta
		return nil
	},
}
