package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/scenario"
)

func TestProblemsHeadingCountsErrorsAndWarningsApart(t *testing.T) {
	e := func(line int) scenario.Diagnostic {
		return scenario.Diagnostic{Severity: scenario.Error, Line: line, Message: "bad"}
	}
	w := func(line int) scenario.Diagnostic {
		return scenario.Diagnostic{Severity: scenario.Warning, Line: line, Message: "odd"}
	}
	for _, c := range []struct {
		ds   []scenario.Diagnostic
		want string
	}{
		{nil, "No problems"},
		{[]scenario.Diagnostic{e(1)}, "1 error"},
		{[]scenario.Diagnostic{w(3)}, "1 warning"},
		{[]scenario.Diagnostic{w(3), e(1), w(9)}, "1 error · 2 warnings"},
		{[]scenario.Diagnostic{e(4), w(3), e(1)}, "2 errors · 1 warning"},
	} {
		if got := problemsHeading(c.ds); got != c.want {
			t.Errorf("%v: %q, want %q", c.ds, got, c.want)
		}
	}
}

// The list shows errors first, then warnings, each in line order; every
// problem with a line is a button that carries its line; the notes say
// whether the text runs.
func TestProblemsListOrderAndNotes(t *testing.T) {
	ed := &Editor{Dirty: true, Problems: []scenario.Diagnostic{
		{Severity: scenario.Warning, Line: 30, Column: 5, Path: "spec.foo", Message: "unknown field"},
		{Severity: scenario.Error, Line: 22, Column: 13, Path: "spec.replicas", Message: "must be greater than or equal to 0"},
		{Severity: scenario.Warning, Line: 2, Message: "kind Foo is not simulated"},
		{Severity: scenario.Error, Line: 7, Message: "bad image"},
		{Severity: scenario.Error, Message: "no line"},
	}}
	html := app.HTMLString(ed.renderProblems())
	if !strings.Contains(html, "3 errors · 2 warnings") {
		t.Errorf("heading missing:\n%s", html)
	}
	items := regexp.MustCompile(`<li class="(error|warning)"`).FindAllStringSubmatch(html, -1)
	lines := regexp.MustCompile(`data-line="(\d+)"`).FindAllStringSubmatch(html, -1)
	var sev, ln []string
	for _, m := range items {
		sev = append(sev, m[1])
	}
	for _, m := range lines {
		ln = append(ln, m[1])
	}
	if strings.Join(sev, ",") != "error,error,error,warning,warning" || strings.Join(ln, ",") != "7,22,2,30" {
		t.Errorf("order: severities %v, lines %v", sev, ln)
	}
	if !strings.Contains(html, "Edited — apply to run it.") || strings.Contains(html, "was not applied") {
		t.Error("a dirty editor says it is edited")
	}
	ed.Refused = true
	html = app.HTMLString(ed.renderProblems())
	if !strings.Contains(html, "The edit was not applied") || strings.Contains(html, "Edited — apply") {
		t.Error("a refused apply says the previous scenario keeps running")
	}
	if html := app.HTMLString((&Editor{}).renderProblems()); !strings.Contains(html, "No problems") || !strings.Contains(html, `data-testid="problems"`) || !strings.Contains(html, `role="region"`) {
		t.Errorf("empty list: %s", html)
	}
}

// Without CodeMirror (on the server, or when its script did not load) the
// editor is a textarea holding the text; the CodeMirror host is empty.
func TestEditorFallbackIsATextarea(t *testing.T) {
	p := NewPlayground()
	ed := p.editor().(*Editor)
	e := app.NewTestEngine()
	if err := e.Load(ed); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	html := app.HTMLString(ed)
	if !strings.Contains(html, "<textarea") || !regexp.MustCompile(`<textarea[^<]*data-testid="editor"`).MatchString(html) {
		t.Fatalf("no textarea editor:\n%.400s", html)
	}
	if !regexp.MustCompile(`<div [^>]*id="` + editorHostID + `"[^>]*></div>`).MatchString(html) {
		t.Error("the CodeMirror host must be rendered empty")
	}
	if strings.Count(html, `data-testid="editor"`) != 1 {
		t.Error("one element answers to data-testid=editor")
	}
	if !strings.Contains(html, "kind: Deployment") {
		t.Error("the textarea holds the scenario")
	}
}

// An edit goes into the model and storage; it is marked as not running
// until applied.
func TestEditorEditIsKeptAndMarked(t *testing.T) {
	p := NewPlayground()
	ed := p.editor().(*Editor)
	text := p.m.Source + "\n# a note\n"
	ed.edited(app.Context{}, text, false)
	if p.m.Source != text || ed.Source != text || !ed.Dirty {
		t.Fatal("the edit reaches the model and marks the editor dirty")
	}
	if saved, _, _ := p.bridge.StorageGet(storageKey); saved != text {
		t.Fatal("the edit is kept for the next visit")
	}
	p.apply(app.Context{})
	if again := p.editor().(*Editor); again.Dirty || again.Source != text {
		t.Fatal("after apply the text runs")
	}
}
