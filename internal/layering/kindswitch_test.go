package layering

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// apiKinds are the kinds engine/api declares (its Kind… constants).
func apiKinds(t *testing.T) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../../engine/api/key.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]bool{}
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				for i, name := range v.Names {
					if i >= len(v.Values) || !strings.HasPrefix(name.Name, "Kind") {
						continue
					}
					if lit, ok := v.Values[i].(*ast.BasicLit); ok {
						k, _ := strconv.Unquote(lit.Value)
						kinds[k] = true
					}
				}
			}
		}
	}
	if len(kinds) < 15 {
		t.Fatalf("engine/api/key.go declares %d kinds", len(kinds))
	}
	return kinds
}

// kindSwitches counts, in one file, the type switches over API kinds: a
// switch with cases naming two or more of kinds (types of engine/api). A
// kind's behaviour belongs to its registry entry (the API server's
// strategies, kubectl's printers), so a new kind is a new entry, not a
// new case in every switch.
func kindSwitches(f *ast.File, kinds map[string]bool) int {
	apiName := ""
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == module+"/engine/api" {
			apiName = "api"
			if imp.Name != nil {
				apiName = imp.Name.Name
			}
		}
	}
	if apiName == "" && f.Name.Name != "api" {
		return 0
	}
	isKind := func(e ast.Expr) bool {
		if star, ok := e.(*ast.StarExpr); ok {
			e = star.X
		}
		switch t := e.(type) {
		case *ast.SelectorExpr:
			id, ok := t.X.(*ast.Ident)
			return ok && id.Name == apiName && kinds[t.Sel.Name]
		case *ast.Ident:
			return f.Name.Name == "api" && kinds[t.Name]
		}
		return false
	}
	n := 0
	ast.Inspect(f, func(node ast.Node) bool {
		sw, ok := node.(*ast.TypeSwitchStmt)
		if !ok {
			return true
		}
		kinds := 0
		for _, c := range sw.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if isKind(e) {
					kinds++
				}
			}
		}
		if kinds >= 2 {
			n++
		}
		return true
	})
	return n
}

// componentPackages are left out: a component's Observe switching over
// the kinds it watches is its informers' event handlers, one per kind,
// as upstream registers them.
var componentPackages = []string{"engine/controller/", "engine/scheduler/", "engine/kubelet/", "engine/gc/", "engine/nodelifecycle/",
	"engine/proxy/", "engine/metrics/", "engine/informer/", "engine/trace/", "engine/eviction/"}

// No type switch over API kinds appears in the layers that serve every
// kind (the API types and server, kubectl, the scenario loader, the
// page): a kind's behaviour is its entry in each layer's registry
// (apiserver's strategyFor, kubectl's printers and kindHelpers, the
// scenario's kinds, the view-model's kindViews).
func TestNoNewKindSwitches(t *testing.T) {
	root := "../.."
	kinds := apiKinds(t)
	fset := token.NewFileSet()
	found := map[string]int{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() {
			switch rel {
			case "third_party", "conformance", "node_modules", ".git", "e2e", "web", "testdata":
				return filepath.SkipDir
			}
			if strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		for _, c := range componentPackages {
			if strings.HasPrefix(filepath.ToSlash(rel), c) {
				return nil
			}
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if n := kindSwitches(f, kinds); n > 0 {
			found[filepath.ToSlash(rel)] = n
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file, n := range found {
		t.Errorf("%s: %d type switches over API kinds: put the kind's behaviour in its layer's registry", file, n)
	}
}

// The check counts a switch over two kinds, not one over one kind or over
// other types.
func TestKindSwitches(t *testing.T) {
	src := `package p
import k "github.com/stateflow/stateflow/engine/api"
func f(o any) {
	switch o.(type) {
	case *k.Deployment, *k.ReplicaSet:
	}
	switch o.(type) {
	case *k.Pod:
	case error:
	}
	switch o.(type) {
	case *k.LabelSelector, *k.PodSpec:
	}
	switch x := o.(type) {
	case *k.Node:
	case *k.Service:
		_ = x
	}
}`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := kindSwitches(f, apiKinds(t)); got != 2 {
		t.Errorf("%d switches over kinds, want 2", got)
	}
}
