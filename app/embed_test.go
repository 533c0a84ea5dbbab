package app

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
)

// embedCtx is the context go-app's test engine gave the embed.
var embedCtx app.Context

func (e *Embed) OnPreRender(ctx app.Context) { embedCtx = ctx }

// spyBridge is a page at http://localhost/ with a fragment, whose
// storage records what is written to it.
type spyBridge struct {
	bridge
	fragment string
	store    map[string]string
}

func (b *spyBridge) Fragment() string { return b.fragment }
func (b *spyBridge) Href() string     { return "http://localhost/" + b.fragment }
func (b *spyBridge) StorageSet(key, value string) error {
	b.store[key] = value
	return nil
}
func (b *spyBridge) StorageGet(key string) (string, bool, error) {
	v, ok := b.store[key]
	return v, ok, nil
}

// embedded is an embed opened on a fragment in go-app's test engine, as
// the browser mounts it.
type embedded struct {
	t *testing.T
	e *Embed
	b *spyBridge
	x app.TestEngine
}

func openEmbed(t *testing.T, fragment string) *embedded {
	t.Helper()
	b := &spyBridge{bridge: newBridge(), fragment: fragment, store: map[string]string{}}
	e := newEmbed(b)
	x := app.NewTestEngine()
	if err := x.Load(e); err != nil {
		t.Fatal(err)
	}
	x.ConsumeAll()
	em := &embedded{t: t, e: e, b: b, x: x}
	em.do(func(ctx app.Context) { e.OnMount(ctx) })
	return em
}

// do runs f as a handler does and returns the page after it (and what
// it started) is done.
func (em *embedded) do(f func(ctx app.Context)) string {
	embedCtx.Dispatch(f)
	em.x.ConsumeAll()
	return app.HTMLString(em.e)
}

// openHref is the "Open in Stateflow" link's state.
func (em *embedded) openState() share.State {
	em.t.Helper()
	a := testid(app.HTMLString(em.e), "embed-open")
	href := html.UnescapeString(regexp.MustCompile(`href="([^"]*)"`).FindStringSubmatch(a)[1])
	if !strings.HasPrefix(href, "http://localhost/#s=") || !strings.Contains(a, `target="_blank"`) || !strings.Contains(a, `rel="noopener"`) {
		em.t.Fatalf("Open in Stateflow: %s", a)
	}
	st, err := share.Decode(href[strings.Index(href, "#"):])
	if err != nil {
		em.t.Fatal(err)
	}
	return st
}

// The embed shows the diagram, the time controls, the caption and Open
// in Stateflow, and nothing that needs more room: no editor, console,
// log, inspector, examples or Share. It writes nothing to storage.
func TestEmbedShowsThePlayerOnly(t *testing.T) {
	ex, _ := examples.Get("recreate")
	em := openEmbed(t, "#"+share.EncodeState(share.State{Scenario: ex.Source, Tick: 9, EveryTick: true}))
	p := em.e.p
	h := app.HTMLString(em.e)
	for _, id := range []string{"step-back", "play", "step", "tick", "clock", "embed-caption", "embed-open", "flow", "flow-pane", "flow-node", "notice"} {
		if testid(h, id) == "" {
			t.Errorf("the embed lacks %s", id)
		}
	}
	for _, id := range []string{"editor", "apply", "console-input", "tick-log", "inspector", "examples", "lessons", "share", "tab-log", "view-flow", "fit", "tick-caption", "timeline", "run"} {
		if testid(h, id) != "" {
			t.Errorf("the embed shows %s", id)
		}
	}
	if strings.Contains(h, `role="button"`) || strings.Contains(h, `class="legend"`) {
		t.Error("the embed's diagram has buttons (there is no inspector) or its legend")
	}
	if p.m.Applied != ex.Source || p.m.Status().Tick != 9 || !p.everyTick || em.e.problem != "" {
		t.Fatalf("the link opens at tick %d (every %v, problem %q)", p.m.Status().Tick, p.everyTick, em.e.problem)
	}
	if st := em.openState(); st.Scenario != ex.Source || st.Tick != 9 || !st.EveryTick || st.Lesson != 0 {
		t.Fatalf("Open in Stateflow carries %+v", st)
	}
	caption := testid(h, "embed-caption")
	h = em.do(func(ctx app.Context) { p.step() })
	if p.m.Status().Tick != 10 || testid(h, "embed-caption") == caption || !regexp.MustCompile(`data-testid="tick"[^>]*>10<`).MatchString(h) {
		t.Fatalf("Step: tick %d, caption %s", p.m.Status().Tick, testid(h, "embed-caption"))
	}
	if st := em.openState(); st.Tick != 10 {
		t.Fatalf("after Step, Open in Stateflow carries tick %d", st.Tick)
	}
	em.do(func(ctx app.Context) { p.stepBack(ctx) })
	em.do(func(ctx app.Context) { p.key(ctx, "ArrowRight") })
	em.do(func(ctx app.Context) { p.key(ctx, "ArrowRight") })
	if p.m.Status().Tick != 11 {
		t.Fatalf("Back, then → twice: tick %d", p.m.Status().Tick)
	}
	if len(em.b.store) != 0 {
		t.Errorf("the embed wrote to storage: %v", em.b.store)
	}
}

// An embed parses and runs only the scenario it shows: the link's, from
// its first render (before it is mounted), not the default example's
// first. A bad link runs the default example alone.
func TestEmbedRunsOnlyTheScenarioItShows(t *testing.T) {
	ex, _ := examples.Get("recreate")
	def, _ := examples.Get(examples.Default)
	for frag, want := range map[string]string{
		"#" + share.EncodeState(share.State{Scenario: ex.Source, Tick: 9}): ex.Source,
		"#s=@@@": def.Source,
		"#" + share.Encode("apiVersion: apps/v2\nkind: Deployment\nmetadata: {name: x}\n", 3): def.Source,
		"": def.Source,
	} {
		e := newEmbed(&spyBridge{bridge: newBridge(), fragment: frag, store: map[string]string{}})
		if e.p.m.Applied != want {
			t.Errorf("%.20s: before it is mounted the embed runs another scenario", frag)
		}
		if gen := e.p.m.Rev().Gen; gen != 1 {
			t.Errorf("%.20s: %d simulations started, want 1", frag, gen)
		}
	}
}

// A bad link, or a scenario with errors, says so in the frame over the
// default example; no link is the default example.
func TestEmbedBadLinks(t *testing.T) {
	def, _ := examples.Get(examples.Default)
	for frag, want := range map[string]string{
		"#s=@@@": "This embedded link could not be opened: the shared link is damaged",
		"#" + share.Encode("apiVersion: apps/v2\nkind: Deployment\nmetadata: {name: x}\n", 3): "The embedded scenario has errors, so the default example runs instead: ",
		"": "",
	} {
		em := openEmbed(t, frag)
		h := app.HTMLString(em.e)
		if em.e.problem == "" && want != "" || !strings.HasPrefix(em.e.problem, want) || em.e.p.m.Applied != def.Source {
			t.Errorf("%.20s: problem %q, the default example runs: %v", frag, em.e.problem, em.e.p.m.Applied == def.Source)
		}
		if want != "" && !strings.Contains(testid(h, "embed-problem"), `role="alert"`) {
			t.Errorf("%.20s: the problem is not shown: %s", frag, testid(h, "embed-problem"))
		}
	}
}

// A link at a lesson's step opens the player there, at the link's tick,
// without Scenario or Close; Next goes on, and Open in Stateflow carries
// the step. Nothing is kept in storage.
func TestEmbedOpensALessonAtItsStep(t *testing.T) {
	src, o := testkit.Lesson(t, "first-rollout")
	s3, _ := o.Step(2)
	em := openEmbed(t, "#"+share.EncodeState(share.State{Scenario: src, Tick: s3.Tick + 2, Lesson: 3}))
	p := em.e.p
	h := app.HTMLString(em.e)
	if lv := testid(h, "lesson"); !strings.Contains(lv, `data-step="3"`) || p.m.Status().Tick != s3.Tick+2 {
		t.Fatalf("the player: %s at tick %d", lv, p.m.Status().Tick)
	}
	for _, id := range []string{"lesson-progress", "lesson-text", "lesson-back", "lesson-next", "lesson-return"} {
		if testid(h, id) == "" {
			t.Errorf("the embed's player lacks %s", id)
		}
	}
	if testid(h, "lesson-close") != "" || testid(h, "show-scenario") != "" {
		t.Error("the embed's player offers Close or Scenario")
	}
	if !strings.Contains(h, "Stateflow lesson: How one manifest becomes running containers") {
		t.Error("the frame's heading names the lesson")
	}
	if st := em.openState(); st.Lesson != 3 || st.Tick != s3.Tick+2 || st.Scenario != src {
		t.Fatalf("Open in Stateflow carries %+v", st)
	}
	s4, _ := o.Step(3)
	h = em.do(func(ctx app.Context) { p.lessonGo(ctx, p.m.LessonStep()+1) })
	if !strings.Contains(testid(h, "lesson"), `data-step="4"`) || p.m.Status().Tick != s4.Tick {
		t.Fatalf("Next: tick %d, want %d", p.m.Status().Tick, s4.Tick)
	}
	if s4.Question != nil {
		em.do(func(ctx app.Context) { p.answer(ctx, s4.Question.Answer) })
	}
	if st := em.openState(); st.Lesson != 4 || st.Tick != s4.Tick {
		t.Fatalf("after Next, Open in Stateflow carries %+v", st)
	}
	if len(em.b.store) != 0 {
		t.Errorf("the embed wrote to storage: %v", em.b.store)
	}
}

// The embed's caption asks why its tick did what it says: the answer
// opens under the caption, numbers the objects and draws the path on the
// diagram; a step's tick is a link that keeps it open; Close closes it.
func TestEmbedCaptionAsksWhy(t *testing.T) {
	ex, _ := examples.Get(examples.Default)
	em := openEmbed(t, "#"+share.EncodeState(share.State{Scenario: ex.Source, Tick: 8, EveryTick: true}))
	p := em.e.p
	h := app.HTMLString(em.e)
	if testid(h, "embed-caption-why") == "" {
		t.Fatalf("tick 8's caption offers no Why?: %s", testid(h, "embed-caption"))
	}
	h = em.do(func(ctx app.Context) { p.askWhyHere(ctx) })
	a := p.m.Why()
	if a == nil || a.Chain == nil || !a.Tick {
		t.Fatalf("no answer: %+v", a)
	}
	steps := strings.Count(h, `data-testid="why-step"`)
	if testid(h, "why") == "" || steps != len(a.Chain.Steps) || !strings.Contains(h, "Why did tick 8 write ") {
		t.Fatalf("the embed shows %d of %d steps:\n%s", steps, len(a.Chain.Steps), testid(h, "why"))
	}
	if !strings.Contains(h, `data-why="1"`) || !strings.Contains(h, `data-testid="why-link"`) {
		t.Errorf("the diagram neither numbers the chain's objects nor draws its path")
	}
	first := a.Chain.Steps[len(a.Chain.Steps)-1].Ticks[0]
	h = em.do(func(ctx app.Context) { p.seekTo(ctx, first) })
	if p.m.Status().Tick != first || testid(h, "why") == "" {
		t.Fatalf("following the link to tick %d: at %d, answer shown %v", first, p.m.Status().Tick, testid(h, "why") != "")
	}
	h = em.do(func(ctx app.Context) { p.closeWhy(ctx) })
	if testid(h, "why") != "" || strings.Contains(h, `data-testid="why-link"`) {
		t.Error("closed, the answer or its path stays")
	}
}
