package endpoint

import (
	"fmt"
	"maps"
	"reflect"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/endpointutil"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace.
const Name = "endpoints-controller"

// EventSource is the component the controller's Events name, and the
// value of its managed-by label (ControllerName upstream).
const EventSource = "endpoint-controller"

// LabelManagedBy marks the Endpoints this controller manages.
const LabelManagedBy = "endpoints.kubernetes.io/managed-by"

// maxCapacity is how many addresses an Endpoints object lists before it
// is truncated.
const maxCapacity = 1000

// Controller is the Endpoints controller with its cache of Services, Pods
// and Endpoints.
type Controller struct {
	reconcile.Base
	// stale is staleEndpointsTracker: the resourceVersion of each
	// Endpoints the controller replaced, so a cache still holding it is
	// known to lag.
	stale map[api.Key]string
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindService, api.KindPod, api.KindEndpoints)), stale: map[api.Key]string{}}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), stale: maps.Clone(c.stale)}
}

// Observe queues the Services it concerns.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.Service:
		q.Add(api.KeyOf(o))
	case *api.Endpoints:
		if ev.Type == apiserver.Deleted {
			q.Add(api.Key{Kind: api.KindService, Namespace: o.Namespace, Name: o.Name})
		}
	case *api.Pod:
		old, _ := ev.Old.(*api.Pod)
		for _, svc := range endpointutil.ServicesToUpdate(c.Informer.List(api.KindService, o.Namespace), old, o) {
			q.Add(api.KeyOf(svc))
		}
	}
}

// Reconcile is syncService (endpoints_controller.go).
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	epKey := api.Key{Kind: api.KindEndpoints, Namespace: key.Namespace, Name: key.Name}
	svc, ok := informer.Get[*api.Service](c.Informer, key)
	if !ok {
		if _, had := c.Informer.Get(epKey); !had {
			tick.Explain("svc/%s: deleted, and so are its endpoints", key.Name)
			return reconcile.Result{}, nil
		}
		err := tick.Delete(trace.Aggregate, epKey, apiserver.DeleteOptions{}, "endpoints "+key.Name+" deleted with its Service")
		if err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return reconcile.Result{}, err
		}
		delete(c.stale, epKey)
		tick.Explain("svc/%s is gone: deletes its Endpoints", key.Name)
		return reconcile.Result{}, nil
	}
	tick.Read(svc)
	if svc.Spec.Type == api.ServiceTypeExternalName || svc.Spec.Selector == nil {
		tick.Explain("svc/%s has no selector: its Endpoints are written by hand", svc.Name)
		return reconcile.Result{}, nil
	}
	subsets, ready, notReady := c.subsets(svc)
	cur, exists := informer.Get[*api.Endpoints](c.Informer, epKey)
	if exists && c.stale[epKey] == cur.ResourceVersion {
		tick.Explain("svc/%s: its cache still holds the Endpoints it replaced; retries", svc.Name)
		return reconcile.Result{}, fmt.Errorf("endpoints informer cache is out of date, resource version %s already processed for endpoints %s", cur.ResourceVersion, svc.Namespace+"/"+svc.Name)
	}
	labels := endpointsLabels(svc)
	if exists {
		tick.Read(cur)
		if reflect.DeepEqual(cur.Subsets, subsets) && maps.Equal(cur.Labels, labels) && !overCapacity(cur) {
			tick.Explain("svc/%s: endpoints %d ready, %d not ready; up to date", svc.Name, ready, notReady)
			return reconcile.Result{}, nil
		}
	}
	summary := fmt.Sprintf("endpoints %s: %d ready, %d not ready", svc.Name, ready, notReady)
	if !exists {
		ep := &api.Endpoints{ObjectMeta: api.ObjectMeta{Name: svc.Name, Namespace: svc.Namespace, Labels: labels}, Subsets: subsets}
		truncate(ep)
		if _, err := tick.Create(trace.Aggregate, ep, summary); err != nil {
			tick.Event(ep, "", "Warning", "FailedToCreateEndpoint", fmt.Sprintf("Failed to create endpoint for service %s/%s: %v", svc.Namespace, svc.Name, err))
			return reconcile.Result{}, err
		}
	} else {
		ep := cur.DeepCopy()
		ep.Subsets, ep.Labels = subsets, labels
		truncate(ep)
		out, err := tick.Update(trace.Aggregate, ep, summary)
		if err != nil {
			tick.Event(ep, "", "Warning", "FailedToUpdateEndpoint", fmt.Sprintf("Failed to update endpoint %s/%s: %v", svc.Namespace, svc.Name, err))
			return reconcile.Result{}, err
		}
		if out.Meta().ResourceVersion != cur.ResourceVersion {
			c.stale[epKey] = cur.ResourceVersion
		}
	}
	tick.Explain("svc/%s selects %d ready and %d not-ready pods: writes its Endpoints", svc.Name, ready, notReady)
	return reconcile.Result{}, nil
}

// subsets is the loop of syncService: a subset per ready or not-ready
// pod and port it resolves (addEndpointSubset), a pod without ports
// under a Service without ports, repacked and sorted by RepackSubsets.
// It also counts the pods listed ready and not ready.
func (c *Controller) subsets(svc *api.Service) ([]api.EndpointSubset, int, int) {
	var subsets []api.EndpointSubset
	readyN, notReadyN := 0, 0
	for _, o := range c.Informer.List(api.KindPod, svc.Namespace) {
		p := o.(*api.Pod)
		if !endpointutil.Selects(svc, p.Labels) || !endpointutil.ShouldPodBeInEndpoints(p, svc.Spec.PublishNotReadyAddresses) {
			continue
		}
		addr := address(svc, p)
		ports := ports(svc, p)
		if len(svc.Spec.Ports) > 0 && len(ports) == 0 {
			continue
		}
		ready := svc.Spec.PublishNotReadyAddresses || api.IsPodReady(p)
		if ready {
			readyN++
		} else {
			notReadyN++
		}
		one := func(ports []api.EndpointsPort) api.EndpointSubset {
			if ready {
				return api.EndpointSubset{Addresses: []api.EndpointAddress{addr}, Ports: ports}
			}
			return api.EndpointSubset{NotReadyAddresses: []api.EndpointAddress{addr}, Ports: ports}
		}
		if len(ports) == 0 {
			subsets = append(subsets, one(nil))
		}
		for _, port := range ports {
			subsets = append(subsets, one([]api.EndpointsPort{port}))
		}
	}
	if len(subsets) == 0 {
		return nil, 0, 0
	}
	return RepackSubsets(subsets), readyN, notReadyN
}

func address(svc *api.Service, p *api.Pod) api.EndpointAddress {
	node := p.Spec.NodeName
	a := api.EndpointAddress{IP: p.Status.PodIP, NodeName: &node, TargetRef: &api.ObjectReference{Kind: api.KindPod, Namespace: p.Namespace, Name: p.Name, UID: p.UID}}
	if endpointutil.ShouldSetHostname(p, svc) {
		a.Hostname = p.Spec.Hostname
	}
	return a
}

// ports resolves each Service port against the pod (FindPort); a port
// the pod lacks is left out.
func ports(svc *api.Service, p *api.Pod) []api.EndpointsPort {
	var out []api.EndpointsPort
	for _, sp := range svc.Spec.Ports {
		n, ok := endpointutil.FindPort(p, &sp)
		if ok {
			out = append(out, api.EndpointsPort{Name: sp.Name, Port: n, Protocol: sp.Protocol, AppProtocol: sp.AppProtocol})
		}
	}
	return out
}

// endpointsLabels are the Service's labels, with the headless label when
// it has no cluster IP, and the controller's managed-by label.
func endpointsLabels(svc *api.Service) map[string]string {
	l := maps.Clone(svc.Labels)
	if l == nil {
		l = map[string]string{}
	}
	if svc.Headless() {
		l[api.LabelHeadless] = ""
	} else {
		delete(l, api.LabelHeadless)
	}
	l[LabelManagedBy] = EventSource
	return l
}

func count(ep *api.Endpoints) int {
	n := 0
	for _, s := range ep.Subsets {
		n += len(s.Addresses) + len(s.NotReadyAddresses)
	}
	return n
}

// overCapacity reports whether the stored object's truncation
// annotation disagrees with its size (capacityAnnotationSetCorrectly).
func overCapacity(ep *api.Endpoints) bool {
	_, annotated := ep.Annotations[api.AnnotationOverCapacity]
	return count(ep) > maxCapacity || annotated
}

// truncate is truncateEndpoints, for the simple case of one subset:
// ready addresses first, up to 1000, and the over-capacity annotation.
func truncate(ep *api.Endpoints) {
	if ep.Annotations != nil {
		ep.Annotations = maps.Clone(ep.Annotations)
		delete(ep.Annotations, api.AnnotationOverCapacity)
	}
	if count(ep) <= maxCapacity {
		return
	}
	left := maxCapacity
	for i := range ep.Subsets {
		s := &ep.Subsets[i]
		s.Addresses = s.Addresses[:min(len(s.Addresses), left)]
		left -= len(s.Addresses)
	}
	for i := range ep.Subsets {
		s := &ep.Subsets[i]
		s.NotReadyAddresses = s.NotReadyAddresses[:min(len(s.NotReadyAddresses), left)]
		left -= len(s.NotReadyAddresses)
	}
	if ep.Annotations == nil {
		ep.Annotations = map[string]string{}
	}
	ep.Annotations[api.AnnotationOverCapacity] = "truncated"
}
