package app

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
)

// lessonsKey is where the learner's progress in the lessons is kept
// between visits (model.Progress, as JSON).
const lessonsKey = "stateflow.lessons"

// ownLesson is the lessons menu's value for the running scenario's own
// Lesson document (one written in the editor, or opened from a link).
const ownLesson = "."

// lessonEntry is one lesson of the menu, with its scenario.
type lessonEntry struct {
	Name, Title, Source string
}

// lessonItem is a lesson as the menu shows it (the Header's input, which
// go-app compares at every render of the page: without the scenarios).
type lessonItem struct {
	Name, Title string
}

func menuItems(es []lessonEntry) []lessonItem {
	out := make([]lessonItem, len(es))
	for i, e := range es {
		out[i] = lessonItem{e.Name, e.Title}
	}
	return out
}

// lessonEntries lists the lessons with their titles, read without
// parsing the scenarios (the page lists them at load).
func lessonEntries() []lessonEntry {
	var out []lessonEntry
	for _, ex := range examples.Lessons() {
		out = append(out, lessonEntry{Name: ex.Name, Title: ex.Title, Source: ex.Source})
	}
	return out
}

// lessonMenu is the lessons menu's value for what runs now: the name of
// the lesson open, ownLesson for another lesson, "" for none; own is the
// title of the running scenario's Lesson document when it is not one of
// the menu's.
func (p *page) lessonMenu() (value, own string) {
	menu := ""
	for _, e := range p.lessons {
		if e.Source == p.m.Applied {
			menu = e.Name
		}
	}
	if _, title := p.m.ScenarioLesson(); title != "" && menu == "" {
		own = title
	}
	switch {
	case !p.m.LessonOpen():
		return "", own
	case menu != "":
		return menu, own
	}
	return ownLesson, own
}

// chooseLesson opens a lesson of the menu (ownLesson: the running
// scenario's); "" closes the player.
func (p *page) chooseLesson(ctx app.Context, name string) {
	p.stopPlay()
	switch name {
	case "":
		p.closeLesson()
		return
	case ownLesson:
		p.m.StartLesson(-1)
	default:
		var entry *lessonEntry
		for i := range p.lessons {
			if p.lessons[i].Name == name {
				entry = &p.lessons[i]
			}
		}
		if entry == nil {
			return
		}
		if !p.m.OpenLesson(entry.Source, -1) {
			p.banner = "The lesson “" + entry.Title + "” cannot open: its scenario has errors (see Problems). The previous scenario keeps running."
			p.save()
			return
		}
		p.example = ""
	}
	p.banner = ""
	p.side, p.view, p.tab = "lesson", "lesson", "inspector"
	p.save()
	p.saveProgress()
	p.resolveLesson(ctx)
}

// closeLesson closes the player; the learner's place is kept.
func (p *page) closeLesson() {
	p.m.CloseLesson()
	p.side = "scenario"
	if p.view == "lesson" {
		p.view = "flow"
	}
	p.saveProgress()
}

// lessonGo goes to step i of the lesson.
func (p *page) lessonGo(ctx app.Context, i int) {
	p.stopPlay()
	p.m.LessonGo(i)
	p.saveProgress()
	p.resolveLesson(ctx)
}

// resolveLesson resolves the step shown and then seeks the simulation to
// its tick. A step resolved before does so at once; otherwise the page
// first paints the step's text with a "working" note, then resolves in
// slices of about runBudget with the browser's turn between them. A move
// to another step meanwhile makes this resolution stale: it stops.
func (p *page) resolveLesson(ctx app.Context) {
	if !p.m.LessonOpen() {
		return
	}
	if p.m.LessonCached() {
		p.resolveSlice(ctx, p.m.LessonGen())
		return
	}
	gen := p.m.LessonGen()
	ctx.Async(func() {
		p.bridge.Paint()
		ctx.Dispatch(func(ctx app.Context) { p.resolveSlice(ctx, gen) })
	})
}

func (p *page) resolveSlice(ctx app.Context, gen int) {
	if p.m.LessonGen() != gen {
		ctx.PreventUpdate()
		return
	}
	start := time.Now()
	for {
		done, seek := p.m.LessonResolve()
		if done {
			if seek >= 0 {
				p.seekTo(ctx, seek)
			}
			return
		}
		if time.Since(start) >= runBudget {
			break
		}
	}
	ctx.PreventUpdate()
	ctx.Async(func() {
		p.bridge.Yield()
		ctx.Dispatch(func(ctx app.Context) { p.resolveSlice(ctx, gen) })
	})
}

// answer answers the step's question, and brings the feedback and its
// Show me into view.
func (p *page) answer(ctx app.Context, i int) {
	p.m.LessonAnswer(i)
	p.saveProgress()
	ctx.Defer(func(ctx app.Context) { p.bridge.ScrollIntoView("[data-testid=lesson-show-me]") })
}

// showMe seeks to the tick that proves the answer (on a phone, in the
// Flow pane).
func (p *page) showMe(ctx app.Context) {
	if tick, ok := p.m.LessonProof(); ok {
		p.seekTo(ctx, tick)
		if p.view == "lesson" {
			p.view = "flow"
		}
	}
}

// saveProgress keeps the learner's place for the next visit.
func (p *page) saveProgress() {
	if err := p.bridge.StorageSet(lessonsKey, p.m.ProgressJSON()); err != nil && p.storageNotice == "" {
		p.storageNotice = "Your place in the lessons cannot be kept between visits: " + err.Error() + "."
	}
}

// nextLesson is the lesson after the one open in the menu's order.
func (p *page) nextLesson() (lessonEntry, bool) {
	value, _ := p.lessonMenu()
	for i, e := range p.lessons {
		if e.Name == value && i+1 < len(p.lessons) {
			return p.lessons[i+1], true
		}
	}
	return lessonEntry{}, false
}

// lessonPanel is the player as the page places it (nil when closed).
func (p *page) lessonPanel() *LessonPanel {
	v, ok := p.m.Lesson()
	if !ok {
		return nil
	}
	next, _ := p.nextLesson()
	return &LessonPanel{View: v, Tick: p.m.Status().Tick, Next: next.Title, do: p.lessonActions()}
}

// LessonPanel is the lesson player: the lesson's title, the step and its
// progress, the step's text, what it points at, its question with the
// learner's answer and the tick that proves it, Back and Next.
type LessonPanel struct {
	app.Compo
	View model.LessonView
	// Tick is the tick the page shows; Next the title of the lesson
	// after this one ("" if none).
	Tick int
	Next string
	// Embed is the player of the embed mode: no Scenario or Close, and
	// the objects a step points at are named, not inspected.
	Embed bool

	// do is what the player asks of the page (method values of the page
	// that first mounted it: go-app copies exported fields only).
	do lessonActions
}

// lessonActions are what the lesson player asks of the page.
type lessonActions struct {
	stepBy       func(ctx app.Context, delta int) // go to another step
	returnToStep func(ctx app.Context)            // seek back to the step's tick
	nextLesson   func(ctx app.Context)
	showScenario func()
	close        func()
	inspect      func(api.Key) // nil in the embed, which has no inspector
	answer       func(ctx app.Context, choice int)
	showMe       func(ctx app.Context)
}

// lessonActions are the page's handlers for the lesson player.
func (p *page) lessonActions() lessonActions {
	return lessonActions{stepBy: p.lessonStepBy, returnToStep: p.returnToStep, nextLesson: p.openNextLesson, showScenario: p.showScenario,
		close: p.closeLesson, inspect: p.inspect, answer: p.answer, showMe: p.showMe}
}

// lessonStepBy goes delta steps forward (or back) in the lesson.
func (p *page) lessonStepBy(ctx app.Context, delta int) { p.lessonGo(ctx, p.m.LessonStep()+delta) }

// returnToStep seeks back to the tick the lesson's step shows.
func (p *page) returnToStep(ctx app.Context) {
	if lv, ok := p.m.Lesson(); ok && !lv.Busy {
		p.seekTo(ctx, lv.Tick)
	}
}

// openNextLesson opens the lesson after the one open.
func (p *page) openNextLesson(ctx app.Context) {
	if next, ok := p.nextLesson(); ok {
		p.chooseLesson(ctx, next.Name)
	}
}

// showScenario shows the scenario's YAML in the lesson player's place.
func (p *page) showScenario() { p.side, p.view = "scenario", "scenario" }

// Render draws the player.
func (c *LessonPanel) Render() app.UI {
	v, do := c.View, c.do
	last := v.Index == v.Len-1
	progress := fmt.Sprintf("Step %d of %d", v.Index+1, v.Len)
	return app.Aside().Class("lesson-pane").ID("lesson").DataSet("testid", "lesson").Aria("label", "Lesson").
		DataSet("busy", v.Busy).DataSet("step", v.Index+1).Aria("busy", strconv.FormatBool(v.Busy)).Body(
		app.Div().Class("pane-title").Body(
			app.H2().Text("Lesson"),
			app.If(!c.Embed, func() app.UI { return c.actions() }),
		),
		app.Div().Class("lesson-scroll").Body(
			app.H3().Class("lesson-title").DataSet("testid", "lesson-title").Text(v.Title),
			app.Div().Class("lesson-progress").Body(
				app.Span().DataSet("testid", "lesson-progress").Text(progress),
				app.Progress().DataSet("testid", "lesson-bar").Max(v.Len).Value(v.Index+1).Aria("label", "Lesson progress: "+progress),
			),
			app.Div().Class("lesson-text").DataSet("testid", "lesson-text").Body(
				app.Range(v.Text).Slice(func(i int) app.UI { return paragraph(v.Text[i]) }),
			),
			app.If(v.Busy, func() app.UI {
				return app.P().Class("lesson-busy").Role("status").DataSet("testid", "lesson-busy").Body(
					app.Span().Class("spinner").Aria("hidden", "true"),
					app.Text("Working out this step: the lesson runs its simulation…"),
				)
			}),
			app.If(v.Err != "", func() app.UI {
				return app.Div().Class("lesson-error").Role("alert").DataSet("testid", "lesson-error").Body(
					app.P().Text(firstLine(v.Err)),
					app.If(strings.Contains(v.Err, "\n"), func() app.UI {
						return app.Details().Body(app.Summary().Text("Report"), app.Pre().Class("report").Text(v.Err))
					}),
					app.P().Class("small").Text("The rest of the page still works: go back a step, or look at the simulation yourself."),
				)
			}),
			app.If(!v.Busy && v.Err == "", func() app.UI { return c.look() }),
			app.If(v.Question != nil, func() app.UI { return c.question() }),
			app.If(!v.Busy && v.Err == "" && c.Tick != v.Tick, func() app.UI {
				return app.P().Class("lesson-away small").Body(
					app.Text("The simulation is at tick "+itoa(c.Tick)+"; this step shows tick "+itoa(v.Tick)+". "),
					app.Button().DataSet("testid", "lesson-return").Text("Back to tick "+itoa(v.Tick)).
						OnClick(func(ctx app.Context, e app.Event) { do.returnToStep(ctx) }),
				)
			}),
			app.If(v.Score != nil, func() app.UI { return c.score() }),
		),
		app.Nav().Class("lesson-nav").Aria("label", "Lesson steps").Body(
			app.Button().DataSet("testid", "lesson-back").Disabled(v.Index == 0).Text("◀ Back").
				OnClick(func(ctx app.Context, e app.Event) { do.stepBy(ctx, -1) }),
			app.If(!last, func() app.UI {
				return app.Button().DataSet("testid", "lesson-next").Class("primary").Text("Next ▶").
					OnClick(func(ctx app.Context, e app.Event) { do.stepBy(ctx, 1) })
			}).Else(func() app.UI {
				if c.Next == "" {
					return app.Button().DataSet("testid", "lesson-next").Disabled(true).Text("Next ▶")
				}
				return app.Button().DataSet("testid", "lesson-next-lesson").Class("primary").Title("Open the next lesson: " + c.Next).Text("Next lesson ▶").
					OnClick(func(ctx app.Context, e app.Event) { do.nextLesson(ctx) })
			}),
		),
	)
}

// actions show the scenario's YAML instead, or close the player.
func (c *LessonPanel) actions() app.UI {
	do := c.do
	return app.Div().Class("pane-actions").Body(
		app.Button().DataSet("testid", "show-scenario").Class("side-toggle").Title("Show the scenario's YAML in this column").Text("Scenario").
			OnClick(func(ctx app.Context, e app.Event) { do.showScenario() }),
		app.Button().DataSet("testid", "lesson-close").Title("Close the lesson (your place in it is kept)").Text("Close").
			OnClick(func(ctx app.Context, e app.Event) { do.close() }),
	)
}

// look is what the step points at: its objects (a click inspects one),
// a field and a component.
func (c *LessonPanel) look() app.UI {
	v := c.View
	if len(v.Objects) == 0 && v.Field == "" && v.Component == "" {
		return app.Div().Class("lesson-look")
	}
	return app.Div().Class("lesson-look").DataSet("testid", "lesson-look").Body(
		app.If(len(v.Objects) > 0, func() app.UI {
			return app.Div().Class("look-objects").Body(
				app.Span().Class("small").Text("Look at (ringed in the diagram):"),
				app.Ul().Body(app.Range(v.Objects).Slice(func(i int) app.UI {
					k := v.Objects[i]
					if c.Embed {
						return app.Li().Body(app.Code().Text(k.Short()))
					}
					return app.Li().Body(app.Button().Class("link code").DataSet("key", k.String()).Title("Inspect " + k.Short()).Text(k.Short()).
						OnClick(func(ctx app.Context, e app.Event) {
							if k, ok := api.ParseKey(dataOf(ctx, "key")); ok {
								c.do.inspect(k)
							}
						}))
				})),
			)
		}),
		app.If(v.Field != "", func() app.UI {
			return app.P().Class("small").Body(app.Text("Field: "), app.Code().Text(v.Field))
		}),
		app.If(v.Component != "", func() app.UI {
			return app.P().Class("small").Body(app.Text("Component: "), app.Code().Text(v.Component))
		}),
	)
}

// question is the step's question: one button per choice; once
// answered, the buttons mark the right choice (✓) and a wrong one (✗),
// and the feedback says which was right and the tick that proves it.
func (c *LessonPanel) question() app.UI {
	q := c.View.Question
	answered := q.Chosen >= 0
	return app.Section().Class("lesson-question").DataSet("testid", "lesson-question").Aria("labelledby", "lesson-prompt").Body(
		app.H4().Class("question-label").Text("Predict"),
		app.P().ID("lesson-prompt").Class("prompt").Text(q.Prompt),
		app.Div().Class("choices").Role("group").Aria("labelledby", "lesson-prompt").Body(
			app.Range(q.Choices).Slice(func(i int) app.UI {
				cls, mark := "choice", ""
				switch {
				case answered && i == q.Answer:
					cls, mark = "choice right", "✓ "
				case answered && i == q.Chosen:
					cls, mark = "choice wrong", "✗ "
				}
				return app.Button().Class(cls).DataSet("testid", "lesson-choice").DataSet("index", i).
					Aria("pressed", strconv.FormatBool(i == q.Chosen)).Text(mark + q.Choices[i]).
					OnClick(func(ctx app.Context, e app.Event) {
						if n, err := strconv.Atoi(dataOf(ctx, "index")); err == nil {
							c.do.answer(ctx, n)
						}
					})
			}),
		),
		app.Div().Class("lesson-feedback").Role("status").DataSet("testid", "lesson-feedback").Body(
			app.If(answered, func() app.UI { return c.feedback() }),
		),
	)
}

func (c *LessonPanel) feedback() app.UI {
	q := c.View.Question
	right := q.Choices[q.Answer]
	verdict := app.P().Class("verdict right").Body(app.Strong().Text("✓ Right: "), app.Text(right+"."))
	if q.Chosen != q.Answer {
		verdict = app.P().Class("verdict wrong").Body(
			app.Strong().Text("✗ Not quite. "),
			app.Text("You chose "+q.Choices[q.Chosen]+"; the answer is "+right+"."),
		)
	}
	return app.Div().Body(
		verdict,
		app.P().Class("why").Body(app.Strong().Text("The proof: "), app.Text(capitalize(q.Why))),
		app.If(len(q.Chain) > 0, func() app.UI {
			return app.Div().Class("why-chain").DataSet("testid", "lesson-why").Body(
				app.P().Body(app.Strong().Text("Why, newest cause first:")),
				app.Ol().Body(app.Range(q.Chain).Slice(func(i int) app.UI { return app.Li().Text(q.Chain[i]) })),
			)
		}),
		app.Button().DataSet("testid", "lesson-show-me").Title("Go to the tick that proves the answer").Text("Show me tick "+itoa(q.Proof)).
			OnClick(func(ctx app.Context, e app.Event) { c.do.showMe(ctx) }),
	)
}

// score is the learner's record, at the last step.
func (c *LessonPanel) score() app.UI {
	s := c.View.Score
	text := "This lesson asks no questions."
	if s.Questions > 0 {
		text = fmt.Sprintf("You answered %d of %d questions right at the first try", s.FirstRight, s.Questions)
		if s.Answered < s.Questions {
			text += fmt.Sprintf(" (%d not answered yet)", s.Questions-s.Answered)
		}
		text += "."
	}
	return app.P().Class("lesson-score").DataSet("testid", "lesson-score").Text(text)
}

// paragraph renders a paragraph of step text: every run is a text node
// (HTML in a lesson is shown as text), and a link opens in a new tab.
func paragraph(ps model.Paragraph) app.UI {
	return app.P().Body(app.Range(ps).Slice(func(i int) app.UI {
		in := ps[i]
		switch in.Style {
		case model.Em:
			return app.Em().Text(in.Text)
		case model.Strong:
			return app.Strong().Text(in.Text)
		case model.Code:
			return app.Code().Text(in.Text)
		case model.Link:
			return app.A().Href(in.Href).Target("_blank").Rel("noopener noreferrer").Title(in.Href + " (opens in a new tab)").Text(in.Text)
		}
		return app.Text(in.Text)
	}))
}

// lessonStrip is the player's Back and Next over the diagram on a phone
// (CSS hides it on wider screens, where the player is beside it).
func (p *page) lessonStrip(v model.LessonView) app.UI {
	return app.Div().Class("lesson-strip").Role("group").Aria("label", "Lesson steps").Body(
		app.Button().DataSet("testid", "strip-back").Disabled(v.Index == 0).Text("◀ Back").
			OnClick(func(ctx app.Context, e app.Event) { p.lessonStepBy(ctx, -1) }),
		app.Button().DataSet("testid", "strip-read").Class("strip-read").Title("Read the step").
			Text(fmt.Sprintf("Lesson step %d of %d", v.Index+1, v.Len)).
			OnClick(func(ctx app.Context, e app.Event) { p.view = "lesson" }),
		app.Button().DataSet("testid", "strip-next").Disabled(v.Index == v.Len-1).Text("Next ▶").
			OnClick(func(ctx app.Context, e app.Event) { p.lessonStepBy(ctx, 1) }),
	)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
