package endpointutil

import (
	"cmp"
	"maps"

	"github.com/stateflow/stateflow/engine/api"
)

// ShouldPodBeInEndpoints is ShouldPodBeInEndpoints: not a finished pod,
// one with an IP, and a terminating one only if includeTerminating.
func ShouldPodBeInEndpoints(p *api.Pod, includeTerminating bool) bool {
	if p.Status.Phase == api.PodSucceeded || p.Status.Phase == api.PodFailed || p.Status.PodIP == "" {
		return false
	}
	return includeTerminating || p.DeletionTimestamp == nil
}

// PodEndpointsChanged is podEndpointsChanged with updatePod's label
// check: only these changes of a pod can change an endpoint.
func PodEndpointsChanged(old, cur *api.Pod) bool {
	return (old.DeletionTimestamp == nil) != (cur.DeletionTimestamp == nil) ||
		api.IsPodReady(old) != api.IsPodReady(cur) ||
		old.Status.PodIP != cur.Status.PodIP ||
		old.Spec.NodeName != cur.Spec.NodeName ||
		old.Spec.Hostname != cur.Spec.Hostname || old.Spec.Subdomain != cur.Spec.Subdomain ||
		!maps.Equal(old.Labels, cur.Labels)
}

// Selects reports whether the Service's selector matches the labels.
// A Service without a selector selects nothing.
func Selects(svc *api.Service, labels map[string]string) bool {
	if svc.Spec.Selector == nil {
		return false
	}
	for k, v := range svc.Spec.Selector {
		if w, ok := labels[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// ServicesToUpdate is GetServicesToUpdateOnPodChange: the Services that
// select the pod now or selected it before, none when the change cannot
// matter (old is nil for an added or deleted pod).
func ServicesToUpdate(services []api.Object, old, cur *api.Pod) []*api.Service {
	if old != nil && !PodEndpointsChanged(old, cur) {
		return nil
	}
	var out []*api.Service
	for _, o := range services {
		svc := o.(*api.Service)
		if Selects(svc, cur.Labels) || old != nil && Selects(svc, old.Labels) {
			out = append(out, svc)
		}
	}
	return out
}

// FindPort is podutil.FindPort: a number as is; a name looked up among
// the containers' ports with the same protocol.
func FindPort(p *api.Pod, sp *api.ServicePort) (int32, bool) {
	if !sp.TargetPort.IsString {
		return sp.TargetPort.IntVal, true
	}
	for _, c := range p.Spec.Containers {
		for _, cp := range c.Ports {
			if cp.Name == sp.TargetPort.StrVal && cmp.Or(cp.Protocol, "TCP") == sp.Protocol {
				return cp.ContainerPort, true
			}
		}
	}
	return 0, false
}

// ShouldSetHostname is ShouldSetHostname: the pod's hostname is its
// endpoint's when its subdomain names the Service.
func ShouldSetHostname(p *api.Pod, svc *api.Service) bool {
	return p.Spec.Hostname != "" && p.Spec.Subdomain == svc.Name && p.Namespace == svc.Namespace
}
