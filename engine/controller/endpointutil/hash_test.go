package endpointutil_test

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/endpointutil"
)

// The dumps and md5s of one value of each type, as go-spew and
// hashutil.DeepHashObject write them upstream (conformance/hash_test.go's
// TestHashExamples checks these values against upstream, and many
// generated ones).
func TestSpewExamples(t *testing.T) {
	name, tcp, port, node := "web", "TCP", int32(80), "node-1"
	sub := api.EndpointSubset{
		Addresses: []api.EndpointAddress{{IP: "10.244.1.2", NodeName: &node, TargetRef: &api.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-0", UID: "1234"}}},
		Ports:     []api.EndpointsPort{{Name: "http", Port: 8080, Protocol: "TCP"}},
	}
	for _, c := range []struct{ dump, want, md5 string }{
		{endpointutil.SpewSlicePort(api.EndpointPort{Name: &name, Protocol: &tcp, Port: &port}),
			"(v1.EndpointPort){Name:(*string)web Protocol:(*v1.Protocol)TCP Port:(*int32)80 AppProtocol:(*string)<nil>}",
			"4205fe3c7704dcafc3cfb289fdd6bb81"},
		{endpointutil.SpewEndpointsPort(sub.Ports[0]),
			"(v1.EndpointPort){Name:(string)http Port:(int32)8080 Protocol:(v1.Protocol)TCP AppProtocol:(*string)<nil>}",
			"fc51ca7087ce52e70c38709727f8f0b6"},
		{endpointutil.SpewEndpointSubset(sub),
			"(v1.EndpointSubset){Addresses:([]v1.EndpointAddress)[{IP:(string)10.244.1.2 Hostname:(string) NodeName:(*string)node-1 " +
				"TargetRef:(*v1.ObjectReference){Kind:(string)Pod Namespace:(string)default Name:(string)web-0 UID:(types.UID)1234 " +
				"APIVersion:(string) ResourceVersion:(string) FieldPath:(string)}}] NotReadyAddresses:([]v1.EndpointAddress)<nil> " +
				"Ports:([]v1.EndpointPort)[{Name:(string)http Port:(int32)8080 Protocol:(v1.Protocol)TCP AppProtocol:(*string)<nil>}]}",
			"7926af46a5d48ba21880d2fabac031a0"},
	} {
		if c.dump != c.want {
			t.Errorf("dump\n got %s\nwant %s", c.dump, c.want)
		}
		if h := endpointutil.DeepHashObjectToString(c.dump); h != c.md5 {
			t.Errorf("md5 of %s: %s, want %s", c.dump, h, c.md5)
		}
	}
}
