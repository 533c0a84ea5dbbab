package trace

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/fieldpath"
)

// Change is one changed field: its path in JSON names (for example
// "spec.replicas" or "status.conditions[Available].status") and the values
// before and after (nil when absent).
type Change struct {
	Path string `json:"path"`
	From any    `json:"from"`
	To   any    `json:"to"`
}

// Diff lists the leaf fields that differ between two objects of one kind.
// Metadata bookkeeping (resourceVersion) is left out. Lists whose items have
// a type or name are matched by it, so reordering is not reported as change.
func Diff(before, after api.Object) []Change {
	var out []Change
	diffValue("", reflect.ValueOf(before).Elem(), reflect.ValueOf(after).Elem(), &out)
	return out
}

func diffValue(path string, a, b reflect.Value, out *[]Change) {
	if path == "metadata.resourceVersion" {
		return
	}
	t := a.Type()
	if fieldpath.Leaf(t) {
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			*out = append(*out, Change{path, leaf(a), leaf(b)})
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		diffStruct(path, a, b, out)
	case reflect.Pointer:
		switch {
		case a.IsNil() && b.IsNil():
		case a.IsNil() || b.IsNil():
			*out = append(*out, Change{path, leaf(a), leaf(b)})
		default:
			diffValue(path, a.Elem(), b.Elem(), out)
		}
	case reflect.Map:
		diffMap(path, a, b, out)
	case reflect.Slice:
		diffSlice(path, a, b, out)
	default:
		if a.Interface() != b.Interface() {
			*out = append(*out, Change{path, leaf(a), leaf(b)})
		}
	}
}

func diffStruct(path string, a, b reflect.Value, out *[]Change) {
	t := a.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, inline := fieldpath.Name(f)
		if name == "-" {
			continue
		}
		p := path
		if !inline {
			p = fieldpath.Child(path, name)
		}
		n := len(*out)
		diffValue(p, a.Field(i), b.Field(i), out)
		if strings.Contains(f.Tag.Get("json"), "omitempty") {
			absentAsNull((*out)[n:], p, a.Field(i), b.Field(i))
		}
	}
}

// absentAsNull shows the zero value of an omitempty field as null: the
// field is absent from the object's JSON.
func absentAsNull(changes []Change, path string, a, b reflect.Value) {
	for i := range changes {
		if changes[i].Path != path {
			continue
		}
		if a.IsZero() {
			changes[i].From = nil
		}
		if b.IsZero() {
			changes[i].To = nil
		}
	}
}

func diffMap(path string, a, b reflect.Value, out *[]Change) {
	keys := map[string]bool{}
	for _, k := range a.MapKeys() {
		keys[k.String()] = true
	}
	for _, k := range b.MapKeys() {
		keys[k.String()] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		kv := reflect.ValueOf(k).Convert(a.Type().Key())
		av, bv := a.MapIndex(kv), b.MapIndex(kv)
		p := fieldpath.Child(path, k)
		switch {
		case !av.IsValid():
			*out = append(*out, Change{p, nil, leaf(bv)})
		case !bv.IsValid():
			*out = append(*out, Change{p, leaf(av), nil})
		default:
			diffValue(p, av, bv, out)
		}
	}
}

// itemKey returns the value of a Type or Name field, which identifies a
// list item (conditions by type, containers by name).
func itemKey(v reflect.Value) (string, bool) {
	if v.Kind() != reflect.Struct {
		return "", false
	}
	for _, f := range []string{"Type", "Name"} {
		if fv := v.FieldByName(f); fv.IsValid() && fv.Kind() == reflect.String {
			return fv.String(), true
		}
	}
	return "", false
}

func diffSlice(path string, a, b reflect.Value, out *[]Change) {
	if a.Len() > 0 || b.Len() > 0 {
		var probe reflect.Value
		if a.Len() > 0 {
			probe = a.Index(0)
		} else {
			probe = b.Index(0)
		}
		if _, keyed := itemKey(probe); keyed {
			diffKeyed(path, a, b, out)
			return
		}
	}
	if a.Len() != b.Len() {
		if !reflect.DeepEqual(a.Interface(), b.Interface()) {
			*out = append(*out, Change{path, leaf(a), leaf(b)})
		}
		return
	}
	for i := 0; i < a.Len(); i++ {
		diffValue(fieldpath.Index(path, i), a.Index(i), b.Index(i), out)
	}
}

func diffKeyed(path string, a, b reflect.Value, out *[]Change) {
	index := func(s reflect.Value) map[string]reflect.Value {
		m := map[string]reflect.Value{}
		for i := 0; i < s.Len(); i++ {
			k, _ := itemKey(s.Index(i))
			m[k] = s.Index(i)
		}
		return m
	}
	am, bm := index(a), index(b)
	seen := map[string]bool{}
	var order []string
	for _, s := range []reflect.Value{a, b} {
		for i := 0; i < s.Len(); i++ {
			if k, _ := itemKey(s.Index(i)); !seen[k] {
				seen[k] = true
				order = append(order, k)
			}
		}
	}
	for _, k := range order {
		p := fieldpath.Item(path, k)
		av, aok := am[k]
		bv, bok := bm[k]
		switch {
		case !aok:
			*out = append(*out, Change{p, nil, leaf(bv)})
		case !bok:
			*out = append(*out, Change{p, leaf(av), nil})
		default:
			diffValue(p, av, bv, out)
		}
	}
}

// leaf converts a value to its JSON form (via encoding/json) so a change
// prints exactly as the field would in kubectl -o json.
func leaf(v reflect.Value) any {
	if !v.IsValid() || (v.Kind() == reflect.Pointer || v.Kind() == reflect.Map || v.Kind() == reflect.Slice) && v.IsNil() {
		return nil
	}
	b, err := json.Marshal(v.Interface())
	if err != nil {
		return fmt.Sprint(v.Interface())
	}
	var out any
	d := json.NewDecoder(strings.NewReader(string(b)))
	d.UseNumber()
	if err := d.Decode(&out); err != nil {
		return string(b)
	}
	return out
}
