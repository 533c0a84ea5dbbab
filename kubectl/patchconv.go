package kubectl

// This file converts objects to and from the generic JSON form patches
// work on: map[string]any, []any, string, bool, nil, and numbers as int64
// (integers) or float64, as the API server's unstructured converter and
// kjson.UnmarshalCaseSensitivePreserveInts give them.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// toGeneric is an object in the generic JSON form.
func toGeneric(o any) (map[string]any, error) {
	b, err := json.Marshal(o)
	if err != nil {
		return nil, err
	}
	v, err := decodeJSON(b)
	if err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%T is not a JSON object", o)
	}
	return m, nil
}

// decodeJSON parses one JSON document into the generic form, with
// encoding/json's syntax errors (which the API server's are).
func decodeJSON(b []byte) (any, error) {
	if !json.Valid(b) {
		var probe any
		return nil, json.Unmarshal(b, &probe)
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return intNumbers(v), nil
}

// intNumbers replaces json.Numbers with int64 or float64.
func intNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = intNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = intNumbers(e)
		}
	}
	return v
}

// deepCopyGeneric copies a generic value.
func deepCopyGeneric(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[k] = deepCopyGeneric(e)
		}
		return m
	case []any:
		if x == nil {
			return x
		}
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = deepCopyGeneric(e)
		}
		return s
	}
	return v
}

// jsonKind names a generic value as encoding/json's errors do.
func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case bool:
		return "bool"
	case int64, float64:
		return "number"
	}
	return "null"
}

func numberText(v any) string {
	switch x := v.(type) {
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// decoder turns the generic form into a typed object, as the API server
// does with a patched object: with the unstructured converter's errors
// after a strategic merge patch, with the JSON decoder's after a JSON or
// merge patch. It collects the fields the type does not have, which the
// API server reports as warnings.
type decoder struct {
	jsonErrors bool
	path       []string // for unknown fields: "spec", ".template", "[0]"
	fields     []string // the JSON field names from the root, for JSON errors
	structName string   // the innermost struct, for JSON errors
	unknown    []string
}

var (
	timeType        = reflect.TypeOf(api.Time{})
	unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()
)

// typeName is a Go type as the API's errors name it (v1.PodSpec, not
// api.PodSpec).
func typeName(t reflect.Type) string { return strings.ReplaceAll(t.String(), "api.", "v1.") }

// mismatch is the error for a value of the wrong type.
func (d *decoder) mismatch(sv any, dt reflect.Type, unstructured string) error {
	if !d.jsonErrors {
		return fmt.Errorf("%s", unstructured)
	}
	for dt.Kind() == reflect.Pointer {
		dt = dt.Elem()
	}
	what := jsonKind(sv)
	if what == "number" && isNumberKind(dt.Kind()) {
		what += " " + numberText(sv)
	}
	if len(d.fields) == 0 {
		return fmt.Errorf("json: cannot unmarshal %s into Go value of type %s", what, typeName(dt))
	}
	return fmt.Errorf("json: cannot unmarshal %s into Go struct field %s.%s of type %s", what, d.structName, strings.Join(d.fields, "."), typeName(dt))
}

func isNumberKind(k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

func (d *decoder) unknownField(name string) {
	p := strings.Join(d.path, "")
	if p != "" {
		p += "."
	}
	d.unknown = append(d.unknown, fmt.Sprintf("unknown field %q", p+name))
}

// decode sets dv from sv.
func (d *decoder) decode(sv any, dv reflect.Value) error {
	dt := dv.Type()
	if sv == nil {
		dv.Set(reflect.Zero(dt))
		return nil
	}
	switch {
	case dt == timeType:
		s, ok := sv.(string)
		if !ok {
			var str string
			b, _ := json.Marshal(sv)
			return json.Unmarshal(b, &str)
		}
		t, err := api.ParseTime(s)
		if err != nil {
			return err
		}
		dv.Set(reflect.ValueOf(t))
		return nil
	case reflect.PointerTo(dt).Implements(unmarshalerType):
		b, err := json.Marshal(sv)
		if err != nil {
			return err
		}
		return dv.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(b)
	}
	switch dt.Kind() {
	case reflect.Pointer:
		p := reflect.New(dt.Elem())
		if err := d.decode(sv, p.Elem()); err != nil {
			return err
		}
		dv.Set(p)
		return nil
	case reflect.Struct:
		m, ok := sv.(map[string]any)
		if !ok {
			return d.mismatch(sv, dt, "cannot restore struct from: "+kindOfGeneric(sv))
		}
		return d.decodeStruct(m, dv)
	case reflect.Map:
		m, ok := sv.(map[string]any)
		if !ok {
			return d.mismatch(sv, dt, "cannot restore map from "+kindOfGeneric(sv))
		}
		if dt.Key().Kind() != reflect.String {
			return fmt.Errorf("cannot copy map with non-assignable keys: string %v", typeName(dt.Key()))
		}
		out := reflect.MakeMapWithSize(dt, len(m))
		for _, k := range sortedKeys(m) {
			e := reflect.New(dt.Elem()).Elem()
			if err := d.decode(m[k], e); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(dt.Key()), e)
		}
		dv.Set(out)
		return nil
	case reflect.Slice:
		s, ok := sv.([]any)
		if !ok {
			return d.mismatch(sv, dt, "cannot restore slice from "+kindOfGeneric(sv))
		}
		out := reflect.MakeSlice(dt, len(s), len(s))
		n := len(d.path)
		for i, e := range s {
			d.path = append(d.path[:n], "["+strconv.Itoa(i)+"]")
			if err := d.decode(e, out.Index(i)); err != nil {
				return err
			}
		}
		d.path = d.path[:n]
		dv.Set(out)
		return nil
	case reflect.Interface:
		dv.Set(reflect.ValueOf(sv))
		return nil
	}
	return d.decodeScalar(sv, dv)
}

// kindOfGeneric is the reflect kind of a generic value, as the
// unstructured converter names it.
func kindOfGeneric(v any) string { return reflect.TypeOf(v).Kind().String() }

func (d *decoder) decodeScalar(sv any, dv reflect.Value) error {
	dt := dv.Type()
	unrecognized := "unrecognized type: " + dt.Kind().String()
	switch x := sv.(type) {
	case string:
		if dt.Kind() == reflect.String {
			dv.SetString(x)
			return nil
		}
	case bool:
		if dt.Kind() == reflect.Bool {
			dv.SetBool(x)
			return nil
		}
	case int64:
		switch dt.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if d.jsonErrors && dv.OverflowInt(x) {
				return d.mismatch(sv, dt, "")
			}
			dv.SetInt(x)
			return nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if d.jsonErrors && (x < 0 || dv.OverflowUint(uint64(x))) {
				return d.mismatch(sv, dt, "")
			}
			dv.SetUint(uint64(x))
			return nil
		case reflect.Float32, reflect.Float64:
			dv.SetFloat(float64(x))
			return nil
		case reflect.String:
			return d.mismatch(sv, dt, fmt.Sprintf("cannot convert int64 to %s", typeName(dt)))
		}
	case float64:
		switch dt.Kind() {
		case reflect.Float32, reflect.Float64:
			dv.SetFloat(x)
			return nil
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			if x != math.Trunc(x) || d.jsonErrors {
				return d.mismatch(sv, dt, fmt.Sprintf("cannot convert float64 to %s", typeName(dt)))
			}
			dv.SetInt(int64(x))
			return nil
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if x != math.Trunc(x) || d.jsonErrors {
				return d.mismatch(sv, dt, fmt.Sprintf("cannot convert float64 to %s", typeName(dt)))
			}
			dv.SetUint(uint64(x))
			return nil
		}
	}
	return d.mismatch(sv, dt, unrecognized)
}

// field is one JSON field of a struct type.
type field struct {
	name   string
	index  int
	inline bool
}

func structFields(t reflect.Type) []field {
	var out []field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		switch {
		case tag == "-":
			continue
		case name == "" && f.Anonymous:
			out = append(out, field{index: i, inline: true})
			continue
		case name == "":
			name = f.Name
		}
		if !f.IsExported() {
			continue
		}
		out = append(out, field{name: name, index: i})
	}
	return out
}

// decodeStruct fills a struct from an object, recording the object's
// keys that no field (of the struct or of its inline structs) takes.
func (d *decoder) decodeStruct(m map[string]any, dv reflect.Value) error {
	used := map[string]bool{}
	if err := d.fillStruct(m, dv, used); err != nil {
		return err
	}
	for _, k := range sortedKeys(m) {
		if !used[k] {
			d.unknownField(k)
		}
	}
	return nil
}

func (d *decoder) fillStruct(m map[string]any, dv reflect.Value, used map[string]bool) error {
	dt := dv.Type()
	for _, f := range structFields(dt) {
		fv := dv.Field(f.index)
		if f.inline {
			if fv.Kind() == reflect.Struct {
				if err := d.fillStruct(m, fv, used); err != nil {
					return err
				}
			}
			continue
		}
		v, ok := m[f.name]
		if !ok {
			continue
		}
		used[f.name] = true
		n, nf, sn := len(d.path), len(d.fields), d.structName
		if n > 0 {
			d.path = append(d.path, "."+f.name)
		} else {
			d.path = append(d.path, f.name)
		}
		d.fields, d.structName = append(d.fields, f.name), dt.Name()
		if err := d.decode(v, fv); err != nil {
			return err
		}
		d.path, d.fields, d.structName = d.path[:n], d.fields[:nf], sn
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
