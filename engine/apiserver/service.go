package apiserver

// This file is the Service REST strategy: defaults, validation, and the
// allocation of cluster IPs and node ports the API server does on create
// (pkg/registry/core/service/storage/alloc.go).

import (
	"fmt"
	"net/netip"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// The service-cluster-ip-range and service-node-port-range flags'
// defaults (kube-apiserver, and kubeadm's 10.96.0.0/12).
const (
	ServiceCIDR      = "10.96.0.0/12"
	NodePortRangeMin = 30000
	NodePortRangeMax = 32767
)

// serviceCIDR is ServiceCIDR parsed: the first address and the size.
var serviceCIDR = netip.MustParsePrefix(ServiceCIDR)

// clusterIPOffset is the size of the range's lower band, kept for
// addresses users choose: calculateRangeOffset of the IP allocator
// (pkg/registry/core/service/ipallocator/bitmap.go) is min(max(16,
// size/16), 256), 256 for a /12. Dynamic allocation picks at random from
// the upper band.
const clusterIPOffset = 256

// nodePortOffset is the node-port allocator's lower band
// (portallocator/allocator.go calculateRangeOffset: min(max(16,
// size/32), 128)), 86 for 30000–32767.
const nodePortOffset = 86

// defaultService is SetDefaults_Service and SetDefaults_ServicePort
// (pkg/apis/core/v1/defaults.go) with the IP-family defaults the
// registry applies. An empty selector is dropped, as a round trip
// through storage drops it: such a Service selects nothing.
func defaultService(s *api.Service) {
	sp := &s.Spec
	if sp.Type == "" {
		sp.Type = api.ServiceTypeClusterIP
	}
	if sp.SessionAffinity == "" {
		sp.SessionAffinity = "None"
	}
	if len(sp.Selector) == 0 {
		sp.Selector = nil
	}
	for i := range sp.Ports {
		p := &sp.Ports[i]
		if p.Protocol == "" {
			p.Protocol = "TCP"
		}
		if p.TargetPort == (api.IntOrString{}) {
			p.TargetPort = api.FromInt(p.Port)
		}
	}
	if sp.Type == api.ServiceTypeExternalName {
		return
	}
	if sp.InternalTrafficPolicy == "" {
		sp.InternalTrafficPolicy = "Cluster"
	}
	if (sp.Type == api.ServiceTypeNodePort || sp.Type == api.ServiceTypeLoadBalancer) && sp.ExternalTrafficPolicy == "" {
		sp.ExternalTrafficPolicy = "Cluster"
	}
	if len(sp.IPFamilies) == 0 {
		sp.IPFamilies = []string{"IPv4"}
	}
	if sp.IPFamilyPolicy == "" {
		sp.IPFamilyPolicy = "SingleStack"
	}
	if sp.ClusterIP != "" && len(sp.ClusterIPs) == 0 {
		sp.ClusterIPs = []string{sp.ClusterIP}
	}
}

// usesNodePorts reports whether the Service's ports get node ports.
func usesNodePorts(s *api.Service) bool {
	return s.Spec.Type == api.ServiceTypeNodePort || s.Spec.Type == api.ServiceTypeLoadBalancer
}

// allocateService gives a new Service its cluster IP and node ports: the
// ones asked for if free and in range, else random ones from the upper
// band of each range, drawn from the store's seeded source.
func (s *Store) allocateService(svc *api.Service) error {
	if svc.Spec.Type == api.ServiceTypeExternalName {
		return nil
	}
	usedIPs, usedPorts := s.allocated()
	if err := s.allocateClusterIP(svc, usedIPs); err != nil {
		return err
	}
	if !usesNodePorts(svc) {
		return nil
	}
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		path := fmt.Sprintf("spec.ports[%d].nodePort", i)
		switch {
		case p.NodePort == 0:
			p.NodePort = s.pick(NodePortRangeMin+nodePortOffset, NodePortRangeMax, func(n int) bool { return usedPorts[int32(n)] }, NodePortRangeMin)
			if p.NodePort == 0 {
				return s.invalidService(svc, path, int64(0), "range is full")
			}
		case p.NodePort < NodePortRangeMin || p.NodePort > NodePortRangeMax:
			return s.invalidService(svc, path, int64(p.NodePort), fmt.Sprintf("provided port is not in the valid range. The range of valid ports is %d-%d", NodePortRangeMin, NodePortRangeMax))
		case usedPorts[p.NodePort]:
			return s.invalidService(svc, path, int64(p.NodePort), "provided port is already allocated")
		}
		usedPorts[p.NodePort] = true
	}
	return nil
}

func (s *Store) allocateClusterIP(svc *api.Service, used map[netip.Addr]bool) error {
	sp := &svc.Spec
	switch sp.ClusterIP {
	case api.ClusterIPNone:
		sp.ClusterIPs = []string{api.ClusterIPNone}
		return nil
	case "":
		base := serviceCIDR.Addr().As4()
		first := uint32(base[0])<<24 | uint32(base[1])<<16 | uint32(base[2])<<8 | uint32(base[3])
		size := 1 << (32 - serviceCIDR.Bits())
		// Offsets 1 … size-2: not the network or the broadcast address.
		off := s.pick(clusterIPOffset, size-2, func(n int) bool { return used[addrAt(first, n)] }, 1)
		if off == 0 {
			return s.invalidService(svc, "spec.clusterIPs", sp.ClusterIPs, "failed to allocate a serviceIP: range is full")
		}
		sp.ClusterIP = addrAt(first, int(off)).String()
		sp.ClusterIPs = []string{sp.ClusterIP}
		return nil
	}
	ip, err := netip.ParseAddr(sp.ClusterIP)
	switch {
	case err != nil:
		return nil // validation reports it
	case !serviceCIDR.Contains(ip):
		return s.invalidService(svc, "spec.clusterIPs", sp.ClusterIPs, fmt.Sprintf("failed to allocate IP %s: the provided IP (%s) is not in the valid range. The range of valid IPs is %s", ip, ip, ServiceCIDR))
	case used[ip]:
		return s.invalidService(svc, "spec.clusterIPs", sp.ClusterIPs, fmt.Sprintf("failed to allocate IP %s: provided IP is already allocated", ip))
	}
	return nil
}

func addrAt(first uint32, off int) netip.Addr {
	v := first + uint32(off)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)})
}

// pick returns a free value in [lo, hi], starting at a random one and
// scanning up (wrapping), then in [low, lo) if the upper band is full; 0
// if none is free. randomScanStrategyWithOffset of the allocators.
func (s *Store) pick(lo, hi int, taken func(int) bool, low int) int32 {
	n := hi - lo + 1
	start := s.rng.IntN(n)
	for i := range n {
		if v := lo + (start+i)%n; !taken(v) {
			return int32(v)
		}
	}
	for v := low; v < lo; v++ {
		if !taken(v) {
			return int32(v)
		}
	}
	return 0
}

// allocated lists the cluster IPs and node ports Services hold.
func (s *Store) allocated() (map[netip.Addr]bool, map[int32]bool) {
	ips, ports := map[netip.Addr]bool{}, map[int32]bool{}
	s.cur.Ascend(api.KindService, "", func(o api.Object) bool {
		svc := o.(*api.Service)
		if ip, err := netip.ParseAddr(svc.Spec.ClusterIP); err == nil {
			ips[ip] = true
		}
		for _, p := range svc.Spec.Ports {
			if p.NodePort != 0 {
				ports[p.NodePort] = true
			}
		}
		return true
	})
	return ips, ports
}

func (s *Store) invalidService(svc *api.Service, path string, value any, detail string) error {
	return &InvalidError{Kind: api.KindService, Name: svc.Name, Fields: []FieldError{{Path: path, Detail: "Invalid value: " + formatValue(value) + ": " + detail}}}
}

// keepServiceAllocations carries the cluster IP and node ports of the
// stored Service into an update that leaves them unset, as kubectl
// apply's merge does, and refuses to change the cluster IP
// (ValidateServiceUpdate).
func keepServiceAllocations(svc, old *api.Service) error {
	if svc.Spec.ClusterIP == "" {
		svc.Spec.ClusterIP = old.Spec.ClusterIP
		svc.Spec.ClusterIPs = slices.Clone(old.Spec.ClusterIPs)
	}
	if svc.Spec.ClusterIP != old.Spec.ClusterIP && old.Spec.Type != api.ServiceTypeExternalName {
		return &InvalidError{Kind: api.KindService, Name: svc.Name, Fields: []FieldError{{Path: "spec.clusterIPs[0]", Detail: "Invalid value: " + formatValue(svc.Spec.ClusterIP) + ": may not change once set"}}}
	}
	if !usesNodePorts(svc) {
		return nil
	}
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		if p.NodePort != 0 {
			continue
		}
		for _, q := range old.Spec.Ports {
			if q.Port == p.Port && q.Protocol == p.Protocol {
				p.NodePort = q.NodePort
			}
		}
	}
	return nil
}

// validateService is ValidateService (pkg/apis/core/validation), for the
// fields the simulation keeps.
func validateService(e *errs, s *api.Service) {
	sp := &s.Spec
	switch sp.Type {
	case api.ServiceTypeClusterIP, api.ServiceTypeNodePort, api.ServiceTypeLoadBalancer, api.ServiceTypeExternalName:
	default:
		e.add("spec.type", "Unsupported value: %q: supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"", sp.Type)
	}
	if sp.Type == api.ServiceTypeExternalName {
		if sp.ExternalName == "" {
			e.required("spec.externalName")
		}
	} else if len(sp.Ports) == 0 && sp.ClusterIP != api.ClusterIPNone {
		e.required("spec.ports")
	}
	if ip := sp.ClusterIP; ip != "" && ip != api.ClusterIPNone {
		if _, err := netip.ParseAddr(ip); err != nil {
			e.invalid("spec.clusterIPs[0]", ip, "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)")
		}
	}
	if sp.ClusterIP == api.ClusterIPNone && sp.Type != api.ServiceTypeClusterIP {
		e.invalid("spec.clusterIPs[0]", api.ClusterIPNone, "may not be set to 'None' for "+sp.Type+" services")
	}
	names := map[string]bool{}
	for i, p := range sp.Ports {
		path := fmt.Sprintf("spec.ports[%d]", i)
		validateServicePort(e, path, &p, len(sp.Ports) > 1, names)
		if p.NodePort != 0 && !usesNodePorts(s) {
			e.add(path+".nodePort", "Forbidden: may not be used when `type` is '%s'", sp.Type)
		}
	}
	validateLabels(e, "spec.selector", sp.Selector)
}

func validateServicePort(e *errs, path string, p *api.ServicePort, named bool, names map[string]bool) {
	switch {
	case named && p.Name == "":
		e.required(path + ".name")
	case p.Name != "" && names[p.Name]:
		e.add(path+".name", "Duplicate value: %q", p.Name)
	case p.Name != "" && !isDNS1123Label(p.Name):
		e.invalid(path+".name", p.Name, dns1123LabelMsg)
	}
	names[p.Name] = true
	for _, msg := range isValidPortNum(int(p.Port)) {
		e.invalid(path+".port", int64(p.Port), msg)
	}
	switch p.Protocol {
	case "TCP", "UDP", "SCTP":
	default:
		e.add(path+".protocol", "Unsupported value: %q: supported values: \"SCTP\", \"TCP\", \"UDP\"", p.Protocol)
	}
	if p.TargetPort.IsString {
		for _, msg := range isValidPortName(p.TargetPort.StrVal) {
			e.invalid(path+".targetPort", p.TargetPort.StrVal, msg)
		}
	} else {
		for _, msg := range isValidPortNum(int(p.TargetPort.IntVal)) {
			e.invalid(path+".targetPort", int64(p.TargetPort.IntVal), msg)
		}
	}
}

// isValidPortName is validation.IsValidPortName (an IANA service name).
func isValidPortName(port string) []string {
	var out []string
	if len(port) > 15 {
		out = append(out, "must be no more than 15 characters")
	}
	letter, hyphens := false, false
	for i := 0; i < len(port); i++ {
		c := port[i]
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9':
		case c == '-':
			hyphens = hyphens || i > 0 && port[i-1] == '-'
		default:
			return append(out, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)")
		}
	}
	if !letter {
		out = append(out, "must contain at least one letter (a-z)")
	}
	if hyphens {
		out = append(out, "must not contain consecutive hyphens (-)")
	}
	if len(port) > 0 && (port[0] == '-' || port[len(port)-1] == '-') {
		out = append(out, "must not begin or end with a hyphen (-)")
	}
	return out
}

// serviceStrategy is pkg/registry/core/service/strategy.go, with the
// cluster IP and node port allocation of its storage (allocate).
var serviceStrategy = strategy{
	defaults: func(obj api.Object) { defaultService(obj.(*api.Service)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateService(e, obj.(*api.Service)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.Service)
		defaultService(o)
		o.Status = api.ServiceStatus{}
	},
	allocate: func(s *Store, obj api.Object) error { return s.allocateService(obj.(*api.Service)) },
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.Service), old.(*api.Service)
		defaultService(o)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		return keepServiceAllocations(o, prev)
	},
}
