package kubectl

import (
	"encoding/json"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine/api"
)

// toMap turns an object into the generic form kubectl's printers and
// JSONPath work on. Decoding the JSON with yaml.v3 keeps integers as ints,
// so filters such as ?(@.spec.replicas==2) compare as kubectl's do.
func toMap(o any) map[string]any {
	b, err := json.Marshal(o)
	if err != nil {
		return map[string]any{"error": err.Error()}
	}
	var out map[string]any
	if err := yaml.Unmarshal(b, &out); err != nil {
		return map[string]any{"error": err.Error()}
	}
	return out
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
