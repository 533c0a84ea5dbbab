package kubectl

// This file prints Services, Endpoints and EndpointSlices: their get
// columns (pkg/printers/internalversion/printers.go printService,
// printEndpoints, printEndpointSlice) and describe (k8s.io/kubectl
// pkg/describe describeService, describeEndpoints,
// describeEndpointSliceV1).

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// serviceRow is printService.
func serviceRow(s *api.Service, name string, wide bool, now int64) []string {
	clusterIP := "<none>"
	if len(s.Spec.ClusterIPs) > 0 {
		clusterIP = s.Spec.ClusterIPs[0]
	}
	ports := orNone(servicePorts(s.Spec.Ports))
	r := []string{name, s.Spec.Type, clusterIP, serviceExternalIP(s, wide), ports, age(s.CreationTimestamp, now)}
	if wide {
		r = append(r, api.FormatLabels(s.Spec.Selector))
	}
	return r
}

// servicePorts is makePortString: "80/TCP", or "80:30080/TCP" with a
// node port, joined by ",".
func servicePorts(ports []api.ServicePort) string {
	pieces := make([]string, len(ports))
	for i, p := range ports {
		pieces[i] = fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		if p.NodePort > 0 {
			pieces[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		}
	}
	return strings.Join(pieces, ",")
}

// loadBalancerWidth is how much of the load balancer's addresses the
// EXTERNAL-IP column shows without -o wide.
const loadBalancerWidth = 16

// loadBalancerStatus is loadBalancerStatusStringer: the ingress IPs (or
// hostnames), sorted and unique, clipped unless wide.
func loadBalancerStatus(st api.LoadBalancerStatus, wide bool) string {
	seen := map[string]bool{}
	var list []string
	for _, in := range st.Ingress {
		v := in.IP
		if v == "" {
			v = in.Hostname
		}
		if v != "" && !seen[v] {
			seen[v] = true
			list = append(list, v)
		}
	}
	sort.Strings(list)
	r := strings.Join(list, ",")
	if !wide && len(r) > loadBalancerWidth {
		r = r[:loadBalancerWidth-3] + "..."
	}
	return r
}

// serviceExternalIP is getServiceExternalIP.
func serviceExternalIP(s *api.Service, wide bool) string {
	switch s.Spec.Type {
	case api.ServiceTypeClusterIP, api.ServiceTypeNodePort:
		if len(s.Spec.ExternalIPs) > 0 {
			return strings.Join(s.Spec.ExternalIPs, ",")
		}
		return "<none>"
	case api.ServiceTypeLoadBalancer:
		lb := loadBalancerStatus(s.Status.LoadBalancer, wide)
		if len(s.Spec.ExternalIPs) > 0 {
			var out []string
			if lb != "" {
				out = append(out, strings.Split(lb, ",")...)
			}
			return strings.Join(append(out, s.Spec.ExternalIPs...), ",")
		}
		if lb != "" {
			return lb
		}
		return "<pending>"
	case api.ServiceTypeExternalName:
		return s.Spec.ExternalName
	}
	return "<unknown>"
}

// moreThan3 is how many items the list columns show before " + N more...".
const moreThan3 = 3

// formatEndpoints is printers.go's formatEndpoints for every port: the
// ready addresses as ip:port for each port of their subset (the bare IP
// when the subset has no ports), at most three, then " + N more...";
// <none> without subsets, and an empty cell when no address is ready.
func formatEndpoints(ep *api.Endpoints) string {
	if len(ep.Subsets) == 0 {
		return "<none>"
	}
	var list []string
	more, count := false, 0
	for _, ss := range ep.Subsets {
		if len(ss.Ports) == 0 {
			count += len(ss.Addresses)
			for _, a := range ss.Addresses {
				if len(list) == moreThan3 {
					more = true
					break
				}
				list = append(list, a.IP)
			}
			continue
		}
		for _, port := range ss.Ports {
			count += len(ss.Addresses)
			for _, a := range ss.Addresses {
				if len(list) == moreThan3 {
					more = true
					break
				}
				list = append(list, joinHostPort(a.IP, strconv.Itoa(int(port.Port))))
			}
		}
	}
	ret := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", ret, count-moreThan3)
	}
	return ret
}

// formatDiscoveryPorts is the EndpointSlice PORTS column: each port's
// number (its name if it has none, else "*").
func formatDiscoveryPorts(ports []api.EndpointPort) string {
	var list []string
	more, count := false, 0
	for _, p := range ports {
		if len(list) < moreThan3 {
			n := "*"
			if p.Port != nil {
				n = strconv.Itoa(int(*p.Port))
			} else if p.Name != nil {
				n = *p.Name
			}
			list = append(list, n)
		} else if len(list) == moreThan3 {
			more = true
		}
		count++
	}
	return listWithMore(list, more, count)
}

// formatDiscoveryEndpoints is the EndpointSlice ENDPOINTS column: the
// addresses of every endpoint, ready or not.
func formatDiscoveryEndpoints(eps []api.Endpoint) string {
	var list []string
	more, count := false, 0
	for _, e := range eps {
		for _, a := range e.Addresses {
			if len(list) < moreThan3 {
				list = append(list, a)
			} else if len(list) == moreThan3 {
				more = true
			}
			count++
		}
	}
	return listWithMore(list, more, count)
}

// listWithMore is listWithMoreString: <unset> for an empty list.
func listWithMore(list []string, more bool, count int) string {
	ret := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", ret, count-moreThan3)
	}
	if ret == "" {
		return "<unset>"
	}
	return ret
}

// NoNetworkNote is what describe svc says of the data plane, of which
// the simulation has only the rules and synthetic requests.
const NoNetworkNote = "Stateflow simulates each node's kube-proxy rules and the scenario's synthetic traffic (spec.traffic), nothing else of the network: no DNS, no packets, no conntrack, no load balancer; a request fails only when no endpoint is listed or its pod is gone, not running or terminating"

// describeService is describeService: the Endpoints line of each port
// reads the Service's EndpointSlices (kubectl 1.31+), not v1 Endpoints.
func (s *Session) describeService(w *prefixWriter, svc *api.Service) {
	// Not kubectl's: where a user looks at a Service, say what the
	// simulation leaves out (stderr, so the description stays exact).
	s.warn(NoNetworkNote)
	sp := &svc.Spec
	w.line(0, "Name:\t%s", svc.Name)
	w.line(0, "Namespace:\t%s", svc.Namespace)
	mapLines(w, 0, "Labels", svc.Labels, "=")
	annotationLines(w, svc.Annotations)
	w.line(0, "Selector:\t%s", api.FormatLabels(sp.Selector))
	w.line(0, "Type:\t%s", sp.Type)
	if sp.IPFamilyPolicy != "" {
		w.line(0, "IP Family Policy:\t%s", sp.IPFamilyPolicy)
	}
	w.line(0, "IP Families:\t%s", orNone(strings.Join(sp.IPFamilies, ",")))
	w.line(0, "IP:\t%s", sp.ClusterIP)
	w.line(0, "IPs:\t%s", orNone(strings.Join(sp.ClusterIPs, ",")))
	if len(sp.ExternalIPs) > 0 {
		w.line(0, "External IPs:\t%s", strings.Join(sp.ExternalIPs, ","))
	}
	if sp.ExternalName != "" {
		w.line(0, "External Name:\t%s", sp.ExternalName)
	}
	if in := svc.Status.LoadBalancer.Ingress; len(in) > 0 {
		list := make([]string, len(in))
		for i, x := range in {
			list[i] = x.IP
			if x.IP == "" {
				list[i] = x.Hostname
			}
		}
		w.line(0, "LoadBalancer Ingress:\t%s", strings.Join(list, ", "))
	}
	slices := s.serviceSlices(svc)
	for _, p := range sp.Ports {
		name := p.Name
		if name == "" {
			name = "<unset>"
		}
		w.line(0, "Port:\t%s\t%d/%s", name, p.Port, p.Protocol)
		w.line(0, "TargetPort:\t%s/%s", p.TargetPort.String(), p.Protocol)
		if p.AppProtocol != "" {
			w.line(0, "AppProtocol:\t%s", p.AppProtocol)
		}
		if p.NodePort != 0 {
			w.line(0, "NodePort:\t%s\t%d/%s", name, p.NodePort, p.Protocol)
		}
		w.line(0, "Endpoints:\t%s", formatEndpointSlices(slices, p.Name))
	}
	w.line(0, "Session Affinity:\t%s", sp.SessionAffinity)
	if sp.ExternalTrafficPolicy != "" {
		w.line(0, "External Traffic Policy:\t%s", sp.ExternalTrafficPolicy)
	}
	if sp.InternalTrafficPolicy != "" {
		w.line(0, "Internal Traffic Policy:\t%s", sp.InternalTrafficPolicy)
	}
}

// serviceSlices are the EndpointSlices labelled with the Service's name,
// as the describer lists them.
func (s *Session) serviceSlices(svc *api.Service) []*api.EndpointSlice {
	var out []*api.EndpointSlice
	for _, o := range s.Cluster.Store().List(api.KindEndpointSlice, svc.Namespace) {
		if es := o.(*api.EndpointSlice); es.Labels[api.LabelServiceName] == svc.Name {
			out = append(out, es)
		}
	}
	return out
}

// formatEndpointSlices is describe.go's formatEndpointSlices for one
// port name: the ready endpoints' first addresses as ip:port (the bare
// address in a slice without ports), at most three, then " + N more...";
// <none> without slices. As upstream, "more" is decided before an
// endpoint's readiness is, so a fourth endpoint that is not ready still
// adds " + 0 more...".
func formatEndpointSlices(slices []*api.EndpointSlice, portName string) string {
	if len(slices) == 0 {
		return "<none>"
	}
	var list []string
	more, count := false, 0
	ready := func(e api.Endpoint) bool { return e.Conditions.Ready == nil || *e.Conditions.Ready }
	for _, es := range slices {
		if len(es.Ports) == 0 {
			for _, e := range es.Endpoints {
				if len(list) == moreThan3 {
					more = true
				}
				if !ready(e) || len(e.Addresses) == 0 {
					continue
				}
				if !more {
					list = append(list, e.Addresses[0])
				}
				count++
			}
			continue
		}
		for _, port := range es.Ports {
			if deref(port.Name) != portName {
				continue
			}
			for _, e := range es.Endpoints {
				if len(list) == moreThan3 {
					more = true
				}
				if !ready(e) || len(e.Addresses) == 0 {
					continue
				}
				if !more {
					list = append(list, joinHostPort(e.Addresses[0], strconv.Itoa(int(deref(port.Port)))))
				}
				count++
			}
		}
	}
	ret := strings.Join(list, ",")
	if more {
		return fmt.Sprintf("%s + %d more...", ret, count-moreThan3)
	}
	return ret
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// describeEndpoints is describeEndpoints: each subset's ready and not
// ready addresses and its ports, then an empty line.
func describeEndpoints(w *prefixWriter, ep *api.Endpoints) {
	w.line(0, "Name:\t%s", ep.Name)
	w.line(0, "Namespace:\t%s", ep.Namespace)
	mapLines(w, 0, "Labels", ep.Labels, "=")
	annotationLines(w, ep.Annotations)
	w.line(0, "Subsets:")
	ips := func(as []api.EndpointAddress) string {
		list := make([]string, len(as))
		for i, a := range as {
			list[i] = a.IP
		}
		return orNone(strings.Join(list, ","))
	}
	for _, ss := range ep.Subsets {
		w.line(1, "Addresses:\t%s", ips(ss.Addresses))
		w.line(1, "NotReadyAddresses:\t%s", ips(ss.NotReadyAddresses))
		if len(ss.Ports) > 0 {
			w.line(1, "Ports:")
			w.line(2, "Name\tPort\tProtocol")
			w.line(2, "----\t----\t--------")
			for _, p := range ss.Ports {
				name := p.Name
				if name == "" {
					name = "<unset>"
				}
				w.line(2, "%s\t%d\t%s", name, p.Port, p.Protocol)
			}
		}
		w.line(0, "")
	}
}

// describeEndpointSlice is describeEndpointSliceV1.
func describeEndpointSlice(w *prefixWriter, es *api.EndpointSlice) {
	w.line(0, "Name:\t%s", es.Name)
	w.line(0, "Namespace:\t%s", es.Namespace)
	mapLines(w, 0, "Labels", es.Labels, "=")
	annotationLines(w, es.Annotations)
	w.line(0, "AddressType:\t%s", es.AddressType)
	if len(es.Ports) == 0 {
		w.line(0, "Ports: <unset>")
	} else {
		w.line(0, "Ports:")
		w.line(1, "Name\tPort\tProtocol")
		w.line(1, "----\t----\t--------")
		for _, p := range es.Ports {
			name, num := "<unset>", "<unset>"
			if p.Name != nil && *p.Name != "" {
				name = *p.Name
			}
			if p.Port != nil {
				num = strconv.Itoa(int(*p.Port))
			}
			w.line(1, "%s\t%s\t%s", name, num, deref(p.Protocol))
		}
	}
	if len(es.Endpoints) == 0 {
		w.line(0, "Endpoints: <none>")
		return
	}
	w.line(0, "Endpoints:")
	unset := func(p *string) string {
		if p == nil {
			return "<unset>"
		}
		return *p
	}
	for _, e := range es.Endpoints {
		w.line(1, "- Addresses:\t%s", orNone(strings.Join(e.Addresses, ", ")))
		w.line(2, "Conditions:")
		readyText := "<unset>"
		if e.Conditions.Ready != nil {
			readyText = strconv.FormatBool(*e.Conditions.Ready)
		}
		w.line(3, "Ready:\t%s", readyText)
		w.line(2, "Hostname:\t%s", unset(e.Hostname))
		if e.TargetRef != nil {
			w.line(2, "TargetRef:\t%s/%s", e.TargetRef.Kind, e.TargetRef.Name)
		}
		w.line(2, "NodeName:\t%s", unset(e.NodeName))
		w.line(2, "Zone:\t%s", unset(e.Zone))
	}
}

// joinHostPort is net.JoinHostPort (a host with a colon, an IPv6
// address, goes in brackets), written here so the playground's wasm does
// not link package net for one string join.
func joinHostPort(host, port string) string {
	if strings.IndexByte(host, ':') >= 0 {
		return "[" + host + "]:" + port
	}
	return host + ":" + port
}
