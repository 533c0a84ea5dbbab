package apiserver

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// declaredKinds are the Kind… constants of engine/api/key.go: every kind
// the API serves.
func declaredKinds(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../api/key.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, name := range v.Names {
				if strings.HasPrefix(name.Name, "Kind") && i < len(v.Values) {
					if lit, ok := v.Values[i].(*ast.BasicLit); ok {
						k, _ := strconv.Unquote(lit.Value)
						kinds = append(kinds, k)
					}
				}
			}
		}
	}
	if len(kinds) < 15 {
		t.Fatalf("key.go declares %d kinds", len(kinds))
	}
	return kinds
}

// Every kind the API declares has a strategy, and nothing else is
// registered.
func TestEveryKindHasAStrategy(t *testing.T) {
	kinds := declaredKinds(t)
	for _, k := range kinds {
		st := strategyFor(k)
		if st == nil {
			t.Errorf("%s has no strategy: register it in strategy.go", k)
			continue
		}
		if (st.sameStatus == nil) != (st.withStatusOf == nil) && k != "Deployment" {
			t.Errorf("%s's status subresource is half there", k)
		}
	}
	if strategyFor("Widget") != nil {
		t.Error("a kind the API does not declare has a strategy")
	}
}

// An object created without its apiVersion and kind is stored with them,
// the apiVersion the kind registry serves it at (a client that sends
// JSON without them gets them back on every read).
func TestCreateSetsTheTypeMeta(t *testing.T) {
	s := newStore(t)
	for _, obj := range []api.Object{
		&api.ConfigMap{ObjectMeta: api.ObjectMeta{Name: "settings", Namespace: "default"}},
		&api.ControllerRevision{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default"}, Revision: 1},
		&api.Node{ObjectMeta: api.ObjectMeta{Name: "node-9"}},
	} {
		kind := obj.GetKind()
		created, err := s.Create(obj)
		if err != nil {
			t.Fatalf("create %s: %v", kind, err)
		}
		got := reflect.ValueOf(created).Elem().FieldByName("TypeMeta").Interface().(api.TypeMeta)
		if want := (api.TypeMeta{APIVersion: api.APIVersionOf(kind), Kind: kind}); got != want || want.APIVersion == "" {
			t.Errorf("%s stored with %+v, want %+v", kind, got, want)
		}
	}
}
