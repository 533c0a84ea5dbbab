package kubectl

import (
	"os"
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

// Every kind has at most one printer and one helper, each a kind kubectl
// resolves.
func TestKindRegistries(t *testing.T) {
	known := map[string]bool{}
	for _, r := range resourceTypes {
		known[r.kind] = true
	}
	seen := map[string]bool{}
	for _, h := range kindHelpers {
		if seen[h.kind] || !known[h.kind] {
			t.Errorf("helper for %q: twice, or not a resource kubectl knows", h.kind)
		}
		seen[h.kind] = true
	}
	seen = map[string]bool{}
	for _, p := range printers {
		if seen[p.kind] || !known[p.kind] {
			t.Errorf("printer for %q: twice, or not a resource kubectl knows", p.kind)
		}
		seen[p.kind] = true
	}
}
