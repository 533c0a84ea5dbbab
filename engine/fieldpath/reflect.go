package fieldpath

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Name is the name a struct field has in a path, its JSON name: the json
// tag's name, else the Go field name. inline says the field is an embedded
// struct whose fields stand at its parent's level (ObjectMeta in a Pod).
func Name(f reflect.StructField) (name string, inline bool) {
	tag, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	if f.Anonymous && (tag == "" || strings.Contains(opts, "inline")) {
		return "", true
	}
	if tag == "" {
		return f.Name, false
	}
	return tag, false
}

// Leaf reports whether a value of type t is one value in a path although
// it is a struct: a type that marshals itself (api.Time, api.Quantity and
// api.IntOrString read as one string or number), so a path ends at it.
func Leaf(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && (t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler))
}

var marshaler = reflect.TypeFor[json.Marshaler]()
