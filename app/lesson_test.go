package app

import (
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/internal/testkit"
)

// loaded is a playground in go-app's test engine; do runs a handler on
// it as a click does and waits for what it started (a step resolving).
type loaded struct {
	t *testing.T
	p *Playground
	e app.TestEngine
}

func load(t *testing.T, p *Playground) *loaded {
	t.Helper()
	e := app.NewTestEngine()
	if err := e.Load(p); err != nil {
		t.Fatal(err)
	}
	e.ConsumeAll()
	return &loaded{t: t, p: p, e: e}
}

func (l *loaded) do(f func(ctx app.Context)) string {
	preRendered.Dispatch(f)
	l.e.ConsumeAll()
	return app.HTMLString(l.p)
}

// testid finds the element of a data-testid in rendered HTML (its start
// tag).
func testid(html, id string) string {
	return regexp.MustCompile(`<[a-z0-9]+ [^>]*data-testid="` + regexp.QuoteMeta(id) + `"[^>]*>`).FindString(html)
}

// Choosing a lesson loads its scenario into the editor and the engine,
// opens the player at its first step, seeks to the step's tick, marks
// its objects in the diagram and inspects the first; an answer says
// right or wrong with the proof, and Show me goes there.
func TestLessonPlayer(t *testing.T) {
	src, o := testkit.Lesson(t, "first-rollout")
	l := load(t, NewPlayground())
	html := l.do(func(ctx app.Context) { l.p.chooseLesson(ctx, "first-rollout") })
	p := l.p
	want, _ := o.Step(0)
	if p.m.Applied != src || p.m.Source != src || p.m.Status().Tick != want.Tick {
		t.Fatalf("the lesson's scenario runs at tick %d (want %d)", p.m.Status().Tick, want.Tick)
	}
	for _, s := range []string{">How one manifest becomes running containers<", ">Step 1 of 8<", `<code>kubectl apply</code>`, "<strong>desired state</strong>",
		`data-testid="lesson-question"`, ">Which component writes to the API server next?<"} {
		if !strings.Contains(html, s) {
			t.Errorf("the player lacks %s", s)
		}
	}
	if opt := regexp.MustCompile(`<option [^>]*value="first-rollout"[^>]*>`).FindString(html); !regexp.MustCompile(` selected[ >]`).MatchString(opt) {
		t.Errorf("the lessons menu shows another lesson: %s", opt)
	}
	if bar := testid(html, "lesson-bar"); !strings.Contains(bar, `max="8"`) || !strings.Contains(bar, `value="1"`) || !strings.Contains(bar, `aria-label="Lesson progress: Step 1 of 8"`) {
		t.Errorf("progress bar %s", bar)
	}
	if strings.Contains(html, `data-testid="lesson-busy"`) || strings.Contains(html, "Not quite") {
		t.Error("a resolved, unanswered step shows no working note and no feedback")
	}
	if box := testid(html, "flow-node"); box == "" {
		t.Fatal("no diagram")
	}
	deploy := regexp.MustCompile(`<g [^>]*data-kind="Deployment"[^>]*>\s*<title>[^<]*`).FindString(html)
	if !regexp.MustCompile(`class="[^"]* lesson"`).MatchString(deploy) || !strings.Contains(deploy, "the lesson&#39;s step points at it") {
		t.Error("the Deployment the step points at is not marked in the diagram, or its name does not say so")
	}
	if p.tab != "inspector" || p.m.Selected != want.Objects[0] {
		t.Errorf("the inspector shows %v (tab %s), want %v", p.m.Selected, p.tab, want.Objects[0])
	}

	q := want.Question
	wrong := (q.Answer + 1) % len(q.Choices)
	html = l.do(func(ctx app.Context) { p.answer(ctx, wrong) })
	feedback := html[strings.Index(html, `data-testid="lesson-feedback"`):]
	for _, s := range []string{"Not quite.", "You chose " + q.Choices[wrong] + "; the answer is " + q.Choices[q.Answer] + ".", "The proof: ", capitalize(q.Why)[:40], "Show me tick " + itoa(q.Proof)} {
		if !strings.Contains(feedback, s) {
			t.Errorf("the feedback lacks %q", s)
		}
	}
	html = l.do(func(ctx app.Context) { p.answer(ctx, q.Answer) })
	if !strings.Contains(html, "✓ Right: ") || strings.Contains(html, "Not quite") {
		t.Error("the right answer is not confirmed")
	}
	l.do(func(ctx app.Context) { p.showMe(ctx) })
	if p.m.Status().Tick != q.Proof {
		t.Fatalf("Show me went to tick %d, want %d", p.m.Status().Tick, q.Proof)
	}
	html = app.HTMLString(p)
	if !strings.Contains(html, `data-testid="lesson-return"`) {
		t.Error("away from the step's tick, the player offers to go back to it")
	}

	// Next resolves the next step and goes to its tick; Back returns.
	next, _ := o.Step(1)
	html = l.do(func(ctx app.Context) { p.lessonGo(ctx, 1) })
	if p.m.Status().Tick != next.Tick || !strings.Contains(html, ">Step 2 of 8<") {
		t.Fatalf("Next: tick %d, want %d", p.m.Status().Tick, next.Tick)
	}
	l.do(func(ctx app.Context) { p.lessonGo(ctx, 0) })
	if p.m.Status().Tick != want.Tick {
		t.Fatal("Back did not return to the first step's tick")
	}
	if !strings.Contains(app.HTMLString(p), "✓ Right: ") {
		t.Error("back at the first step, its answer is still shown")
	}

	// Closing keeps the place; another example closes the player too.
	html = l.do(func(ctx app.Context) { p.closeLesson() })
	if strings.Contains(html, `data-testid="lesson"`) || regexp.MustCompile(`class="box[^"]* lesson[ "]`).MatchString(html) {
		t.Error("a closed player is still drawn")
	}
	kept := model.DecodeProgress(storage(p, lessonsKey))
	if kept.Open != "" || len(kept.Lessons["first-rollout"].Answers) != 1 {
		t.Fatalf("progress kept %+v", kept)
	}
}

func storage(p *Playground, key string) string {
	v, _, _ := p.bridge.StorageGet(key)
	return v
}

// A reload finds the learner's place: the lesson open at its step, with
// its answers.
func TestLessonResumesAfterReload(t *testing.T) {
	_, o := testkit.Lesson(t, "first-rollout")
	l := load(t, NewPlayground())
	p := l.p
	l.do(func(ctx app.Context) { p.chooseLesson(ctx, "first-rollout") })
	q, _ := o.Step(0)
	l.do(func(ctx app.Context) { p.answer(ctx, q.Question.Answer) })
	l.do(func(ctx app.Context) { p.lessonGo(ctx, 2) })
	s2, _ := o.Step(2)
	wrong := (s2.Question.Answer + 1) % len(s2.Question.Choices)
	l.do(func(ctx app.Context) { p.answer(ctx, wrong) })

	again := NewPlayground()
	again.bridge = p.bridge // the same browser's storage
	again.restore()
	r := load(t, again)
	html := r.do(func(ctx app.Context) { again.resolveLesson(ctx) })
	if again.m.LessonStep() != 2 || again.m.Status().Tick != s2.Tick || !strings.Contains(html, ">Step 3 of 8<") {
		t.Fatalf("after a reload: step %d at tick %d", again.m.LessonStep()+1, again.m.Status().Tick)
	}
	if !strings.Contains(html, "You chose "+s2.Question.Choices[wrong]) {
		t.Error("after a reload, the answer given is not shown")
	}
	if again.side != "lesson" || again.view != "lesson" {
		t.Errorf("after a reload the player is not shown (side %s, view %s)", again.side, again.view)
	}
}

// A share link made at a step opens the player there, at the link's
// tick; the notice says so.
func TestLessonShareLink(t *testing.T) {
	src, o := testkit.Lesson(t, "first-rollout")
	s4, _ := o.Step(4)
	p := NewPlayground()
	p.bridge.ReplaceFragment(share.EncodeState(share.State{Scenario: src, Tick: s4.Question.Proof, Lesson: 5}))
	p.restore()
	l := load(t, p)
	html := l.do(func(ctx app.Context) { p.resolveLesson(ctx) })
	if p.m.LessonStep() != 4 || p.m.Status().Tick != s4.Question.Proof || !strings.Contains(html, ">Step 5 of 8<") {
		t.Fatalf("the link opens step %d at tick %d", p.m.LessonStep()+1, p.m.Status().Tick)
	}
	st, err := share.Decode(func() string {
		l.do(func(ctx app.Context) { p.shareScenario(ctx) })
		return p.bridge.Fragment()
	}())
	if err != nil || st.Lesson != 5 || st.Tick != s4.Question.Proof {
		t.Fatalf("sharing again: %+v %v", st, err)
	}
}

// Step text is shown, never interpreted: HTML is text and only http(s)
// links are links, opened in a new tab without an opener. A step that
// cannot resolve says so in the panel and the page keeps working.
func TestLessonTextIsSafeAndErrorsShow(t *testing.T) {
	src, _ := testkit.Lesson(t, "first-rollout")
	hostile := strings.Replace(src, "`kubectl apply` stores the Deployment", "<script>alert(1)</script> <img src=x onerror=alert(2)> [bad](javascript:alert(3)) [good](https://kubernetes.io/docs/) stores the Deployment", 1)
	hostile = strings.Replace(hostile, "goto: {at: 11s}", "goto: {tick: 100000}", 1)
	l := load(t, NewPlayground())
	p := l.p
	p.m.Source = hostile
	html := l.do(func(ctx app.Context) {
		p.apply(ctx)
		p.chooseLesson(ctx, ownLesson)
	})
	if !strings.Contains(html, "This scenario&#39;s lesson: How one manifest") {
		t.Error("the menu does not offer the scenario's own lesson")
	}
	text := testid(html, "lesson-text")
	if text == "" {
		t.Fatal("no step text")
	}
	body := html[strings.Index(html, `data-testid="lesson-text"`):]
	body = body[:strings.Index(body, "</div>")]
	if strings.Contains(body, "<script") || strings.Contains(body, "<img") || strings.Contains(body, "javascript:") {
		t.Fatalf("lesson text reached the page as markup: %s", body)
	}
	a := regexp.MustCompile(`<a [^>]*>good</a>`).FindString(body)
	if !strings.Contains(body, "&lt;script&gt;alert(1)&lt;/script&gt;") || !strings.Contains(a, `href="https://kubernetes.io/docs/"`) || !strings.Contains(a, `target="_blank"`) || !strings.Contains(a, `rel="noopener noreferrer"`) {
		t.Fatalf("step text: %s", body)
	}
	html = l.do(func(ctx app.Context) { p.lessonGo(ctx, 7) })
	if e := testid(html, "lesson-error"); !strings.Contains(e, `role="alert"`) || !strings.Contains(html, "This step cannot be shown: step 8 (line ") {
		t.Fatalf("the error is not shown: %s", e)
	}
	if p.m.Crash != "" {
		t.Fatal("a lesson's error is not a crash of the page")
	}
	tick := p.m.Status().Tick
	l.do(func(ctx app.Context) { p.step() })
	if p.m.Status().Tick == tick {
		t.Fatal("the page stopped working")
	}
}

// Typing in the editor while a lesson is open changes none of the
// player's inputs, so go-app does not render it again; a step does.
func TestTypingDoesNotRenderThePlayer(t *testing.T) {
	l := load(t, NewPlayground())
	p := l.p
	l.do(func(ctx app.Context) { p.chooseLesson(ctx, "first-rollout") })
	before := *p.lessonPanel()
	header := *p.header("")
	p.m.Edit(p.m.Source + "\n# typed\n")
	if !exportedEqual(before, *p.lessonPanel()) || !exportedEqual(header, *p.header("")) {
		t.Fatal("typing changed the inputs of the player or the header")
	}
	l.do(func(ctx app.Context) { p.lessonGo(ctx, 1) })
	if exportedEqual(before, *p.lessonPanel()) {
		t.Fatal("Next did not change the player's inputs")
	}
}

// While a step resolves the player says it is working (after a paint:
// the resolution is a dispatch of its own), and the text is already
// there; then the note goes.
func TestLessonShowsItIsWorking(t *testing.T) {
	l := load(t, NewPlayground())
	p := l.p
	preRendered.Dispatch(func(ctx app.Context) { p.chooseLesson(ctx, "first-rollout") })
	l.e.ConsumeNext()
	html := app.HTMLString(p)
	busy := testid(html, "lesson-busy")
	if !strings.Contains(busy, `role="status"`) || !regexp.MustCompile(`aria-busy(="true")?[ >]`).MatchString(testid(html, "lesson")) || !strings.Contains(html, "<code>kubectl apply</code>") {
		t.Fatalf("while resolving: %s / %s", busy, testid(html, "lesson"))
	}
	l.e.ConsumeAll()
	if html := app.HTMLString(p); strings.Contains(html, `data-testid="lesson-busy"`) || !strings.Contains(html, `data-testid="lesson-question"`) {
		t.Fatal("resolved, the player still says it is working")
	}
}
