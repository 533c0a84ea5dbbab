package app

import (
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
)

func mount(t *testing.T, p app.Composer) string {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return app.HTMLString(p)
}

// The page carries every UI hook docs/contracts.md promises.
func TestRenderHasTheContractHooks(t *testing.T) {
	p := NewPlayground()
	html := mount(t, p)
	for _, id := range []string{"editor", "apply", "examples", "step", "step-back", "play", "speed", "reset", "share", "tick", "clock",
		"problems", "flow", "tick-log", "inspector", "events", "console-input", "console-output", "run", "story", "fit",
		"tab-log", "tab-inspector", "tab-events", "tab-console", "tick-caption", "notice", "settled"} {
		if !strings.Contains(html, `data-testid="`+id+`"`) {
			t.Errorf("missing data-testid=%q", id)
		}
	}
	if !regexp.MustCompile(`<button[^>]*data-testid="play"[^>]*aria-pressed="false"|<button[^>]*aria-pressed="false"[^>]*data-testid="play"`).MatchString(html) {
		t.Error("play carries aria-pressed")
	}
	// go-app writes an attribute whose value is "true" bare.
	story := regexp.MustCompile(`<button[^>]*data-testid="story"[^>]*>`).FindString(html)
	if !regexp.MustCompile(`aria-pressed(="true")?[ >]`).MatchString(story) {
		t.Error("the page opens in the story view, and its toggle says so")
	}
	if !strings.Contains(html, ">Stateflow</h1>") {
		t.Error("the page has its title")
	}
}

func TestControlsAndKeyboard(t *testing.T) {
	p := NewPlayground()
	p.everyTick = true
	for i := 0; i < 12; i++ {
		p.key(app.Context{}, "ArrowRight")
	}
	p.key(app.Context{}, "ArrowLeft")
	if got := p.m.Status().Tick; got != 11 {
		t.Fatalf("tick %d", got)
	}
	html := mount(t, p)
	if !regexp.MustCompile(`data-testid="tick"[^>]*>11<`).MatchString(html) {
		t.Error("the tick counter shows 11")
	}
	if strings.Count(html, `data-testid="flow-node"`) < 7 {
		t.Error("the diagram shows the deployment, its ReplicaSet, pods and nodes")
	}
	p.key(app.Context{}, "Home")
	if p.m.Status().Tick != 0 {
		t.Fatal("Home resets")
	}
}

// A refused edit keeps the running simulation and says why.
func TestInvalidApply(t *testing.T) {
	p := NewPlayground()
	mount(t, p)
	p.m.Step()
	p.m.Source = strings.Replace(p.m.Source, "apiVersion: apps/v1", "apiVersion: apps/v2", 1)
	p.apply(app.Context{})
	html := app.HTMLString(p.Render())
	if !strings.Contains(html, "previous scenario keeps running") || !strings.Contains(html, `no matches for kind &#34;Deployment&#34; in version &#34;apps/v2&#34;`) || p.m.Status().Tick != 1 {
		t.Fatalf("refused apply not explained: tick %d", p.m.Status().Tick)
	}
	if !regexp.MustCompile(`<li class="error"[^>]*>\s*<button[^>]*data-line="[1-9]`).MatchString(html) {
		t.Error("the error is listed with its line")
	}
	if saved, _, _ := p.bridge.StorageGet(storageKey); saved != p.m.Source {
		t.Error("even a refused edit is kept for the next visit")
	}
}

// Opening a share link restores the scenario at its tick; a broken one
// says so and opens the default example.
func TestRestoreFromLink(t *testing.T) {
	ex, _ := examples.Get("recreate")
	p := opened(share.Encode(ex.Source, 9), "")
	mount(t, p)
	if p.m.Applied != ex.Source || p.m.Status().Tick != 9 || p.banner != "" {
		t.Fatalf("restored tick %d, banner %q", p.m.Status().Tick, p.banner)
	}
	q := opened("s=@@@", "")
	mount(t, q)
	if !strings.Contains(q.banner, "could not be opened") || q.example != examples.Default {
		t.Fatalf("banner %q example %q", q.banner, q.example)
	}
}

// opened is the page as NewPlayground opens it on a visit whose address
// has fragment, with the editor text kept from the last visit.
func opened(fragment, kept string) *Playground {
	b := newBridge()
	b.ReplaceFragment(fragment)
	if kept != "" {
		b.StorageSet(storageKey, kept)
	}
	p := newPlayground(b)
	p.restore()
	return p
}

// The page opens the visitor's scenario before its first render, and
// runs only that one: a link's, the kept editor text, or the default
// example. What is refused leaves the default example running under it,
// its text in the editor and its errors in Problems.
func TestPageRunsOnlyTheScenarioItShows(t *testing.T) {
	ex, _ := examples.Get("recreate")
	def, _ := examples.Get(examples.Default)
	broken := "apiVersion: apps/v2\nkind: Deployment\nmetadata: {name: x}\n"
	for _, tc := range []struct {
		name, fragment, kept string
		runs, editor         string
		refused              bool
	}{
		{name: "nothing", runs: def.Source, editor: def.Source},
		{name: "a link", fragment: share.Encode(ex.Source, 3), runs: ex.Source, editor: ex.Source},
		{name: "kept text", kept: ex.Source, runs: ex.Source, editor: ex.Source},
		{name: "a damaged link", fragment: "s=@@@", runs: def.Source, editor: def.Source},
		{name: "a link with errors", fragment: share.Encode(broken, 0), runs: def.Source, editor: broken, refused: true},
		{name: "kept text with errors", kept: broken, runs: def.Source, editor: broken, refused: true},
	} {
		p := opened(tc.fragment, tc.kept)
		if p.m.Applied != tc.runs || p.m.Source != tc.editor || p.m.Refused != tc.refused {
			t.Errorf("%s: runs the expected scenario %v, the editor holds it %v, refused %v", tc.name, p.m.Applied == tc.runs, p.m.Source == tc.editor, p.m.Refused)
		}
		if gen := p.m.Rev().Gen; gen != 1 {
			t.Errorf("%s: %d simulations started, want 1", tc.name, gen)
		}
	}
}

func TestRestoreFromStorage(t *testing.T) {
	ex, _ := examples.Get("scale-up-down")
	p := opened("", ex.Source)
	mount(t, p)
	if p.m.Applied != ex.Source {
		t.Fatal("the saved editor content is restored")
	}
}

// User text is rendered as text: a manifest with markup does nothing.
func TestHostileManifestIsText(t *testing.T) {
	p := NewPlayground()
	mount(t, p)
	p.m.Source = strings.Replace(p.m.Source, "    app: codartium-api\nspec:", "    app: codartium-api\n  annotations:\n    note: \"<script>alert(1)</script><img src=x onerror=alert(2)>\"\nspec:", 1)
	p.apply(app.Context{})
	p.m.RunUntilSettled()
	// The editor's text is a DOM property in the browser; the panels and
	// the diagram render user text as text nodes.
	p.m.Select(p.m.Selected)
	p.m.Run("kubectl get deploy -o yaml")
	rev := p.m.Rev()
	inspector := p.inspector(rev)
	inspector.Shown = true
	for name, c := range map[string]app.Composer{"inspector": inspector, "console": p.console(), "flow": p.flow(rev)} {
		html := mount(t, c)
		if strings.Contains(html, "<script>alert(1)") || strings.Contains(html, "<img src=x") {
			t.Fatalf("user content reached the %s as markup", name)
		}
	}
	if html := app.HTMLString(p.renderProblems()); strings.Contains(html, "<script>alert(1)") {
		t.Fatal("user content reached the problems as markup")
	}
	if html := app.HTMLString(inspector); !strings.Contains(html, "&lt;script&gt;alert(1)&lt;/script&gt;") {
		t.Fatal("the annotation is shown as text in the inspector")
	}
}

// A link to a tick far away opens at once and leaves the tick to be
// reached in slices once mounted (OnMount runs only in a browser: see
// e2e's TestLinkToAFarTick); a tick beyond the bound opens at the bound
// and says so.
func TestLinkToAFarTick(t *testing.T) {
	ex, _ := examples.Get("crash-loop")
	p := opened(share.Encode(ex.Source, 3000), "")
	if p.pendingSeek != 3000 || p.m.Status().Tick != 0 {
		t.Fatalf("restore went to tick %d at once (pending %d); a far tick is reached in slices", p.m.Status().Tick, p.pendingSeek)
	}
	q := opened(share.Encode(ex.Source, 10_000_000), "")
	if q.pendingSeek != model.MaxRunTicks || !strings.Contains(q.banner, "This link asks for tick 10000000; a link opens at most at tick 50000") {
		t.Fatalf("pending %d, banner %q", q.pendingSeek, q.banner)
	}
}

// On a cluster with more Events than the panel lists, the hidden Events
// panel waits for its tab instead of listing them at every step.
func TestHiddenEventsPanelWaitsForItsTab(t *testing.T) {
	settled := func(tab string) *Playground {
		p := NewPlayground()
		if !p.m.Apply(examples.Scale(100)) {
			t.Fatalf("%v", p.m.Problems)
		}
		p.m.RunUntilSettled()
		p.tab = tab
		return p
	}
	p := settled("log")
	n := p.m.EventCount()
	if n <= model.EventsShown {
		t.Fatalf("only %d events; the test needs more than %d", n, model.EventsShown)
	}
	html := mount(t, p)
	if !strings.Contains(html, itoa(n)+" Events: they are listed when this tab is open.") || strings.Contains(html, "most recent of") {
		t.Fatalf("hidden panel: %.300s", html[strings.Index(html, `data-testid="events"`):])
	}
	html = mount(t, settled("events"))
	if !strings.Contains(html, "The 300 most recent of "+itoa(n)+" events") {
		t.Fatalf("open panel: %.300s", html[strings.Index(html, `data-testid="events"`):])
	}
}

// preRendered is the context go-app's test engine gave the playground
// (OnPreRender runs in native tests), to dispatch on it as a handler does.
var preRendered app.Context

func (p *Playground) OnPreRender(ctx app.Context) { preRendered = ctx }

// Typing in the editor or the console updates the page (go-app updates
// the component that handled the event and its ancestors) but renders
// neither the diagram nor the log again: their inputs did not change. A
// step renders both.
func TestTypingDoesNotRenderTheFlowOrTheLog(t *testing.T) {
	p := NewPlayground()
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	flow, log := p.renders.flow, p.renders.log
	if flow == 0 || log == 0 {
		t.Fatalf("the diagram (%d) and the log (%d) were not rendered at load", flow, log)
	}
	preRendered.Dispatch(func(app.Context) { p.m.Edit(p.m.Source + "\n# a comment typed by the visitor\n") })
	e.ConsumeAll()
	preRendered.Dispatch(func(app.Context) { p.tab = "log" }) // what a keystroke in the console costs the page: an update
	e.ConsumeAll()
	if p.renders.flow != flow || p.renders.log != log {
		t.Fatalf("typing rendered the diagram %d and the log %d more times", p.renders.flow-flow, p.renders.log-log)
	}
	preRendered.Dispatch(func(app.Context) { p.step() })
	e.ConsumeAll()
	if p.renders.flow != flow+1 || p.renders.log != log+1 {
		t.Fatalf("a step rendered the diagram %d and the log %d times, want once each", p.renders.flow-flow, p.renders.log-log)
	}
}

// The components' inputs: the same before and after typing, different
// after a step.
func TestComponentInputs(t *testing.T) {
	p := NewPlayground()
	inputs := func() []any {
		rev := p.m.Rev()
		return []any{*p.flow(rev), *p.log(rev), *p.inspector(rev), *p.events(rev), *p.controls()}
	}
	before := inputs()
	p.m.Edit(p.m.Source + "\n# typed\n")
	after := inputs()
	for i := range before {
		if !exportedEqual(before[i], after[i]) {
			t.Fatalf("typing changed the inputs of %T", before[i])
		}
	}
	p.step()
	if after := inputs(); exportedEqual(before[0], after[0]) || exportedEqual(before[1], after[1]) {
		t.Fatal("a step did not change the inputs of the diagram and the log")
	}
}

// exportedEqual compares two components' exported fields, as go-app does.
func exportedEqual(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	for i := 0; i < va.NumField(); i++ {
		if !va.Type().Field(i).IsExported() || va.Type().Field(i).Anonymous {
			continue
		}
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			return false
		}
	}
	return true
}
