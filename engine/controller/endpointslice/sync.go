package endpointslice

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/endpointutil"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// ErrStaleCache is the error of a sync whose cache of slices lags the
// controller's own writes (endpointslicepkg.NewStaleInformerCache).
var ErrStaleCache = errors.New("EndpointSlice informer cache is out of date")

// Reconcile is syncService (endpointslice_controller.go): it lists the
// Service's pods and slices from the cache and reconciles the slices.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	svc, ok := informer.Get[*api.Service](c.Informer, key)
	if !ok {
		tick.Explain("svc/%s: deleted; the garbage collector removes its EndpointSlices", key.Name)
		return reconcile.Result{}, nil
	}
	tick.Read(svc)
	if svc.Spec.Type == api.ServiceTypeExternalName || svc.Spec.Selector == nil {
		tick.Explain("svc/%s has no selector: its endpoints are managed by hand, not by this controller", svc.Name)
		return reconcile.Result{}, nil
	}
	pods := c.selectedPods(svc)
	existing := c.ownedSlices(svc)
	if c.tracker.stale(svc, existing) {
		tick.Explain("svc/%s: its cache of EndpointSlices has not seen this controller's last write yet; retries", svc.Name)
		return reconcile.Result{}, ErrStaleCache
	}
	c.tracker.forget(svc, existing)
	plan, skipErr := c.plan(svc, pods, existing)
	if err := c.apply(tick, svc, plan); err != nil {
		tick.Event(svc, "", "Warning", "FailedToUpdateEndpointSlices", fmt.Sprintf("Error updating Endpoint Slices for Service %s/%s: %v", svc.Namespace, svc.Name, err))
		return reconcile.Result{}, err
	}
	tick.Explain("svc/%s selects %d pods (%d ready)%s", svc.Name, len(pods), countReady(svc, pods), plan.describe())
	if skipErr != nil {
		tick.Event(svc, "", "Warning", "FailedToUpdateEndpointSlices", fmt.Sprintf("Error updating Endpoint Slices for Service %s/%s: %v", svc.Namespace, svc.Name, skipErr))
		return reconcile.Result{}, skipErr
	}
	return reconcile.Result{}, nil
}

// selectedPods lists the cached pods of the Service's namespace that its
// selector matches, by name.
func (c *Controller) selectedPods(svc *api.Service) []*api.Pod {
	var out []*api.Pod
	for _, o := range c.Informer.List(api.KindPod, svc.Namespace) {
		if p := o.(*api.Pod); endpointutil.Selects(svc, p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// ownedSlices lists the cached slices labelled as the Service's and
// managed by this controller.
func (c *Controller) ownedSlices(svc *api.Service) []*api.EndpointSlice {
	var out []*api.EndpointSlice
	for _, o := range c.Informer.List(api.KindEndpointSlice, svc.Namespace) {
		s := o.(*api.EndpointSlice)
		if k, ok := serviceOf(s); ok && k.Name == svc.Name {
			out = append(out, s)
		}
	}
	return out
}

func countReady(svc *api.Service, pods []*api.Pod) int {
	n := 0
	for _, p := range pods {
		if endpointutil.ShouldPodBeInEndpoints(p, true) && deref(podToEndpoint(p, nil, svc).Conditions.Ready) {
			n++
		}
	}
	return n
}

// apply writes the plan in finalize's order: creates, updates, deletes.
func (c *Controller) apply(tick reconcile.Tick, svc *api.Service, p plan) error {
	if svc.DeletionTimestamp == nil {
		for _, s := range p.create {
			out, err := tick.Create(trace.Aggregate, s, "endpointslice for svc/"+svc.Name+": "+summarize(s))
			if err != nil {
				return fmt.Errorf("failed to create EndpointSlice for Service %s/%s: %w", svc.Namespace, svc.Name, err)
			}
			c.tracker.update(out.(*api.EndpointSlice))
		}
	}
	for _, s := range p.update {
		out, err := tick.Update(trace.Aggregate, s, "endpointslice "+s.Name+": "+summarize(s))
		if err != nil {
			return fmt.Errorf("failed to update %s EndpointSlice for Service %s/%s: %w", s.Name, svc.Namespace, svc.Name, err)
		}
		c.tracker.update(out.(*api.EndpointSlice))
	}
	for _, s := range p.delete {
		err := tick.Delete(trace.Aggregate, api.KeyOf(s), apiserver.DeleteOptions{}, "endpointslice "+s.Name+" deleted: svc/"+svc.Name+" needs it no more")
		if err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return fmt.Errorf("failed to delete %s EndpointSlice for Service %s/%s: %w", s.Name, svc.Namespace, svc.Name, err)
		}
		c.tracker.expectDeletion(s)
	}
	return nil
}

// summarize says how many of a slice's endpoints are ready.
func summarize(s *api.EndpointSlice) string {
	if len(s.Endpoints) == 0 {
		return "no endpoints"
	}
	var notReady []string
	for _, e := range s.Endpoints {
		if !deref(e.Conditions.Ready) && e.TargetRef != nil {
			state := "not ready"
			if deref(e.Conditions.Terminating) {
				state = "terminating"
			}
			notReady = append(notReady, e.TargetRef.Name+" "+state)
		}
	}
	out := fmt.Sprintf("%d/%d endpoints ready", s.ReadyCount(), len(s.Endpoints))
	if len(notReady) > 0 && len(notReady) <= 3 {
		out += " (" + strings.Join(notReady, ", ") + ")"
	}
	return out
}

// sliceLabels is setEndpointSliceLabels: the Service's labels without
// the reserved ones, then the controller's.
func sliceLabels(svc *api.Service) map[string]string {
	l := maps.Clone(svc.Labels)
	if l == nil {
		l = map[string]string{}
	}
	delete(l, api.LabelHeadless)
	l[api.LabelServiceName] = svc.Name
	l[api.LabelManagedBy] = api.ManagedByEndpointSlice
	if svc.Headless() {
		l[api.LabelHeadless] = ""
	}
	return l
}

// newSlice is newEndpointSlice: generateName from the Service, owned by it.
func newSlice(svc *api.Service, ports []api.EndpointPort) *api.EndpointSlice {
	yes := true
	return &api.EndpointSlice{
		ObjectMeta: api.ObjectMeta{
			GenerateName: slicePrefix(svc.Name), Namespace: svc.Namespace, Labels: sliceLabels(svc),
			OwnerReferences: []api.OwnerReference{{APIVersion: "v1", Kind: api.KindService, Name: svc.Name, UID: svc.UID, Controller: &yes, BlockOwnerDeletion: &yes}},
		},
		AddressType: api.AddressTypeIPv4,
		Ports:       ports,
	}
}

// slicePrefix is getEndpointSlicePrefix: the Service's name and a dash,
// cut so a generated name stays a valid label.
func slicePrefix(name string) string {
	prefix := name + "-"
	if len(prefix) > 58 {
		prefix = prefix[:58]
	}
	return prefix
}

// portsOf returns the ports of a new slice (nil for none, as storage
// keeps an empty list).
func portsOf(ports []api.EndpointPort) []api.EndpointPort {
	if len(ports) == 0 {
		return nil
	}
	return slices.Clone(ports)
}
