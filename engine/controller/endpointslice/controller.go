package endpointslice

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/endpointutil"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// Name is the component name in the trace (kube-controller-manager's
// name for the controller).
const Name = "endpointslice-controller"

// EventSource is the component the controller's Events name.
const EventSource = "endpoint-slice-controller"

// MaxEndpointsPerSlice is --max-endpoints-per-slice's default.
const MaxEndpointsPerSlice = 100

// The controller's rate limiter (defaultSyncBackOff, maxSyncBackOff in
// endpointslice_controller.go): a failed sync waits 1 s, doubling to
// 1000 s.
const (
	syncBackOffMS    = 1_000
	maxSyncBackOffMS = 1_000_000
)

// Controller is the EndpointSlice controller with its cache of Services,
// Pods, Nodes and EndpointSlices.
type Controller struct {
	reconcile.Base
	tracker tracker
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindService, api.KindPod, api.KindNode, api.KindEndpointSlice)), tracker: tracker{}}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), tracker: c.tracker.clone()}
}

// FailureBackoff is the controller's own rate limiter: 1 s doubling to
// 1000 s.
func (c *Controller) FailureBackoff() (base, max int64) { return syncBackOffMS, maxSyncBackOffMS }

// Observe queues the Services it concerns, as
// the controller's event handlers do (onServiceUpdate, addPod,
// updatePod, deletePod, onEndpointSliceDelete).
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.Service:
		if ev.Type == apiserver.Deleted {
			c.tracker.deleteService(o)
		}
		q.Add(api.KeyOf(o))
	case *api.Pod:
		oldPod, _ := ev.Old.(*api.Pod)
		for _, svc := range endpointutil.ServicesToUpdate(c.Informer.List(api.KindService, o.Namespace), oldPod, o) {
			q.Add(api.KeyOf(svc))
		}
	case *api.EndpointSlice:
		// Only a slice the controller did not expect to change (someone
		// else's edit or deletion) brings its Service back.
		deleted := ev.Type == apiserver.Deleted
		if svc, ok := serviceOf(o); ok && !c.tracker.expected(o, deleted) {
			if deleted {
				c.tracker.forgetSlice(o) // onEndpointSliceDelete: recreate it
			}
			q.AddAfter(svc, 1_000)
		}
	}
}

// serviceOf is the Service a managed slice belongs to.
func serviceOf(s *api.EndpointSlice) (api.Key, bool) {
	name, ok := s.Labels[api.LabelServiceName]
	if !ok || s.Labels[api.LabelManagedBy] != api.ManagedByEndpointSlice {
		return api.Key{}, false
	}
	return api.Key{Kind: api.KindService, Namespace: s.Namespace, Name: name}, true
}
