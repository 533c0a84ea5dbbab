package layering

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/stateflow/stateflow"

// testkit is the helpers of the tests: it may import any layer, and only
// tests may import it.
const testkit = module + "/internal/testkit"

// layers lists the layers from the bottom up; a package belongs to the
// first entry that is its path or a parent of it.
var layers = [][]string{
	{"engine/"}, // every package under engine/, not engine itself
	{"engine"},
	{"provenance"},
	{"kubectl"},
	{"scenario"},
	{"examples"},
	{"lesson"},
	{"claim"},
	{"app/model", "app/share"},
	{"app"},
	{"wasm", "cmd", "e2e", "internal"},
}

// rank is the layer of a package path inside the module, -1 outside it.
func rank(path string) int {
	if path != module && !strings.HasPrefix(path, module+"/") {
		return -1
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(path, module), "/")
	for i, layer := range layers {
		for _, p := range layer {
			under, ok := strings.CutSuffix(p, "/") // "engine/": the packages under engine only
			if ok && strings.HasPrefix(rel, under+"/") || !ok && (rel == p || strings.HasPrefix(rel, p+"/")) {
				return i
			}
		}
	}
	return len(layers)
}

// violations lists the imports that reach up a layer or to a parent
// package, or that bring testkit into a package that is not a test, in a
// graph of package → imports (not test imports).
func violations(graph map[string][]string) []string {
	var out []string
	for pkg, imports := range graph {
		r := rank(pkg)
		if r < 0 {
			continue
		}
		for _, imp := range imports {
			ri := rank(imp)
			switch {
			case imp == testkit:
				out = append(out, fmt.Sprintf("%s imports %s, which only tests may import", pkg, imp))
			case ri < 0:
			case ri > r:
				out = append(out, fmt.Sprintf("%s (layer %d) imports %s (layer %d, above it)", pkg, r, imp, ri))
			case strings.HasPrefix(pkg, imp+"/"):
				out = append(out, fmt.Sprintf("%s imports its parent %s", pkg, imp))
			case ri == len(layers) || r == len(layers):
				out = append(out, fmt.Sprintf("%s or %s belongs to no layer: add it to layers", pkg, imp))
			}
		}
	}
	return out
}

// The packages of the module (not their tests) import only layers below
// theirs, never a parent.
func TestImportsGoDown(t *testing.T) {
	cmd := exec.Command("go", "list", "-json", module+"/...")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	graph := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		graph[p.ImportPath] = p.Imports
	}
	if len(graph) < 20 {
		t.Fatalf("go list found %d packages", len(graph))
	}
	for _, v := range violations(graph) {
		t.Error(v)
	}
}

// The rule catches what it must: a part of the engine importing the
// engine, the engine importing kubectl, kubectl the scenario loader, the
// model the components, a program the test helpers; and lets a layer use
// the ones below it.
func TestViolations(t *testing.T) {
	m := func(p string) string { return module + "/" + p }
	for _, tc := range []struct {
		pkg, imp string
		bad      bool
	}{
		{"engine/kubelet", "engine", true},
		{"engine", "kubectl", true},
		{"kubectl", "scenario", true},
		{"engine/apiserver", "app/model", true},
		{"app/model", "app", true},
		{"engine", "engine/kubelet", false},
		{"engine/kubelet", "engine/api", false},
		{"scenario", "kubectl", false},
		{"app", "app/model", false},
		{"cmd/stateflow", "app", false},
		{"cmd/stateflow", "internal/testkit", true},
		{"engine", "internal/testkit", true},
		{"internal/testkit", "scenario", false},
		{"internal/testkit", "engine/trace", false},
		{"claim", "lesson", false},
		{"claim", "kubectl", false},
		{"lesson", "claim", true},
		{"claim", "app/model", true},
	} {
		got := violations(map[string][]string{m(tc.pkg): {m(tc.imp), "fmt"}})
		if (len(got) > 0) != tc.bad {
			t.Errorf("%s importing %s: violations %q, want bad=%v", tc.pkg, tc.imp, got, tc.bad)
		}
	}
}
