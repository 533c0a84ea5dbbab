package scenario

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/fieldpath"
)

// serverFields are set by a real API server: a manifest copied from
// kubectl get -o yaml carries them, and they are accepted without
// comment (the API server overwrites them).
var serverFields = map[string]bool{"metadata.managedFields": true, "metadata.selfLink": true, "metadata.uid": true,
	"metadata.resourceVersion": true, "metadata.creationTimestamp": true, "metadata.generation": true,
	"metadata.deletionTimestamp": true, "metadata.deletionGracePeriodSeconds": true}

// noReal says a YAML value has no Kubernetes API type to check it
// against (Stateflow's own documents).
const noReal = -1

// fieldCheck walks a decoded document's YAML against the Go type it
// decoded into and, for a Kubernetes object, the API's own type
// (realTypes). A field neither has is unknown: an error for a Kubernetes
// object, as kubectl's strict field validation refuses it, a warning in
// Stateflow's own documents. A field the API has and Stateflow does not
// simulate is noted once per file by name (unsimulated), except in status
// and in the metadata the API server sets.
type fieldCheck struct {
	unknown     func(Diagnostic)
	unsimulated []string
	first       *yaml.Node // the first unsimulated field's key
}

func (c *fieldCheck) walk(n *yaml.Node, t reflect.Type, real int, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if fieldpath.Leaf(t) || n == nil {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := fieldpath.Child(path, k.Value)
			childReal, isReal := realField(real, k.Value)
			if f, ok := fieldByJSONName(t, k.Value); ok {
				c.walk(v, f.Type, childReal, p)
				continue
			}
			c.missing(k, p, isReal, real)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, item := range n.Content {
			c.walk(item, t.Elem(), real, fmt.Sprintf("%s[%d]", path, i))
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			c.walk(n.Content[i+1], t.Elem(), real, fieldpath.Child(path, n.Content[i].Value))
		}
	}
}

// missing handles key k, at path p, that the Go type does not have.
func (c *fieldCheck) missing(k *yaml.Node, p string, isReal bool, real int) {
	switch {
	case serverFields[p]:
	case real == noReal:
		c.unknown(Diagnostic{Severity: Warning, Line: k.Line, Column: k.Column, Path: p,
			Message: fmt.Sprintf("unknown field %q is ignored", k.Value)})
	case !isReal:
		c.unknown(Diagnostic{Severity: Error, Line: k.Line, Column: k.Column, Path: p,
			Message: fmt.Sprintf("strict decoding error: unknown field %q", p)})
	case p == "status" || strings.HasPrefix(p, "status."):
	default:
		if !slices.Contains(c.unsimulated, k.Value) {
			c.unsimulated = append(c.unsimulated, k.Value)
		}
		if c.first == nil {
			c.first = k
		}
	}
}

// realRoot is the API type of a kind at an apiVersion.
type realRoot struct {
	apiVersion, kind string
	typ              int
}

// realKind is the index in realTypes of kind's type at apiVersion, or
// noReal.
func realKind(apiVersion, kind string) int {
	for _, r := range realRoots {
		if r.apiVersion == apiVersion && r.kind == kind {
			return r.typ
		}
	}
	return noReal
}

// realField looks name up in the API type real: whether it is a field,
// and the index of its struct type (noReal for a value).
func realField(real int, name string) (int, bool) {
	if real == noReal {
		return noReal, false
	}
	fields := realTypes[real]
	i := strings.Index(fields, ","+name+":")
	if i < 0 {
		return noReal, false
	}
	rest := fields[i+len(name)+2:]
	typ, err := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
	if err != nil {
		return noReal, true
	}
	return typ, true
}

// fieldByJSONName finds the struct field serialised as name, looking
// through inlined embedded structs.
func fieldByJSONName(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, inline := fieldpath.Name(f)
		if inline {
			if inner, ok := fieldByJSONName(f.Type, name); ok {
				return inner, true
			}
			continue
		}
		if tag == name {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// nodeAt finds the YAML node for a field path such as
// "spec.template.spec.containers[0].image", or the deepest node on the way.
func nodeAt(root *yaml.Node, path string) *yaml.Node {
	n := root
	for _, seg := range fieldpath.Split(path) {
		next := child(n, seg)
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

func child(n *yaml.Node, seg string) *yaml.Node {
	if n == nil {
		return nil
	}
	if i, err := strconv.Atoi(seg); err == nil && n.Kind == yaml.SequenceNode {
		if i >= 0 && i < len(n.Content) {
			return n.Content[i]
		}
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == seg {
			return n.Content[i+1]
		}
	}
	return nil
}
