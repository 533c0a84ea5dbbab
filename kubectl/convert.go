package kubectl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// toMap turns an object into the generic form kubectl's printers and
// JSONPath work on. Integers decode as int and other numbers as float64,
// so filters such as ?(@.spec.replicas==2) compare as kubectl's do.
func toMap(o any) map[string]any {
	b, err := json.Marshal(o)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var out map[string]any
	if err := d.Decode(&out); err != nil {
		return map[string]any{"error": err.Error()}
	}
	for k, v := range out {
		out[k] = numbers(v)
	}
	return out
}

// numbers replaces the json.Numbers in a decoded value with int or float64.
func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 0); err == nil {
			return int(i)
		}
		f, _ := x.Float64()
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	}
	return v
}

// listMap wraps objects as the List kubectl prints for several objects.
func listMap(objs []api.Object) map[string]any {
	items := make([]any, len(objs))
	for i, o := range objs {
		items[i] = toMap(o)
	}
	return map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}}
}

func toString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return "<none>"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// ToMap is the generic JSON form of an object, as kubectl -o json shows it.
func ToMap(o any) map[string]any { return toMap(o) }
