package scenario

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// Each kind a scenario reads is registered once, is one the API serves,
// and decodes into an object of that kind.
func TestKindsAgreeWithTheAPI(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range kinds {
		if seen[k.name] {
			t.Errorf("%s is registered twice", k.name)
		}
		seen[k.name] = true
		if _, served := api.LookupKind(k.name); !served {
			t.Errorf("%s: not a kind engine/api registers", k.name)
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
