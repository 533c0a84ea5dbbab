package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/app/model"
)

// No component holds the page: each receives the data it renders and
// the handlers it calls. Only the two layouts of the page's state, the
// full page and the embed, hold it.
func TestNoComponentHoldsThePage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	layouts := map[string]bool{"Playground": true, "Embed": true}
	fset := token.NewFileSet()
	components := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := spec.Type.(*ast.StructType)
			if !ok || !embedsCompo(st) {
				return true
			}
			components++
			for _, field := range st.Fields.List {
				star, ok := field.Type.(*ast.StarExpr)
				if !ok {
					continue
				}
				if id, ok := star.X.(*ast.Ident); ok && (id.Name == "Playground" || id.Name == "page") && !layouts[spec.Name.Name] {
					t.Errorf("%s: component %s holds *%s: give it the data it renders and the handlers it calls", fset.Position(field.Pos()), spec.Name.Name, id.Name)
				}
			}
			return true
		})
	}
	if components < 12 {
		t.Fatalf("found %d components: the check no longer sees them", components)
	}
}

func embedsCompo(st *ast.StructType) bool {
	for _, field := range st.Fields.List {
		if sel, ok := field.Type.(*ast.SelectorExpr); ok && len(field.Names) == 0 && sel.Sel.Name == "Compo" {
			return true
		}
	}
	return false
}

// fakeEvents lists a fixed text, as the view-model would.
type fakeEvents struct{ listed []string }

func (f *fakeEvents) Events(selector string) (string, bool) {
	f.listed = append(f.listed, selector)
	return "LAST SEEN   TYPE      REASON\n5s          Warning   BackOff", selector == "bad"
}
func (f *fakeEvents) EventCount() int { return 7 }

// Components render from what they are given, with no page behind them:
// the console its transcript, the Events panel what its lister returns,
// and only while its tab is open.
func TestComponentsRenderFromTheirInputs(t *testing.T) {
	c := &Console{Entries: []model.Entry{{Command: "kubectl get pods", Output: "No resources found in default namespace."}, {Command: "kubectl nope", Output: "error: unknown command", Failed: true}}, Namespace: "default"}
	html := mount(t, c)
	if !strings.Contains(html, "$ kubectl get pods") || !strings.Contains(html, "No resources found in default namespace.") || !strings.Contains(html, `class="entry failed"`) {
		t.Errorf("the console does not show its transcript:\n%s", html)
	}

	ev := &fakeEvents{}
	hidden := mount(t, &Events{Selector: "type=Warning", events: ev})
	if len(ev.listed) != 0 || !strings.Contains(hidden, "7 Events: they are listed when this tab is open.") {
		t.Errorf("a hidden Events panel listed %v, or does not count them:\n%s", ev.listed, hidden)
	}
	shown := mount(t, &Events{Selector: "bad", Shown: true, events: ev})
	if len(ev.listed) != 1 || ev.listed[0] != "bad" || !strings.Contains(shown, "BackOff") || !strings.Contains(shown, `class="output failed"`) {
		t.Errorf("the Events panel listed %v and shows:\n%s", ev.listed, shown)
	}
}

// The components' handlers are the page's: a click in a child changes the
// page, which renders the child again with the new input.
func TestHandlersReachThePage(t *testing.T) {
	p := NewPlayground()
	mount(t, p)
	con := p.console()
	con.do.toggleWide()
	if !p.wide {
		t.Fatal("the console's Wide did not widen the page's console")
	}
	if !p.console().Wide {
		t.Fatal("the console is not told it is wide")
	}
	ins := p.inspector(p.m.Rev())
	k := p.m.Pickable().Keys[0]
	ins.choose(k)
	if p.inspector(p.m.Rev()).Selected != k {
		t.Fatalf("choosing %s in the inspector did not select it", k)
	}
}
