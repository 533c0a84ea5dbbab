package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strings"
	"testing"
)

// Every Kind constant is registered once, with a version, a resource and
// a short name as the API's discovery gives them.
func TestKindRegistry(t *testing.T) {
	declared := kindConstants(t)
	seen, shorts := map[string]bool{}, map[string]string{}
	version := regexp.MustCompile(`^([a-z0-9.]+/)?v[0-9]+((alpha|beta)[0-9]+)?$`)
	for i, k := range Kinds() {
		if seen[k.Kind] {
			t.Errorf("%s is registered twice", k.Kind)
		}
		seen[k.Kind] = true
		if !declared[k.Kind] {
			t.Errorf("%s is registered but has no Kind constant", k.Kind)
		}
		if j, ok := KindIndex(k.Kind); !ok || j != i {
			t.Errorf("KindIndex(%s) = %d, %v; want %d", k.Kind, j, ok, i)
		}
		if !version.MatchString(k.APIVersion) {
			t.Errorf("%s: apiVersion %q is not GROUP/VERSION or VERSION", k.Kind, k.APIVersion)
		}
		if k.Resource != strings.ToLower(k.Resource) || !strings.HasSuffix(k.Resource, "s") {
			t.Errorf("%s: resource %q is not a plural in lower case", k.Kind, k.Resource)
		}
		if other, ok := shorts[k.Short]; ok {
			t.Errorf("%s and %s share the short name %q", other, k.Kind, k.Short)
		}
		shorts[k.Short] = k.Kind
	}
	for kind := range declared {
		if !seen[kind] {
			t.Errorf("Kind constant %s is not registered in kinds.go", kind)
		}
	}
	if NumKinds != len(seen) {
		t.Errorf("NumKinds = %d, %d registered", NumKinds, len(seen))
	}
}

// What kubectl and the API's messages print, read from the registry.
func TestKindNames(t *testing.T) {
	for _, tc := range []struct {
		kind, short, version string
		namespaced           bool
	}{
		{KindDeployment, "deploy", "apps/v1", true},
		{KindEndpointSlice, "endpointslice", "discovery.k8s.io/v1", true},
		{KindNode, "node", "v1", false},
		{KindNodeMetrics, "nodemetrics", "metrics.k8s.io/v1beta1", false},
		{KindHorizontalPodAutoscaler, "hpa", "autoscaling/v2", true},
		{"Widget", "widget", "v1", true}, // not served
	} {
		if got := ShortKind(tc.kind); got != tc.short {
			t.Errorf("ShortKind(%s) = %q, want %q", tc.kind, got, tc.short)
		}
		if got := APIVersionOf(tc.kind); got != tc.version {
			t.Errorf("APIVersionOf(%s) = %q, want %q", tc.kind, got, tc.version)
		}
		if got := Namespaced(tc.kind); got != tc.namespaced {
			t.Errorf("Namespaced(%s) = %v, want %v", tc.kind, got, tc.namespaced)
		}
	}
}

// kindConstants are the values of the Kind… constants of key.go.
func kindConstants(t *testing.T) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "key.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 || !strings.HasPrefix(vs.Names[0].Name, "Kind") {
			return true
		}
		if lit, ok := vs.Values[0].(*ast.BasicLit); ok {
			out[strings.Trim(lit.Value, `"`)] = true
		}
		return true
	})
	if len(out) < 19 {
		t.Fatalf("found %d Kind constants in key.go", len(out))
	}
	return out
}
