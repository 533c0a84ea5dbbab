package kubectl

import (
	"os"

	"github.com/stateflow/stateflow/engine/api"
	"strings"
	"testing"
)

// Every command is registered once, runs or changes the cluster, and
// belongs to a group the dispatcher knows when its name has two words.
func TestVerbTable(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range verbTable {
		if seen[v.name] {
			t.Errorf("%q is registered twice", v.name)
		}
		seen[v.name] = true
		if v.run == nil && v.mutation == nil {
			t.Errorf("%q neither runs nor changes the cluster", v.name)
		}
		if group, _, two := strings.Cut(v.name, " "); two != groups[group] {
			t.Errorf("%q: a two-word name must be a subcommand of a group (groups: %v)", v.name, groups)
		}
		got, rest, _, ok := lookupVerb(append(strings.Fields(v.name), "deploy/web"))
		if !ok || got.name != v.name || len(rest) != 1 || rest[0] != "deploy/web" {
			t.Errorf("lookupVerb finds %q for %q, leaving %q", got.name, v.name, rest)
		}
	}
	for group := range groups {
		if subcommands(group) == "" {
			t.Errorf("group %q has no subcommand", group)
		}
	}
	if got := subcommands("set"); got != "set image and set selector" {
		t.Errorf("set's subcommands read %q", got)
	}
	if got := mutatingVerbs(); !strings.Contains(got, "rollout pause|resume|restart|undo") || strings.Contains(got, "get") || strings.Contains(got, "rollout status") {
		t.Errorf("the commands that change the cluster read %q", got)
	}
}

// The package's doc names every command, so it stays true.
func TestDocNamesEveryVerb(t *testing.T) {
	for _, v := range verbTable {
		if !strings.Contains(packageDoc(t), v.name) {
			t.Errorf("kubectl/doc.go does not name %q", v.name)
		}
	}
}

// packageDoc is doc.go's comment as one line of words.
func packageDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(strings.Fields(strings.ReplaceAll(string(b), "//", "")), " ")
}

// Every kind the API server serves has one kubectl entry, with a get
// printer; its qualified and short names resolve to it, and kubectl's
// message about types it does not simulate lists it.
func TestKindRegistries(t *testing.T) {
	seen := map[string]bool{}
	for _, h := range kindHelpers {
		if _, served := api.LookupKind(h.kind); seen[h.kind] || !served {
			t.Errorf("helper for %q: twice, or not a kind engine/api registers", h.kind)
		}
		seen[h.kind] = true
		if h.row == nil || len(h.columns) == 0 {
			t.Errorf("%s: no get printer", h.kind)
		}
	}
	for _, k := range api.Kinds() {
		if !seen[k.Kind] {
			t.Errorf("%s: served by the API server but kubectl has no entry for it", k.Kind)
		}
	}
	for _, r := range resourceTypes() {
		for _, name := range []string{r.qualified(), r.short} {
			if got, ok := lookupResource(name); name != "" && (!ok || got.kind != r.kind) {
				t.Errorf("%q resolves to %q, want %s", name, got.kind, r.kind)
			}
		}
		if !strings.Contains(simulatedList(), r.plural) {
			t.Errorf("the simulated list leaves out %s", r.plural)
		}
	}
}
