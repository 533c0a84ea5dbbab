package kubectl

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// The get columns of Services follow printService, makePortString and
// getServiceExternalIP cell by cell.
func TestServiceRow(t *testing.T) {
	port := func(p int32, proto string, node int32) api.ServicePort {
		return api.ServicePort{Port: p, Protocol: proto, NodePort: node}
	}
	for _, tc := range []struct {
		name string
		spec api.ServiceSpec
		lb   []api.LoadBalancerIngress
		wide bool
		want string // TYPE | CLUSTER-IP | EXTERNAL-IP | PORT(S) [| SELECTOR]
	}{
		{"cluster-ip", api.ServiceSpec{Type: "ClusterIP", ClusterIP: "10.96.0.10", ClusterIPs: []string{"10.96.0.10"}, Ports: []api.ServicePort{port(80, "TCP", 0)}, Selector: map[string]string{"app": "web"}}, nil, true,
			"ClusterIP|10.96.0.10|<none>|80/TCP|app=web"},
		{"no selector", api.ServiceSpec{Type: "ClusterIP", ClusterIPs: []string{"10.96.0.11"}, Ports: []api.ServicePort{port(53, "UDP", 0), port(53, "TCP", 0)}}, nil, true,
			"ClusterIP|10.96.0.11|<none>|53/UDP,53/TCP|<none>"},
		{"headless", api.ServiceSpec{Type: "ClusterIP", ClusterIP: "None", ClusterIPs: []string{"None"}, Ports: []api.ServicePort{port(80, "TCP", 0)}}, nil, false,
			"ClusterIP|None|<none>|80/TCP"},
		{"headless without ports", api.ServiceSpec{Type: "ClusterIP", ClusterIP: "None", ClusterIPs: []string{"None"}}, nil, false,
			"ClusterIP|None|<none>|<none>"},
		{"external IPs", api.ServiceSpec{Type: "ClusterIP", ClusterIPs: []string{"10.96.0.12"}, ExternalIPs: []string{"192.0.2.1", "192.0.2.2"}, Ports: []api.ServicePort{port(80, "TCP", 0)}}, nil, false,
			"ClusterIP|10.96.0.12|192.0.2.1,192.0.2.2|80/TCP"},
		{"node port", api.ServiceSpec{Type: "NodePort", ClusterIPs: []string{"10.96.0.13"}, Ports: []api.ServicePort{port(80, "TCP", 30080), port(443, "TCP", 30443)}}, nil, false,
			"NodePort|10.96.0.13|<none>|80:30080/TCP,443:30443/TCP"},
		{"pending load balancer", api.ServiceSpec{Type: "LoadBalancer", ClusterIPs: []string{"10.96.0.14"}, Ports: []api.ServicePort{port(443, "TCP", 31000)}}, nil, false,
			"LoadBalancer|10.96.0.14|<pending>|443:31000/TCP"},
		{"load balancer ingress, sorted, clipped", api.ServiceSpec{Type: "LoadBalancer", ClusterIPs: []string{"10.96.0.15"}, Ports: []api.ServicePort{port(80, "TCP", 31001)}},
			[]api.LoadBalancerIngress{{IP: "203.0.113.9"}, {Hostname: "lb.example.com"}, {IP: "203.0.113.9"}}, false,
			"LoadBalancer|10.96.0.15|203.0.113.9,l...|80:31001/TCP"},
		{"load balancer ingress, wide", api.ServiceSpec{Type: "LoadBalancer", ClusterIPs: []string{"10.96.0.15"}, Ports: []api.ServicePort{port(80, "TCP", 31001)}},
			[]api.LoadBalancerIngress{{IP: "203.0.113.9"}, {Hostname: "lb.example.com"}}, true,
			"LoadBalancer|10.96.0.15|203.0.113.9,lb.example.com|80:31001/TCP|<none>"},
		{"load balancer with external IPs", api.ServiceSpec{Type: "LoadBalancer", ClusterIPs: []string{"10.96.0.16"}, ExternalIPs: []string{"192.0.2.3"}, Ports: []api.ServicePort{port(80, "TCP", 31002)}},
			[]api.LoadBalancerIngress{{IP: "203.0.113.10"}}, false,
			"LoadBalancer|10.96.0.16|203.0.113.10,192.0.2.3|80:31002/TCP"},
		{"external name", api.ServiceSpec{Type: "ExternalName", ExternalName: "db.example.com"}, nil, false,
			"ExternalName|<none>|db.example.com|<none>"},
	} {
		svc := &api.Service{ObjectMeta: api.ObjectMeta{Name: "s", CreationTimestamp: api.At(0)}, Spec: tc.spec}
		svc.Status.LoadBalancer.Ingress = tc.lb
		cells := serviceRow(svc, "s", tc.wide, 90_000)
		if cells[0] != "s" || cells[5] != "90s" {
			t.Errorf("%s: NAME and AGE are %q, %q", tc.name, cells[0], cells[5])
		}
		got := strings.Join(append(cells[1:5:5], cells[6:]...), "|")
		if got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
	}
	if h := strings.Join(columns(api.KindService, true), "|"); h != "NAME|TYPE|CLUSTER-IP|EXTERNAL-IP|PORT(S)|AGE|SELECTOR" {
		t.Errorf("wide header %s", h)
	}
}

func addrs(ips ...string) []api.EndpointAddress {
	out := make([]api.EndpointAddress, len(ips))
	for i, ip := range ips {
		out[i] = api.EndpointAddress{IP: ip}
	}
	return out
}

// formatEndpoints: only ready addresses, ip:port per port of the
// subset, three at most and then how many more.
func TestFormatEndpoints(t *testing.T) {
	http := []api.EndpointsPort{{Name: "http", Port: 8080, Protocol: "TCP"}}
	two := []api.EndpointsPort{{Name: "a", Port: 80}, {Name: "b", Port: 443}}
	for _, tc := range []struct {
		name    string
		subsets []api.EndpointSubset
		want    string
	}{
		{"no subsets", nil, "<none>"},
		{"ready and not ready", []api.EndpointSubset{{Addresses: addrs("10.244.0.4", "10.244.1.3"), NotReadyAddresses: addrs("10.244.0.5"), Ports: http}}, "10.244.0.4:8080,10.244.1.3:8080"},
		{"only not ready: an empty cell", []api.EndpointSubset{{NotReadyAddresses: addrs("10.244.0.5"), Ports: http}}, ""},
		{"exactly three", []api.EndpointSubset{{Addresses: addrs("10.0.0.1", "10.0.0.2", "10.0.0.3"), Ports: http}}, "10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:8080"},
		{"four", []api.EndpointSubset{{Addresses: addrs("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"), Ports: http}}, "10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:8080 + 1 more..."},
		{"port by port", []api.EndpointSubset{{Addresses: addrs("10.0.0.1", "10.0.0.2"), Ports: two}}, "10.0.0.1:80,10.0.0.2:80,10.0.0.1:443 + 1 more..."},
		{"no ports: bare IPs", []api.EndpointSubset{{Addresses: addrs("10.0.0.1", "10.0.0.2")}}, "10.0.0.1,10.0.0.2"},
		{"several subsets", []api.EndpointSubset{{Addresses: addrs("10.0.0.1", "10.0.0.2"), Ports: http}, {Addresses: addrs("10.0.0.3", "10.0.0.4", "10.0.0.5"), Ports: two}},
			"10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:80 + 5 more..."},
		{"IPv6", []api.EndpointSubset{{Addresses: addrs("fd00::1"), Ports: http}}, "[fd00::1]:8080"},
	} {
		if got := formatEndpoints(&api.Endpoints{Subsets: tc.subsets}); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func endpoint(ready *bool, ips ...string) api.Endpoint {
	return api.Endpoint{Addresses: ips, Conditions: api.EndpointConditions{Ready: ready}}
}

// The EndpointSlice PORTS and ENDPOINTS columns list every port and
// every endpoint's addresses, ready or not, <unset> when there are none.
func TestFormatDiscovery(t *testing.T) {
	ports := func(ps ...api.EndpointPort) []api.EndpointPort { return ps }
	num := func(n int32) api.EndpointPort { return api.EndpointPort{Name: ptr(""), Port: ptr(n)} }
	for _, tc := range []struct {
		got, want string
	}{
		{formatDiscoveryPorts(nil), "<unset>"},
		{formatDiscoveryPorts(ports(num(8080))), "8080"},
		{formatDiscoveryPorts(ports(num(1), num(2), num(3))), "1,2,3"},
		{formatDiscoveryPorts(ports(num(1), num(2), num(3), num(4), num(5))), "1,2,3 + 2 more..."},
		{formatDiscoveryPorts(ports(api.EndpointPort{Name: ptr("http")}, api.EndpointPort{})), "http,*"},
		{formatDiscoveryEndpoints(nil), "<unset>"},
		{formatDiscoveryEndpoints([]api.Endpoint{endpoint(ptr(true), "10.0.0.1"), endpoint(ptr(false), "10.0.0.2"), endpoint(nil, "10.0.0.3")}), "10.0.0.1,10.0.0.2,10.0.0.3"},
		{formatDiscoveryEndpoints([]api.Endpoint{endpoint(ptr(true), "10.0.0.1", "10.0.0.2"), endpoint(ptr(false), "10.0.0.3", "10.0.0.4")}), "10.0.0.1,10.0.0.2,10.0.0.3 + 1 more..."},
		{formatDiscoveryEndpoints([]api.Endpoint{{}}), "<unset>"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	es := &api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "web-abcde", CreationTimestamp: api.At(0)}, AddressType: "IPv4",
		Ports: ports(num(8080)), Endpoints: []api.Endpoint{endpoint(ptr(true), "10.0.0.1"), endpoint(ptr(false), "10.0.0.2")}}
	if got := strings.Join(row(es, es.Name, false, 5_000), "|"); got != "web-abcde|IPv4|8080|10.0.0.1,10.0.0.2|5s" {
		t.Errorf("slice row %s", got)
	}
}

// describe service's Endpoints line reads the EndpointSlices: ready (or
// unknown) endpoints of the port's name, as upstream's
// formatEndpointSlices, which decides "more" before readiness.
func TestFormatEndpointSlices(t *testing.T) {
	named := func(name string, port int32) api.EndpointPort {
		return api.EndpointPort{Name: ptr(name), Port: ptr(port)}
	}
	slice := func(ps []api.EndpointPort, eps ...api.Endpoint) *api.EndpointSlice {
		return &api.EndpointSlice{Ports: ps, Endpoints: eps}
	}
	http := []api.EndpointPort{named("http", 8080)}
	yes, no := ptr(true), ptr(false)
	for _, tc := range []struct {
		name   string
		slices []*api.EndpointSlice
		port   string
		want   string
	}{
		{"no slices", nil, "http", "<none>"},
		{"empty slice", []*api.EndpointSlice{slice(nil)}, "http", ""},
		{"ready only", []*api.EndpointSlice{slice(http, endpoint(yes, "10.0.0.1"), endpoint(no, "10.0.0.2"), endpoint(nil, "10.0.0.3"))}, "http", "10.0.0.1:8080,10.0.0.3:8080"},
		{"none ready", []*api.EndpointSlice{slice(http, endpoint(no, "10.0.0.2"))}, "http", ""},
		{"another port's name", []*api.EndpointSlice{slice(http, endpoint(yes, "10.0.0.1"))}, "metrics", ""},
		{"unnamed port", []*api.EndpointSlice{slice([]api.EndpointPort{named("", 80)}, endpoint(yes, "10.0.0.1"))}, "", "10.0.0.1:80"},
		{"four ready", []*api.EndpointSlice{slice(http, endpoint(yes, "10.0.0.1"), endpoint(yes, "10.0.0.2"), endpoint(yes, "10.0.0.3"), endpoint(yes, "10.0.0.4"))}, "http",
			"10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:8080 + 1 more..."},
		{"a fourth not ready still says more", []*api.EndpointSlice{slice(http, endpoint(yes, "10.0.0.1"), endpoint(yes, "10.0.0.2"), endpoint(yes, "10.0.0.3"), endpoint(no, "10.0.0.4"))}, "http",
			"10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:8080 + 0 more..."},
		{"across slices", []*api.EndpointSlice{slice(http, endpoint(yes, "10.0.0.1"), endpoint(yes, "10.0.0.2")), slice(http, endpoint(yes, "10.0.0.3"), endpoint(yes, "10.0.0.4"), endpoint(yes, "10.0.0.5"))}, "http",
			"10.0.0.1:8080,10.0.0.2:8080,10.0.0.3:8080 + 2 more..."},
		{"headless without ports: first address", []*api.EndpointSlice{slice(nil, endpoint(yes, "10.0.0.1", "10.0.0.9"), endpoint(no, "10.0.0.2"))}, "", "10.0.0.1"},
	} {
		if got := formatEndpointSlices(tc.slices, tc.port); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// printAnnotationsMultiline: last-applied-configuration is skipped, a
// long value goes on its own indented line.
func TestAnnotationLines(t *testing.T) {
	w := newPrefixWriter()
	w.line(0, "Name:\tx")
	annotationLines(w, map[string]string{lastAppliedAnnotation: `{"a":1}`, "b": "two", "a": strings.Repeat("x", 150), "c": "l1\nl2\n"})
	want := "Name:         x\n" +
		"Annotations:  a:\n" +
		"                " + strings.Repeat("x", 138) + "...\n" +
		"              b: two\n" +
		"              c:\n" +
		"                l1\n" +
		"                l2\n"
	if got := w.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	w = newPrefixWriter()
	annotationLines(w, map[string]string{lastAppliedAnnotation: "{}"})
	if got := w.String(); got != "Annotations:  <none>\n" {
		t.Errorf("only last-applied: %q", got)
	}
}
