package scenario

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// schemaNode is the part of a JSON Schema the comparison reads.
type schemaNode struct {
	Properties           map[string]*schemaNode `json:"properties"`
	Items                *schemaNode            `json:"items"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
}

// elements is the schema of a map's values, if the schema gives one.
func (n *schemaNode) elements() *schemaNode {
	var e schemaNode
	if len(n.AdditionalProperties) > 0 && n.AdditionalProperties[0] == '{' && json.Unmarshal(n.AdditionalProperties, &e) == nil {
		return &e
	}
	return nil
}

// The JSON Schema documents exactly the keys the parser reads, at every
// depth: each struct's fields against the schema's properties, into
// pointers, the items of lists and the values of maps.
func TestSchemaMatchesSpec(t *testing.T) {
	b, err := os.ReadFile("../docs/scenario.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			Spec *schemaNode `json:"spec"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	for _, p := range compareSchema("spec", reflect.TypeOf(Spec{}), schema.Properties.Spec) {
		t.Error(p)
	}
}

// compareSchema lists where the Go type and the schema disagree.
func compareSchema(path string, typ reflect.Type, n *schemaNode) []string {
	for typ.Kind() == reflect.Pointer {
		typ = typ.Elem()
	}
	if n == nil {
		return nil
	}
	switch typ.Kind() {
	case reflect.Slice:
		if n.Items != nil {
			return compareSchema(path+"[]", typ.Elem(), n.Items)
		}
		return nil
	case reflect.Map:
		if e := n.elements(); e != nil {
			return compareSchema(path+".*", typ.Elem(), e)
		}
		return nil
	case reflect.Struct:
	default:
		return nil
	}
	if strings.HasPrefix(typ.PkgPath(), "github.com/stateflow/stateflow/engine/api") && n.Properties == nil {
		return nil // a Kubernetes type (taints, quantities) the schema leaves to Kubernetes
	}
	var out []string
	inGo := map[string]reflect.Type{}
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		inGo[name] = f.Type
	}
	var names []string
	for name := range inGo {
		names = append(names, name)
	}
	for name := range n.Properties {
		if _, ok := inGo[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		ft, inCode := inGo[name]
		sn, inSchema := n.Properties[name]
		switch {
		case !inSchema:
			out = append(out, path+"."+name+": read by the parser, missing from the schema")
		case !inCode:
			out = append(out, path+"."+name+": in the schema, not read by the parser")
		default:
			out = append(out, compareSchema(path+"."+name, ft, sn)...)
		}
	}
	return out
}
