package conformance

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	v1 "k8s.io/api/core/v1"
	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/dump"
	endpointsliceutil "k8s.io/endpointslice/util"
	endpointsutil "k8s.io/kubernetes/pkg/api/v1/endpoints"
	hashutil "k8s.io/kubernetes/pkg/util/hash"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/endpoint"
	"github.com/stateflow/stateflow/engine/controller/endpointutil"
)

// The engine's go-spew printer (engine/controller/endpointutil/hash.go)
// must write, for every value of the types upstream hashes to order
// endpoint ports and subsets, exactly what dump.ForHash writes, and hash
// it as hashutil.DeepHashObject into md5 does; and the orders built on it
// (PortsInOrder, SortSubsets, RepackSubsets) must be upstream's
// (NewPortMapKey, endpoints.SortSubsets, endpoints.RepackSubsets).

// upstreamHash is hashutil.DeepHashObject into md5, in hex (the
// EndpointSlice util's deepHashObjectToString, and the sums
// pkg/api/v1/endpoints compares).
func upstreamHash(o any) string {
	h := md5.New()
	hashutil.DeepHashObject(h, o)
	return hex.EncodeToString(h.Sum(nil))
}

// hashGen draws values that reach every branch of the printer: nil and
// non-nil pointers (to empty strings too), nil and empty lists, odd
// characters, extreme numbers.
type hashGen struct{ r *rand.Rand }

func (g hashGen) str() string {
	pool := []string{"", "http", "web", "raw", "metrics", "a b", "{x:y}", "<nil>", "(*string)", "ü-名", "TCP", "\n\t"}
	if g.r.IntN(3) == 0 {
		return pool[g.r.IntN(len(pool))]
	}
	const chars = "abcdefghijklmnopqrstuvwxyz0123456789-."
	b := make([]byte, g.r.IntN(14))
	for i := range b {
		b[i] = chars[g.r.IntN(len(chars))]
	}
	return string(b)
}

func (g hashGen) strPtr() *string {
	if g.r.IntN(4) == 0 {
		return nil
	}
	return new(g.str())
}

func (g hashGen) protocol() v1.Protocol {
	return []v1.Protocol{v1.ProtocolTCP, v1.ProtocolUDP, v1.ProtocolSCTP, "", v1.Protocol(g.str())}[g.r.IntN(5)]
}

func (g hashGen) int32() int32 {
	switch g.r.IntN(6) {
	case 0:
		return []int32{0, -1, 1, 65535, 1<<31 - 1, -1 << 31}[g.r.IntN(6)]
	case 1:
		return g.r.Int32()
	}
	return int32(g.r.IntN(65536))
}

func (g hashGen) slicePort() discovery.EndpointPort {
	var p discovery.EndpointPort
	if g.r.IntN(5) > 0 {
		p.Name = new(g.str())
	}
	if g.r.IntN(5) > 0 {
		p.Protocol = new(g.protocol())
	}
	if g.r.IntN(5) > 0 {
		p.Port = new(g.int32())
	}
	p.AppProtocol = g.strPtr()
	return p
}

// endpointsPort draws a core EndpointPort. The engine's AppProtocol is a
// string, so a pointer to "" is not drawn (the Endpoints controller
// copies the Service port's, nil when unset).
func (g hashGen) endpointsPort() v1.EndpointPort {
	p := v1.EndpointPort{Name: g.str(), Port: g.int32(), Protocol: g.protocol()}
	if s := g.str(); s != "" && g.r.IntN(3) == 0 {
		p.AppProtocol = &s
	}
	return p
}

func (g hashGen) address() v1.EndpointAddress {
	a := v1.EndpointAddress{IP: fmt.Sprintf("10.%d.%d.%d", g.r.IntN(3), g.r.IntN(3), g.r.IntN(256)), NodeName: g.strPtr()}
	if g.r.IntN(4) == 0 {
		a.IP = g.str()
	}
	if g.r.IntN(3) == 0 {
		a.Hostname = g.str()
	}
	if g.r.IntN(5) > 0 {
		a.TargetRef = &v1.ObjectReference{Kind: "Pod", Namespace: g.str(), Name: g.str(), UID: types.UID(g.str())}
		if g.r.IntN(4) == 0 {
			a.TargetRef.Kind, a.TargetRef.APIVersion, a.TargetRef.ResourceVersion, a.TargetRef.FieldPath = g.str(), g.str(), g.str(), g.str()
		}
	}
	return a
}

// list draws nil, an empty list or up to four elements.
func list[T any](g hashGen, elem func() T) []T {
	switch g.r.IntN(6) {
	case 0:
		return nil
	case 1:
		return []T{}
	}
	out := make([]T, 1+g.r.IntN(4))
	for i := range out {
		out[i] = elem()
	}
	return out
}

func (g hashGen) subset() v1.EndpointSubset {
	return v1.EndpointSubset{Addresses: list(g, g.address), NotReadyAddresses: list(g, g.address), Ports: list(g, g.endpointsPort)}
}

// The conversions keep nil pointers and lists nil, and empty lists empty.

func mapList[T, U any](in []T, f func(T) U) []U {
	if in == nil {
		return nil
	}
	out := make([]U, len(in))
	for i, e := range in {
		out[i] = f(e)
	}
	return out
}

func engineSlicePort(p discovery.EndpointPort) api.EndpointPort {
	e := api.EndpointPort{Name: p.Name, Port: p.Port, AppProtocol: p.AppProtocol}
	if p.Protocol != nil {
		e.Protocol = new(string(*p.Protocol))
	}
	return e
}

func engineEndpointsPort(p v1.EndpointPort) api.EndpointsPort {
	e := api.EndpointsPort{Name: p.Name, Port: p.Port, Protocol: string(p.Protocol)}
	if p.AppProtocol != nil {
		e.AppProtocol = *p.AppProtocol
	}
	return e
}

func engineAddress(a v1.EndpointAddress) api.EndpointAddress {
	e := api.EndpointAddress{IP: a.IP, Hostname: a.Hostname, NodeName: a.NodeName}
	if r := a.TargetRef; r != nil {
		e.TargetRef = &api.ObjectReference{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: string(r.UID),
			APIVersion: r.APIVersion, ResourceVersion: r.ResourceVersion, FieldPath: r.FieldPath}
	}
	return e
}

func engineSubset(s v1.EndpointSubset) api.EndpointSubset {
	return api.EndpointSubset{Addresses: mapList(s.Addresses, engineAddress), NotReadyAddresses: mapList(s.NotReadyAddresses, engineAddress),
		Ports: mapList(s.Ports, engineEndpointsPort)}
}

func upstreamEndpointsPort(p api.EndpointsPort) v1.EndpointPort {
	u := v1.EndpointPort{Name: p.Name, Port: p.Port, Protocol: v1.Protocol(p.Protocol)}
	if p.AppProtocol != "" {
		u.AppProtocol = new(p.AppProtocol)
	}
	return u
}

func upstreamAddress(a api.EndpointAddress) v1.EndpointAddress {
	u := v1.EndpointAddress{IP: a.IP, Hostname: a.Hostname, NodeName: a.NodeName}
	if r := a.TargetRef; r != nil {
		u.TargetRef = &v1.ObjectReference{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name, UID: types.UID(r.UID),
			APIVersion: r.APIVersion, ResourceVersion: r.ResourceVersion, FieldPath: r.FieldPath}
	}
	return u
}

func upstreamSubset(s api.EndpointSubset) v1.EndpointSubset {
	return v1.EndpointSubset{Addresses: mapList(s.Addresses, upstreamAddress), NotReadyAddresses: mapList(s.NotReadyAddresses, upstreamAddress),
		Ports: mapList(s.Ports, upstreamEndpointsPort)}
}

func checkDump(t *testing.T, what string, upstream any, ours string) {
	t.Helper()
	if want := dump.ForHash(upstream); ours != want {
		t.Fatalf("%s: the engine's dump differs from dump.ForHash:\nengine:   %s\nupstream: %s", what, ours, want)
	}
	if got, want := endpointutil.DeepHashObjectToString(ours), upstreamHash(upstream); got != want {
		t.Fatalf("%s: hash %s, upstream's %s", what, got, want)
	}
}

const hashCases = 3000

// A discovery EndpointPort's dump and hash, and NewPortMapKey's order
// (and key) of a list of them.
func TestHashSlicePorts(t *testing.T) {
	g := hashGen{rand.New(rand.NewPCG(1, 2))}
	for i := range hashCases {
		p := g.slicePort()
		checkDump(t, fmt.Sprint("port ", i), p, endpointutil.SpewSlicePort(engineSlicePort(p)))

		ports := list(g, g.slicePort)
		ours := endpointutil.PortsInOrder(mapList(ports, engineSlicePort))
		key := endpointsliceutil.NewPortMapKey(ports) // sorts ports in place
		if want := mapList(ports, engineSlicePort); !slices.EqualFunc(ours, want, func(a, b api.EndpointPort) bool {
			return endpointutil.SpewSlicePort(a) == endpointutil.SpewSlicePort(b)
		}) || (ours == nil) != (want == nil) {
			t.Fatalf("list %d: PortsInOrder %s, NewPortMapKey's order %s", i, endpointutil.SpewSlicePorts(ours), endpointutil.SpewSlicePorts(want))
		}
		checkDump(t, fmt.Sprint("list ", i), ports, endpointutil.SpewSlicePorts(ours))
		if got := endpointutil.DeepHashObjectToString(endpointutil.SpewSlicePorts(ours)); got != string(key) {
			t.Fatalf("list %d: key %s, NewPortMapKey %s", i, got, key)
		}
	}
}

// A core EndpointPort's and an EndpointSubset's dump and hash, and
// SortSubsets' order.
func TestHashSubsets(t *testing.T) {
	g := hashGen{rand.New(rand.NewPCG(3, 4))}
	for i := range hashCases {
		p := g.endpointsPort()
		checkDump(t, fmt.Sprint("port ", i), p, endpointutil.SpewEndpointsPort(engineEndpointsPort(p)))
		s := g.subset()
		checkDump(t, fmt.Sprint("subset ", i), s, endpointutil.SpewEndpointSubset(engineSubset(s)))

		// SortSubsets over distinct subsets of distinct ports and
		// addresses (as RepackSubsets builds them: no ties).
		var subsets []v1.EndpointSubset
		seen := map[string]bool{}
		for range g.r.IntN(6) {
			s := g.subset()
			s.Ports = uniqueBy(s.Ports, func(p v1.EndpointPort) string { return dump.ForHash(p) })
			addrKey := func(a v1.EndpointAddress) string {
				if a.TargetRef == nil {
					return a.IP
				}
				return a.IP + "\x00" + string(a.TargetRef.UID)
			}
			s.Addresses = uniqueBy(s.Addresses, addrKey)
			s.NotReadyAddresses = uniqueBy(s.NotReadyAddresses, addrKey)
			if d := dump.ForHash(s); !seen[d] {
				seen[d] = true
				subsets = append(subsets, s)
			}
		}
		ours := endpoint.SortSubsets(mapList(subsets, engineSubset))
		want := endpointsutil.SortSubsets(subsets)
		if got, want := dump.ForHash(mapList(ours, upstreamSubset)), dump.ForHash(want); got != want {
			t.Fatalf("case %d: SortSubsets\nengine:   %s\nupstream: %s", i, got, want)
		}
	}
}

// uniqueBy keeps the first element of each key (nil stays nil).
func uniqueBy[T any](in []T, key func(T) string) []T {
	if in == nil {
		return nil
	}
	seen := map[string]bool{}
	out := []T{}
	for _, e := range in {
		if k := key(e); !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// RepackSubsets over what the Endpoints controller feeds it: one subset
// per pod and port it resolves (or without ports), each pod's address
// ready or not, pods sharing IPs now and then, ports drawn from one
// Service's (whose AppProtocol pointers the pods share, as upstream's map
// keyed by EndpointPort compares them).
func TestRepackSubsets(t *testing.T) {
	g := hashGen{rand.New(rand.NewPCG(5, 6))}
	for i := range hashCases {
		var svcPorts []v1.EndpointPort
		for j := range 1 + g.r.IntN(4) {
			p := g.endpointsPort()
			// Names unique in a Service; numbers shared between pods.
			p.Name, p.Port = fmt.Sprintf("%s-%d", p.Name, j), int32(1+g.r.IntN(4))
			svcPorts = append(svcPorts, p)
		}
		portless := g.r.IntN(6) == 0
		var in []v1.EndpointSubset
		for pod := range g.r.IntN(8) {
			a := v1.EndpointAddress{IP: fmt.Sprintf("10.0.0.%d", g.r.IntN(6)), NodeName: new(fmt.Sprint("node-", g.r.IntN(3))),
				TargetRef: &v1.ObjectReference{Kind: "Pod", Namespace: "default", Name: fmt.Sprint("pod-", pod), UID: types.UID(fmt.Sprint("uid-", pod))}}
			if g.r.IntN(4) == 0 {
				a.Hostname = a.TargetRef.Name
			}
			ready := g.r.IntN(3) > 0
			one := func(ports []v1.EndpointPort) v1.EndpointSubset {
				if ready {
					return v1.EndpointSubset{Addresses: []v1.EndpointAddress{a}, Ports: ports}
				}
				return v1.EndpointSubset{NotReadyAddresses: []v1.EndpointAddress{a}, Ports: ports}
			}
			if portless {
				in = append(in, one([]v1.EndpointPort{}))
				continue
			}
			for _, p := range svcPorts {
				if g.r.IntN(3) > 0 { // the pod resolves this port
					p.Port += int32(g.r.IntN(2)) * 100
					in = append(in, one([]v1.EndpointPort{p}))
				}
			}
		}
		ours := endpoint.RepackSubsets(mapList(in, engineSubset))
		want := endpointsutil.RepackSubsets(in)
		if len(want) == 0 {
			want = nil // the engine's empty result
		}
		if len(ours) == 0 {
			ours = nil
		}
		if got, want := dump.ForHash(mapList(ours, upstreamSubset)), dump.ForHash(want); got != want {
			t.Fatalf("case %d: RepackSubsets of %s\nengine:   %s\nupstream: %s", i, dump.ForHash(in), got, want)
		}
	}
}

// The printer's output for one value of each type, as the report and
// hash.go's doc comments quote it.
func TestHashExamples(t *testing.T) {
	name, tcp, port := "web", v1.ProtocolTCP, int32(80)
	sp := discovery.EndpointPort{Name: &name, Protocol: &tcp, Port: &port}
	node := "node-1"
	s := v1.EndpointSubset{
		Addresses: []v1.EndpointAddress{{IP: "10.244.1.2", NodeName: &node, TargetRef: &v1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "web-0", UID: "1234"}}},
		Ports:     []v1.EndpointPort{{Name: "http", Port: 8080, Protocol: v1.ProtocolTCP}},
	}
	for _, c := range []struct {
		upstream any
		ours     string
	}{
		{sp, endpointutil.SpewSlicePort(engineSlicePort(sp))},
		{s.Ports[0], endpointutil.SpewEndpointsPort(engineEndpointsPort(s.Ports[0]))},
		{s, endpointutil.SpewEndpointSubset(engineSubset(s))},
	} {
		checkDump(t, fmt.Sprintf("%T", c.upstream), c.upstream, c.ours)
		t.Logf("%s\n  md5 %s", c.ours, endpointutil.DeepHashObjectToString(c.ours))
	}
}
