package scenario

import (
	"encoding/json"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The JSON Schema documents exactly the keys the parser reads.
func TestSchemaMatchesSpec(t *testing.T) {
	b, err := os.ReadFile("../../docs/scenario.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			Spec struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"spec"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	var inSchema, inGo []string
	for k := range schema.Properties.Spec.Properties {
		inSchema = append(inSchema, k)
	}
	st := reflect.TypeOf(Spec{})
	for i := 0; i < st.NumField(); i++ {
		name, _, _ := strings.Cut(st.Field(i).Tag.Get("json"), ",")
		inGo = append(inGo, name)
	}
	sort.Strings(inSchema)
	sort.Strings(inGo)
	if !reflect.DeepEqual(inSchema, inGo) {
		t.Fatalf("schema spec keys %v, Spec fields %v", inSchema, inGo)
	}
}
