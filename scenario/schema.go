package scenario

import (
	"fmt"
	"reflect"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/fieldpath"
)

// ignoredFields are set by a real API server and accepted without comment.
var ignoredFields = map[string]bool{"metadata.managedFields": true, "metadata.selfLink": true}

// unknownFields walks a YAML value against the Go type it decodes into and
// reports each key the type has no field for, with its position.
func unknownFields(n *yaml.Node, t reflect.Type, path string, report func(Diagnostic)) {
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
			f, ok := fieldByJSONName(t, k.Value)
			if !ok {
				if !ignoredFields[p] {
					report(Diagnostic{Severity: Warning, Line: k.Line, Column: k.Column, Path: p,
						Message: fmt.Sprintf("unknown or unsimulated field %q is ignored", k.Value)})
				}
				continue
			}
			unknownFields(v, f.Type, p, report)
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return
		}
		for i, item := range n.Content {
			unknownFields(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i), report)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			unknownFields(n.Content[i+1], t.Elem(), fieldpath.Child(path, n.Content[i].Value), report)
		}
	}
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
