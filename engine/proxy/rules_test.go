package proxy

import (
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func ep(ip, node string, ready, serving, terminating bool) Endpoint {
	return Endpoint{IP: ip, Port: 8080, Node: node, Ready: ready, Serving: serving, Terminating: terminating, key: ip + ":8080"}
}

// TestCategorize is CategorizeEndpoints' table (pkg/proxy/topology_test.go
// without hints): ready endpoints win; with none ready, serving
// terminating ones are used; Local narrows to the node first.
func TestCategorize(t *testing.T) {
	a := ep("10.0.0.1", "n1", true, true, false)
	b := ep("10.0.0.2", "n2", true, true, false)
	termServing := ep("10.0.0.3", "n1", false, true, true)
	termDown := ep("10.0.0.4", "n2", false, false, true)
	notReady := ep("10.0.0.5", "n2", false, false, false)
	for _, tc := range []struct {
		name  string
		all   []Endpoint
		local bool
		node  string
		want  []string
	}{
		{"ready only", []Endpoint{b, a, notReady}, false, "n1", []string{"10.0.0.1:8080", "10.0.0.2:8080"}},
		{"ready hides terminating", []Endpoint{a, termServing}, false, "n1", []string{"10.0.0.1:8080"}},
		{"none ready: serving terminating", []Endpoint{termServing, termDown, notReady}, false, "n1", []string{"10.0.0.3:8080"}},
		{"none usable", []Endpoint{termDown, notReady}, false, "n1", nil},
		{"local: this node's ready", []Endpoint{a, b}, true, "n2", []string{"10.0.0.2:8080"}},
		{"local: none here", []Endpoint{a}, true, "n2", nil},
		{"local: terminating here", []Endpoint{b, termServing}, true, "n1", []string{"10.0.0.3:8080"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, e := range categorize(tc.all, tc.local, tc.node) {
				got = append(got, e.String())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// TestEndpointsFor merges a Service port's slices: the slice port of the
// same name and protocol, each address once, nil conditions read as
// ready and serving.
func TestEndpointsFor(t *testing.T) {
	str := func(s string) *string { return &s }
	port := func(name string, p int32) api.EndpointPort {
		return api.EndpointPort{Name: str(name), Protocol: str("TCP"), Port: &p}
	}
	f := false
	s1 := &api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "web-b"}, AddressType: api.AddressTypeIPv4,
		Ports: []api.EndpointPort{port("http", 8080), port("metrics", 9090)},
		Endpoints: []api.Endpoint{{Addresses: []string{"10.0.0.1"}, TargetRef: &api.ObjectReference{Namespace: "default", Name: "web-1"}, NodeName: str("n1")},
			{Addresses: []string{"10.0.0.2"}, Conditions: api.EndpointConditions{Ready: &f}}}}
	s2 := &api.EndpointSlice{ObjectMeta: api.ObjectMeta{Name: "web-a"}, AddressType: api.AddressTypeIPv4,
		Ports: []api.EndpointPort{port("http", 8080)}, Endpoints: []api.Endpoint{{Addresses: []string{"10.0.0.1"}}}}
	got := endpointsFor([]*api.EndpointSlice{s1, s2}, api.ServicePort{Name: "http", Port: 80})
	if len(got) != 2 || got[0].String() != "10.0.0.1:8080" || got[1].String() != "10.0.0.2:8080" {
		t.Fatalf("http endpoints = %+v", got)
	}
	if !got[0].Ready || !got[0].Serving || got[0].Terminating || got[1].Ready || !got[1].Serving {
		t.Errorf("conditions = %+v", got)
	}
	if m := endpointsFor([]*api.EndpointSlice{s1, s2}, api.ServicePort{Name: "metrics", Port: 9090}); len(m) != 2 || m[0].Port != 9090 {
		t.Errorf("metrics endpoints = %+v", m)
	}
	if u := endpointsFor([]*api.EndpointSlice{s1}, api.ServicePort{Name: "http", Protocol: "UDP"}); len(u) != 0 {
		t.Errorf("a UDP port matched TCP slice ports: %+v", u)
	}
}

func TestShouldSkipService(t *testing.T) {
	for _, tc := range []struct {
		spec api.ServiceSpec
		skip bool
	}{
		{api.ServiceSpec{ClusterIP: "10.96.0.10", Type: "ClusterIP"}, false},
		{api.ServiceSpec{ClusterIP: "10.96.0.11", Type: "NodePort"}, false},
		{api.ServiceSpec{ClusterIP: "None", Type: "ClusterIP"}, true},
		{api.ServiceSpec{Type: "ExternalName", ExternalName: "example.com"}, true},
	} {
		if got := shouldSkipService(&api.Service{Spec: tc.spec}); got != tc.skip {
			t.Errorf("%+v: skip = %v, want %v", tc.spec, got, tc.skip)
		}
	}
}

// Two ports may share a number with different protocols (DNS): a stream
// that names the number gets the first in spec order, every time, not
// whichever the map yields.
func TestLookupByNumberIsDeterministic(t *testing.T) {
	svc := api.Key{Kind: api.KindService, Namespace: "default", Name: "dns"}
	p := New("n1")
	p.rules = rules{
		{Service: svc, Port: "dns"}:     {Port: 53, Index: 0, Endpoints: []Endpoint{ep("10.0.0.1", "n1", true, true, false)}},
		{Service: svc, Port: "dns-tcp"}: {Port: 53, Index: 1},
		{Service: svc, Port: "metrics"}: {Port: 9153, Index: 2},
	}
	for range 50 {
		if r, ok := p.Lookup(svc, "53"); !ok || r.Index != 0 {
			t.Fatalf("Lookup(53) = %+v, want the first port of that number", r)
		}
	}
	if r, ok := p.Lookup(svc, "metrics"); !ok || r.Port != 9153 {
		t.Errorf("Lookup by name = %+v", r)
	}
	if r, ok := p.Lookup(svc, ""); !ok || r.Index != 0 {
		t.Errorf("Lookup of the first port = %+v", r)
	}
}
