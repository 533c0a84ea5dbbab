package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/engine/trace"
)

// Controls is the step/play bar, the story toggle, the tick and clock,
// the timeline scrubber and the jumps to the next tick of a class. On a
// phone it is one strip (Back, Play, Step, the tick and clock, More);
// More opens the rest over the diagram, so the diagram keeps the screen.
type Controls struct {
	app.Compo
	Status           model.Status
	Notice           string
	Playing, Running bool
	Speed            int
	Story            bool // the story view: Step goes to the next visible change

	do   controlsActions
	more bool // the phone's More panel is open
}

// controlsActions are what the controls ask of the page (method values
// of the page that first mounted them: go-app copies exported fields
// only).
type controlsActions struct {
	stepBack, togglePlay, toggleRun func(ctx app.Context)
	step                            func()
	seekTo, setSpeed                func(ctx app.Context, n int)
	setEveryTick                    func(every bool)
	stepTo                          func(ctx app.Context, c trace.Class)
}

// Render draws the controls.
func (c *Controls) Render() app.UI {
	do, st := c.do, c.Status
	settled, badge, badgeTitle := "running", "running", "Components still have work scheduled."
	switch {
	case st.NeverSettles != "":
		settled, badge, badgeTitle = "never", "never settles", st.NeverSettles
	case st.Settled:
		settled, badge, badgeTitle = "settled", "settled", "The last change was at "+st.SettledAt+" (tick "+itoa(st.SettledTick)+")."
	}
	stepTitle := "Step to the next tick that changes something (→)"
	if !c.Story {
		stepTitle = "Step one tick (→)"
	}
	cls := "controls"
	if c.more {
		cls += " more-open"
	}
	return app.Div().Class(cls).Role("toolbar").Aria("label", "Time controls").Body(
		app.Div().Class("strip").Body(
			app.Button().DataSet("testid", "step-back").Class("back").Title("Step back (←)").Body(
				app.Span().Aria("hidden", "true").Text("◀"), app.Span().Class("label").Text(" Back"),
			).Disabled(st.Tick == 0).OnClick(func(ctx app.Context, e app.Event) { do.stepBack(ctx) }),
			app.Button().DataSet("testid", "play").Class("play").Aria("pressed", strconv.FormatBool(c.Playing)).Title("Play or pause (space)").Body(
				app.Span().Aria("hidden", "true").Text(choose(c.Playing, "⏸", "▶")),
				app.Span().Class("label").Text(choose(c.Playing, " Pause", " Play")),
			).OnClick(func(ctx app.Context, e app.Event) { do.togglePlay(ctx) }),
			app.Button().DataSet("testid", "step").Class("primary").Title(stepTitle).Text("Step ▶|").
				OnClick(func(ctx app.Context, e app.Event) { do.step() }),
			app.Div().Class("readout").Body(
				app.Span().Class("label").Text("tick"),
				app.Span().DataSet("testid", "tick").Class("value").Text(st.Tick),
				app.Span().Class("label").Text("time"),
				app.Span().DataSet("testid", "clock").Class("value").Text(st.Clock),
				app.Span().DataSet("testid", "settled").Class("state "+settled).Title(badgeTitle).Text(badge),
			),
			app.Button().Class("more-toggle").DataSet("testid", "more-controls").Aria("expanded", strconv.FormatBool(c.more)).
				Aria("controls", "more-controls").Title("More controls: reset, speed, run until settled, story or every tick, timeline").
				Text(choose(c.more, "✕ Close", "⋯ More")).
				OnClick(func(ctx app.Context, e app.Event) { c.more = !c.more }),
		),
		app.Div().Class("more").ID("more-controls").Body(
			app.Button().DataSet("testid", "reset").Aria("label", "Reset to tick 0 (Home)").Title("Reset (Home)").Text("⇤ Reset").
				OnClick(func(ctx app.Context, e app.Event) { do.seekTo(ctx, 0) }),
			app.Label().For("speed").Class("sr-only").Text("Speed"),
			app.Select().ID("speed").DataSet("testid", "speed").Aria("label", "Autoplay speed").
				OnChange(func(ctx app.Context, e app.Event) {
					v, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
					do.setSpeed(ctx, v)
				}).Body(
				app.Range(Speeds).Slice(func(i int) app.UI {
					return app.Option().Value(Speeds[i]).Text(speedLabel(Speeds[i])).Selected(Speeds[i] == c.Speed)
				}),
			),
			app.Button().Class("run").DataSet("testid", "run").Aria("pressed", strconv.FormatBool(c.Running)).
				Title(choose(c.Running, "Stop the run here", "Run until nothing is left to do")).
				Text(choose(c.Running, "■ Stop run", "Run until settled")).
				OnClick(func(ctx app.Context, e app.Event) { do.toggleRun(ctx) }),
			c.storyToggle(),
			app.Div().Class("timeline").Body(
				app.Input().Type("range").Min(st.First).Max(max(st.Horizon, st.Tick, 1)).Value(st.Tick).
					DataSet("testid", "timeline").Aria("label", "Timeline: jump to a tick").
					OnChange(func(ctx app.Context, e app.Event) {
						n, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
						do.seekTo(ctx, n)
					}),
				app.Span().Class("next-label").Text("next:"),
				c.nextButton(trace.Translate, "↓ translate"),
				c.nextButton(trace.Bind, "⇣ bind"),
				c.nextButton(trace.Realize, "● realize"),
				c.nextButton(trace.Aggregate, "↑ aggregate"),
				c.nextButton(trace.Event, "◇ event"),
			),
			// In More on a phone (the strip's readout says settled or not).
			app.If(st.First > 0, func() app.UI {
				return app.P().Class("notice small").DataSet("testid", "discarded").
					Text("Ticks 1–" + itoa(st.First) + " were discarded to keep memory bounded; the run can go back to tick " + itoa(st.First) + ".")
			}),
			app.P().Class("notice").Role("status").DataSet("testid", "notice").Title(c.Notice).Text(noticeText(c.Notice, st.NeverSettles)),
		),
	)
}

// storyToggle switches between the story and every tick: two pressed
// buttons side by side, the one on filled; either press flips the view
// (story's aria-pressed says the story is on).
func (c *Controls) storyToggle() app.UI {
	seg := func(id, text, title string, on bool) app.UI {
		return app.Button().Class(choose(on, "seg on", "seg")).DataSet("testid", id).
			Aria("pressed", strconv.FormatBool(on)).Title(title).Text(text).
			OnClick(func(ctx app.Context, e app.Event) { c.do.setEveryTick(c.Story) })
	}
	return app.Div().Class("story-toggle").Role("group").Aria("label", "View").Body(
		seg("story", "Story", "Story: Step and the log skip ticks that change nothing (re-checks, retries after a conflict), folded into one quiet row", c.Story),
		seg("every-tick", "Every tick", "Every tick: Step goes one tick at a time and the log lists every tick", !c.Story),
	)
}

// speedLabel names an autoplay speed.
func speedLabel(n int) string {
	if n == 1 {
		return "1 step/s"
	}
	return itoa(n) + " steps/s"
}

func (c *Controls) nextButton(class trace.Class, label string) app.UI {
	return app.Button().Class("next cls-"+class.String()).DataSet("testid", "next-"+class.String()).
		Title("Step to the next tick with a " + class.String() + " effect").Text(label).
		OnClick(func(ctx app.Context, e app.Event) { c.do.stepTo(ctx, class) })
}

// noticeText is the status line as shown: for a scenario that never
// settles only the sentence that says why (the engine's detail stays in
// the title).
func noticeText(notice, never string) string {
	if never != "" && strings.HasPrefix(notice, never) {
		return never + "."
	}
	return notice
}
