package endpointutil

// This file reproduces the hashes by which upstream orders endpoint ports
// and Endpoints subsets, without go-spew (which the engine does not link).
//
// Upstream hashes with hashutil.DeepHashObject (k8s.io/kubernetes
// pkg/util/hash/hash.go, copied as deepHashObject into k8s.io/endpointslice
// util/controller_utils.go): it writes into an md5 hasher the text of
// dump.ForHash (k8s.io/apimachinery pkg/util/dump/dump.go), which is
// go-spew's "%#v" under spew.ConfigState{Indent: " ", SortKeys: true,
// DisableMethods: true, SpewKeys: true, DisablePointerAddresses: true,
// DisableCapacities: true} (go-spew v1.1.1 spew/format.go). Two orders
// depend on it:
//
//   - k8s.io/endpointslice util.NewPortMapKey sorts a slice's
//     []discovery.EndpointPort in place by portsInOrder, which compares the
//     hex md5 of each port (deepHashObjectToString), and that sorted list is
//     what the slice's ports end up as;
//   - pkg/api/v1/endpoints.SortSubsets (called by RepackSubsets in the
//     Endpoints controller) sorts each subset's ports by portsByHash and the
//     subsets by subsetsByHash, comparing the md5 sums bytewise (the same
//     order as comparing their hex).
//
// The printer below writes exactly what go-spew writes for the few types
// hashed there, read off the engine's types:
//
//   - a value at the top level, or a struct field, is preceded by its type
//     in parentheses, as reflect names it: "(v1.EndpointPort)", "(int32)",
//     "(v1.Protocol)", "(types.UID)", "([]v1.EndpointAddress)". Both
//     discovery.k8s.io/v1 and core/v1 are package v1, so a discovery
//     EndpointPort prints as "v1.EndpointPort" like a core one;
//   - a pointer field prints as "(*string)" and then the value it points to
//     with no type of its own, or "<nil>": "(*string)<nil>";
//   - a struct prints as "{Name:value Name:value}", every field, in
//     declaration order, separated by one space;
//   - a slice prints as "[elem elem]", each element without its type; a nil
//     slice as "<nil>" (an empty one as "[]");
//   - strings print raw (no quotes, no escaping), integers in decimal.
//
// Nothing here is needed beyond that; the conformance module checks these
// dumps and hashes against upstream's DeepHashObject for many generated
// values (conformance/hash_test.go), so any divergence fails there.

import (
	"crypto/md5"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/order"
)

// DeepHashObjectToString is deepHashObjectToString
// (k8s.io/endpointslice/util/controller_utils.go): the md5 of a dump, in
// hex. Comparing these strings orders as upstream's bytes.Compare of the
// sums does.
func DeepHashObjectToString(dump string) string {
	sum := md5.Sum([]byte(dump))
	return hex.EncodeToString(sum[:])
}

// PortsInOrder returns a copy of the discovery ports in the order
// NewPortMapKey (k8s.io/endpointslice/util/controller_utils.go) leaves
// them in: it sorts the list in place by portsInOrder, by the hex md5 of
// each port's dump (deepHashObjectToString), and the EndpointSlice
// reconciler makes that list a slice's ports. Equal hashes are equal
// ports, so the order does not depend on the sort algorithm. nil stays
// nil.
func PortsInOrder(ports []api.EndpointPort) []api.EndpointPort {
	if ports == nil {
		return nil
	}
	type hashed struct {
		hash string
		port api.EndpointPort
	}
	hs := make([]hashed, len(ports))
	for i, p := range ports {
		hs[i] = hashed{DeepHashObjectToString(SpewSlicePort(p)), p}
	}
	order.SortFunc(hs, func(a, b hashed) int { return strings.Compare(a.hash, b.hash) })
	out := make([]api.EndpointPort, len(ports))
	for i, h := range hs {
		out[i] = h.port
	}
	return out
}

// SpewSlicePort is dump.ForHash of the discovery/v1 EndpointPort p
// (upstream's portsInOrder hashes one), e.g.
//
//	(v1.EndpointPort){Name:(*string)web Protocol:(*v1.Protocol)TCP Port:(*int32)80 AppProtocol:(*string)<nil>}
func SpewSlicePort(p api.EndpointPort) string {
	var d spewPrinter
	d.typ("v1.EndpointPort")
	d.slicePort(p)
	return d.String()
}

// SpewSlicePorts is dump.ForHash of a []discovery/v1.EndpointPort (what
// NewPortMapKey hashes once sorted): "([]v1.EndpointPort)[{…} {…}]", or
// "([]v1.EndpointPort)<nil>" for a nil list.
func SpewSlicePorts(ports []api.EndpointPort) string {
	var d spewPrinter
	d.typ("[]v1.EndpointPort")
	d.list(ports == nil, len(ports), func(i int) { d.slicePort(ports[i]) })
	return d.String()
}

// SpewEndpointsPort is dump.ForHash of the core/v1 EndpointPort p (what
// portsByHash hashes). The engine's AppProtocol is a string; the empty one
// stands for upstream's nil pointer (the Endpoints controller copies the
// Service port's *string, nil when unset). E.g.
//
//	(v1.EndpointPort){Name:(string)http Port:(int32)8080 Protocol:(v1.Protocol)TCP AppProtocol:(*string)<nil>}
func SpewEndpointsPort(p api.EndpointsPort) string {
	var d spewPrinter
	d.typ("v1.EndpointPort")
	d.endpointsPort(p)
	return d.String()
}

// SpewEndpointSubset is dump.ForHash of the core/v1 EndpointSubset s (what
// subsetsByHash hashes). A nil list prints as <nil>, an empty one as [],
// as upstream's would. E.g. (one line)
//
//	(v1.EndpointSubset){Addresses:([]v1.EndpointAddress)[{IP:(string)10.244.1.2 Hostname:(string)
//	NodeName:(*string)node-1 TargetRef:(*v1.ObjectReference){Kind:(string)Pod Namespace:(string)default
//	Name:(string)web-0 UID:(types.UID)1234 APIVersion:(string) ResourceVersion:(string) FieldPath:(string)}}]
//	NotReadyAddresses:([]v1.EndpointAddress)<nil> Ports:([]v1.EndpointPort)[{Name:(string)http
//	Port:(int32)8080 Protocol:(v1.Protocol)TCP AppProtocol:(*string)<nil>}]}
func SpewEndpointSubset(s api.EndpointSubset) string {
	var d spewPrinter
	d.typ("v1.EndpointSubset")
	d.open()
	d.field("Addresses", "[]v1.EndpointAddress")
	d.list(s.Addresses == nil, len(s.Addresses), func(i int) { d.address(s.Addresses[i]) })
	d.field("NotReadyAddresses", "[]v1.EndpointAddress")
	d.list(s.NotReadyAddresses == nil, len(s.NotReadyAddresses), func(i int) { d.address(s.NotReadyAddresses[i]) })
	d.field("Ports", "[]v1.EndpointPort")
	d.list(s.Ports == nil, len(s.Ports), func(i int) { d.endpointsPort(s.Ports[i]) })
	d.close()
	return d.String()
}

// spewPrinter writes go-spew's "%#v" of the types above. A struct's
// fields are separated by a space, written before every field but the
// first of its struct.
type spewPrinter struct {
	strings.Builder
	first bool // the next field is its struct's first
}

func (d *spewPrinter) typ(t string) { d.WriteString("(" + t + ")") }
func (d *spewPrinter) open()        { d.WriteByte('{'); d.first = true }
func (d *spewPrinter) close()       { d.WriteByte('}'); d.first = false }
func (d *spewPrinter) sep()         { d.WriteByte(' ') }
func (d *spewPrinter) none()        { d.WriteString("<nil>") }

// field writes a struct field's name and its type: the value follows.
func (d *spewPrinter) field(name, typ string) {
	if !d.first {
		d.sep()
	}
	d.first = false
	d.WriteString(name + ":")
	d.typ(typ)
}

// value writes a non-pointer field of a scalar type.
func (d *spewPrinter) value(name, typ, v string) {
	d.field(name, typ)
	d.WriteString(v)
}

// stringFields writes fields of type string, names and values alternating.
func (d *spewPrinter) stringFields(nameValues ...string) {
	for i := 0; i+1 < len(nameValues); i += 2 {
		d.value(nameValues[i], "string", nameValues[i+1])
	}
}

// ptr writes a pointer field: its type, then what it points to or <nil>.
func (d *spewPrinter) ptr(name, typ string, v *string) {
	d.field(name, "*"+typ)
	if v == nil {
		d.none()
		return
	}
	d.WriteString(*v)
}

// list writes a slice's elements (without their type), or <nil>.
func (d *spewPrinter) list(isNil bool, n int, elem func(i int)) {
	if isNil {
		d.none()
		return
	}
	d.WriteByte('[')
	for i := range n {
		if i > 0 {
			d.sep()
		}
		elem(i)
	}
	d.WriteByte(']')
}

// slicePort writes a discovery/v1 EndpointPort's fields.
func (d *spewPrinter) slicePort(p api.EndpointPort) {
	var port *string
	if p.Port != nil {
		s := strconv.Itoa(int(*p.Port))
		port = &s
	}
	d.open()
	d.ptr("Name", "string", p.Name)
	d.ptr("Protocol", "v1.Protocol", p.Protocol)
	d.ptr("Port", "int32", port)
	d.ptr("AppProtocol", "string", p.AppProtocol)
	d.close()
}

// endpointsPort writes a core/v1 EndpointPort's fields.
func (d *spewPrinter) endpointsPort(p api.EndpointsPort) {
	var app *string
	if p.AppProtocol != "" {
		app = &p.AppProtocol
	}
	d.open()
	d.value("Name", "string", p.Name)
	d.value("Port", "int32", strconv.Itoa(int(p.Port)))
	d.value("Protocol", "v1.Protocol", p.Protocol)
	d.ptr("AppProtocol", "string", app)
	d.close()
}

// address writes a core/v1 EndpointAddress's fields.
func (d *spewPrinter) address(a api.EndpointAddress) {
	d.open()
	d.value("IP", "string", a.IP)
	d.value("Hostname", "string", a.Hostname)
	d.ptr("NodeName", "string", a.NodeName)
	d.field("TargetRef", "*v1.ObjectReference")
	if r := a.TargetRef; r == nil {
		d.none()
	} else {
		d.open()
		d.stringFields("Kind", r.Kind, "Namespace", r.Namespace, "Name", r.Name)
		d.value("UID", "types.UID", r.UID)
		d.stringFields("APIVersion", r.APIVersion, "ResourceVersion", r.ResourceVersion, "FieldPath", r.FieldPath)
		d.close()
	}
	d.close()
}
