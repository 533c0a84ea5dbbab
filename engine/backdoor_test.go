package engine

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// componentPackages are the import paths of every component's concrete
// type in a running engine with a node (so its kubelet and kube-proxy
// too): the oracle is the engine's own components, not a list.
func componentPackages(t *testing.T) map[string]bool {
	t.Helper()
	node := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1"}}
	e, err := New(Config{Seed: 1, Nodes: []*api.Node{node}})
	if err != nil {
		t.Fatal(err)
	}
	pkgs := map[string]bool{}
	for _, c := range e.w.comps {
		pkgs[reflect.TypeOf(c).Elem().PkgPath()] = true
	}
	if len(pkgs) < 10 {
		t.Fatalf("only %d component packages: %v", len(pkgs), pkgs)
	}
	return pkgs
}

// backDoors lists the type assertions and type-switch cases in src that
// name a type of one of pkgs (by import path).
func backDoors(fset *token.FileSet, f *ast.File, pkgs map[string]bool) []string {
	imported := map[string]string{} // local name → path
	for _, imp := range f.Imports {
		path, _ := strconv.Unquote(imp.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		imported[name] = path
	}
	var out []string
	check := func(typ ast.Expr) {
		if star, ok := typ.(*ast.StarExpr); ok {
			typ = star.X
		}
		if sel, ok := typ.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && pkgs[imported[id.Name]] {
				out = append(out, fset.Position(typ.Pos()).String()+": "+id.Name+"."+sel.Sel.Name)
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.TypeAssertExpr:
			if n.Type != nil {
				check(n.Type)
			}
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				for _, typ := range c.(*ast.CaseClause).List {
					check(typ)
				}
			}
		}
		return true
	})
	return out
}

// The engine reaches components through reconcile.Component and the small
// interfaces it declares (agents.go), never by a component's concrete
// type: a type assertion to *kubelet.Kubelet would be a back door past
// the layers.
func TestEngineReachesComponentsByInterface(t *testing.T) {
	pkgs := componentPackages(t)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range backDoors(fset, f, pkgs) {
			t.Errorf("%s: the engine asserts a component's concrete type; declare the interface it needs in agents.go", d)
		}
	}
}

// The check finds the back door this test exists for.
func TestBackDoorCheckFindsAConcreteAssertion(t *testing.T) {
	src := `package engine
import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/kubelet"
	px "github.com/stateflow/stateflow/engine/proxy"
)
func f(c any) {
	_ = c.(*kubelet.Kubelet)
	_ = c.(*api.Pod)
	switch c.(type) {
	case *px.Proxier:
	}
}`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "backdoor.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	got := backDoors(fset, f, componentPackages(t))
	if len(got) != 2 || !strings.HasSuffix(got[0], "kubelet.Kubelet") || !strings.HasSuffix(got[1], "px.Proxier") {
		t.Errorf("found %q, want the kubelet's and the proxy's concrete types", got)
	}
}
