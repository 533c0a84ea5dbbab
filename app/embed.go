package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/scenario"
)

// Embed is the page in embed mode (?embed=1), for someone else's
// <iframe> of about 800×520 (it works down to 360×600): the diagram
// fitted to its box, Step back, Play and Step with the tick and the
// clock, the current tick's row of the story as a caption, the lesson
// player when the link opens a lesson, and "Open in Stateflow", which
// carries the scenario, the tick and the step to the full page. The
// share fragment (#s=…) says what it shows. Its state and behaviour are
// the page's (page), as the full page's are; it keeps nothing
// in the browser's storage, so a page that embeds it never touches the
// visitor's own scenario or lesson progress.
type Embed struct {
	app.Compo

	p *page
	// problem is why the link could not be shown ("" if it could).
	problem string
	loaded  bool
	renders int
	// open is the "Open in Stateflow" address for the state openState,
	// made again only when that state changes.
	enc       share.Encoder
	open      string
	openState share.State
}

// NewEmbed returns the embed mode's page with the link's scenario
// loaded (the default example when there is none, or it cannot be
// opened); OnMount reaches its tick and step.
func NewEmbed() *Embed { return newEmbed(newBridge()) }

// newEmbed opens the link before the first render, so that the embed
// parses and draws only the scenario it shows: it used to load the
// default example first and replace it once mounted.
func newEmbed(b bridge) *Embed {
	e := &Embed{p: newPage(noStorage{b})}
	e.restore()
	return e
}

// noStorage is a bridge without storage: what the embed reads there is
// nothing, what it writes is dropped.
type noStorage struct{ bridge }

func (noStorage) StorageGet(string) (string, bool, error) { return "", false, nil }
func (noStorage) StorageSet(string, string) error         { return nil }

// OnMount reaches the link's tick and step (newEmbed opened it), and
// listens to the keyboard as the full page does.
func (e *Embed) OnMount(ctx app.Context) {
	e.p.start(ctx)
	ctx.Dispatch(func(ctx app.Context) { e.loaded = true })
}

// OnDismount stops autoplay, a run and the keyboard listener.
func (e *Embed) OnDismount() { e.p.stop() }

// OnAppUpdate offers a reload when a new version has been deployed.
func (e *Embed) OnAppUpdate(ctx app.Context) { e.p.updateAvailable = ctx.AppUpdateAvailable() }

// restore opens the share link in the fragment: its scenario at its tick
// (in the story or every tick), and its lesson at its step. A link that
// cannot be opened says why, over the default example.
func (e *Embed) restore() {
	p := e.p
	st, err := share.Decode(p.bridge.Fragment())
	switch {
	case err == share.ErrNoState:
		p.load(examples.Default)
	case err != nil:
		e.problem = "This embedded link could not be opened: " + err.Error() + " The default example is shown instead."
		p.load(examples.Default)
	case !p.m.Apply(st.Scenario):
		e.problem = "The embedded scenario has errors, so the default example runs instead: " + firstError(p.m.Problems)
		p.load(examples.Default)
	default:
		p.example = ""
		p.everyTick = st.EveryTick
		p.seekLink(st.Tick)
		if st.Lesson > 0 && p.m.StartLesson(st.Lesson-1) {
			p.m.KeepTick() // the link's tick stands
			p.view = "lesson"
		}
	}
}

// dismiss closes the banner whose Dismiss was pressed: the link's
// problem, or the page's banner.
func (e *Embed) dismiss(id string) {
	if id == "problem" {
		e.problem = ""
	}
	e.p.dismissBanner(id)
}

// firstError is the first error of a refused scenario, with its line.
func firstError(ds []scenario.Diagnostic) string {
	for _, d := range ds {
		if d.Severity == scenario.Error {
			return d.String()
		}
	}
	return "it does not load."
}

// openLink is the full page's address for what the embed shows now.
func (e *Embed) openLink() string {
	p := e.p
	st := share.State{Scenario: p.m.Applied, Tick: p.m.Status().Tick, EveryTick: p.everyTick, Lesson: p.m.LessonStep() + 1}
	if e.open == "" || st != e.openState {
		e.open, e.openState = model.PageBase(p.bridge.Href())+"#"+e.enc.Encode(st), st
	}
	return e.open
}

// embedTitle names what runs for a frame's title: the lesson open, else
// the scenario's description or name.
func (p *page) embedTitle() string {
	if _, title := p.m.ScenarioLesson(); title != "" && p.m.LessonOpen() {
		return "Stateflow lesson: " + title
	}
	if sc := p.m.Scenario(); sc != nil && sc.Description != "" {
		return "Stateflow: " + shorten(sc.Description, 100)
	} else if sc != nil && sc.Name != "" {
		return "Stateflow: " + sc.Name
	}
	return "Stateflow: a Kubernetes scenario, tick by tick"
}

// Render lays out the frame: a bar with the time controls and "Open in
// Stateflow", problems, then the lesson (when open) beside or above the
// caption and the diagram.
func (e *Embed) Render() app.UI {
	p := e.p
	e.renders++
	st := p.m.Status()
	lv, open := p.m.Lesson()
	why := p.m.Why()
	view := e.view(open, why != nil)
	cls := "page embed"
	if open {
		cls += " embed-lesson"
	}
	if why != nil {
		cls += " embed-why-open"
	}
	if open || why != nil {
		cls += " embed-view-" + view
	}
	return app.Div().Class(cls).DataSet("loaded", e.loaded).DataSet("renders", e.renders).Body(
		app.Header().Class("embed-bar").Body(
			app.H1().Class("sr-only").Text(p.embedTitle()),
			e.controls(st),
			app.Div().Class("readout").Body(
				app.Span().Class("label").Text("tick"),
				app.Span().DataSet("testid", "tick").Class("value").Text(st.Tick),
				app.Span().Class("label").Text("time"),
				app.Span().DataSet("testid", "clock").Class("value").Text(st.Clock),
			),
			app.A().Class("embed-open").DataSet("testid", "embed-open").Href(e.openLink()).Target("_blank").Rel("noopener").
				Title("Open this scenario at this tick in Stateflow, in a new tab").Body(
				app.Text("Open"),
				app.Span().Class("label").Text(" in Stateflow"),
				app.Span().Aria("hidden", "true").Text(" ↗"),
			),
		),
		e.banners(),
		app.If(open || why != nil, func() app.UI { return e.views(view, open, why != nil) }),
		app.Main().Class("embed-body").Body(
			app.If(open, func() app.UI {
				do := p.lessonActions()
				do.inspect = nil // the embed names the objects a step points at
				return &LessonPanel{View: lv, Tick: st.Tick, Embed: true, do: do}
			}),
			app.Section().Class("embed-stage").Aria("label", "Simulation").Body(
				&Caption{C: p.m.Caption(p.everyTick), ID: "embed-caption", Quiet: p.playing || p.running, why: p.askWhyHere, bridge: p.bridge},
				app.P().Class("notice embed-notice").Role("status").DataSet("testid", "notice").Title(p.m.Notice).
					Text(noticeText(p.m.Notice, st.NeverSettles)),
				app.Div().Class("embed-canvas").Body(
					&Flow{Rev: p.m.Rev(), Marks: p.m.LessonMarks(), Why: whyAsked(why), Compact: true,
						layout: p.m, bridge: p.bridge, rendered: &p.renders.flow},
					app.If(why != nil, func() app.UI {
						return app.Aside().Class("embed-why").Aria("label", "Why?").Body(&WhyPanel{Answer: why, do: whyActions{seek: p.seekTo, close: p.closeWhy}})
					}),
				),
			),
		),
	)
}

// view is the pane a narrow frame shows: the lesson, the "why?" answer
// or the diagram (the diagram when the pane asked for is not open).
func (e *Embed) view(lesson, why bool) string {
	switch v := e.p.view; {
	case v == "lesson" && lesson, v == "why" && why:
		return v
	}
	return "flow"
}

// views switch between the lesson, the "why?" answer and the diagram in
// a narrow frame (CSS shows them under 600 px, where they do not fit
// side by side).
func (e *Embed) views(current string, lesson, why bool) app.UI {
	p := e.p
	view := func(id, label string) app.UI {
		on := current == id
		return app.Button().Class(choose(on, "view active", "view")).DataSet("testid", "embed-view-"+id).
			Aria("pressed", strconv.FormatBool(on)).DataSet("view", id).Text(label).
			OnClick(func(ctx app.Context, ev app.Event) { p.view = dataOf(ctx, "view") })
	}
	return app.Nav().Class("embed-views").Aria("label", "Panes").Body(
		app.If(lesson, func() app.UI { return view("lesson", "Lesson") }),
		app.If(why, func() app.UI { return view("why", "Why?") }),
		view("flow", "Diagram"),
	)
}

// controls are Step back, Play (Stop while a link's far tick is being
// reached) and Step, as the full page's.
func (e *Embed) controls(st model.Status) app.UI {
	p := e.p
	playIcon, play := "▶", "Play"
	switch {
	case p.running:
		playIcon, play = "■", "Stop"
	case p.playing:
		playIcon, play = "⏸", "Pause"
	}
	stepTitle := "Step to the next tick that changes something (→)"
	if p.everyTick {
		stepTitle = "Step one tick (→)"
	}
	return app.Div().Class("embed-controls").Role("toolbar").Aria("label", "Time controls").Body(
		app.Button().DataSet("testid", "step-back").Title("Step back (←)").Body(
			app.Span().Aria("hidden", "true").Text("◀"), app.Span().Class("label").Text(" Back"),
		).Disabled(st.Tick == 0).OnClick(func(ctx app.Context, ev app.Event) { p.stepBack(ctx) }),
		app.Button().DataSet("testid", "play").Class("play").Aria("pressed", strconv.FormatBool(p.playing || p.running)).
			Title("Play or pause (space)").Body(
			app.Span().Aria("hidden", "true").Text(playIcon),
			app.Span().Class("label").Text(" "+play),
		).
			OnClick(func(ctx app.Context, ev app.Event) {
				if p.running {
					p.stopPlay()
					return
				}
				p.togglePlay(ctx)
			}),
		app.Button().DataSet("testid", "step").Class("primary").Title(stepTitle).Text("Step ▶|").
			OnClick(func(ctx app.Context, ev app.Event) { p.step() }),
	)
}

// banners are what went wrong: a link that could not be opened, a link's
// tick beyond the bound, an internal error; and a new version.
func (e *Embed) banners() app.UI {
	p := e.p
	return app.Div().Class("banners").Body(
		app.If(e.problem != "", func() app.UI { return warnBanner(e.problem, "embed-problem", "problem", e.dismiss) }),
		app.If(p.banner != "", func() app.UI { return warnBanner(p.banner, "", "banner", e.dismiss) }),
		app.If(p.m.Crash != "", func() app.UI {
			return app.Div().Class("banner error").Role("alert").Body(
				app.Strong().Text("Something went wrong inside the simulation. "),
				app.Button().Text("Reset the scenario").OnClick(func(ctx app.Context, ev app.Event) { p.resetAfterCrash(ctx) }),
			)
		}),
		app.If(p.updateAvailable, updateBanner),
	)
}
