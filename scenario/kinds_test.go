package scenario

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// Each kind a scenario reads is registered once, asks for the apiVersion
// the API serves it at, and decodes into an object of that kind.
func TestKindsAgreeWithTheAPI(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range kinds {
		if seen[k.name] {
			t.Errorf("%s is registered twice", k.name)
		}
		seen[k.name] = true
		if want := api.APIVersionOf(k.name); k.apiVersion != want {
			t.Errorf("%s: apiVersion %q, the API serves it at %q", k.name, k.apiVersion, want)
		}
		if got := k.new().GetKind(); got != "" && got != k.name {
			t.Errorf("%s decodes into a %s", k.name, got)
		}
		if kindNamed(k.name) != &kinds[len(seen)-1] {
			t.Errorf("kindNamed(%q) does not find its entry", k.name)
		}
	}
	if kindNamed("Ingress") != nil {
		t.Error("a kind the scenario does not simulate is found")
	}
}
