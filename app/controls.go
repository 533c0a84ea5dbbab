package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/engine/trace"
)

// renderControls is the step/play bar, the tick and clock, the timeline
// scrubber and the jumps to the next tick of a class.
func (p *Playground) renderControls() app.UI {
	st := p.m.Status()
	settled := "running"
	if st.Settled {
		settled = "settled"
	}
	return app.Div().Class("controls").Role("toolbar").Aria("label", "Time controls").Body(
		app.Div().Class("buttons").Body(
			app.Button().DataSet("testid", "reset").Aria("label", "Reset to tick 0 (Home)").Title("Reset (Home)").Text("⇤ Reset").
				OnClick(func(ctx app.Context, e app.Event) { p.seekTo(ctx, 0) }),
			app.Button().DataSet("testid", "step-back").Aria("label", "Step back one tick (←)").Title("Step back (←)").Text("◀").
				Disabled(st.Tick == 0).OnClick(func(ctx app.Context, e app.Event) { p.stepBack(ctx) }),
			app.Button().DataSet("testid", "play").Class("play").Aria("pressed", p.playing).
				Aria("label", map[bool]string{true: "Pause (space)", false: "Play (space)"}[p.playing]).
				Text(map[bool]string{true: "⏸ Pause", false: "▶ Play"}[p.playing]).
				OnClick(func(ctx app.Context, e app.Event) { p.togglePlay(ctx) }),
			app.Button().DataSet("testid", "step").Aria("label", "Step one tick (→)").Title("Step (→)").Text("▶|").
				OnClick(func(ctx app.Context, e app.Event) { p.stopPlay(); p.m.Step() }),
			app.Label().For("speed").Class("speed-label").Text("Speed"),
			app.Select().ID("speed").DataSet("testid", "speed").Aria("label", "Autoplay speed").
				OnChange(func(ctx app.Context, e app.Event) {
					v, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
					p.setSpeed(ctx, v)
				}).Body(
				app.Range(Speeds).Slice(func(i int) app.UI {
					return app.Option().Value(Speeds[i]).Text(itoa(Speeds[i]) + " ticks/s").Selected(Speeds[i] == p.speed)
				}),
			),
			app.Button().Class("run").DataSet("testid", "run").Aria("pressed", p.running).
				Title(map[bool]string{true: "Stop the run here", false: "Run until nothing is left to do"}[p.running]).
				Text(map[bool]string{true: "■ Stop run", false: "Run until settled"}[p.running]).
				OnClick(func(ctx app.Context, e app.Event) { p.toggleRun(ctx) }),
		),
		app.Div().Class("readout").Body(
			app.Span().Class("label").Text("tick"),
			app.Span().DataSet("testid", "tick").Class("value").Text(st.Tick),
			app.Span().Class("label").Text("time"),
			app.Span().DataSet("testid", "clock").Class("value").Text(st.Clock),
			app.Span().DataSet("testid", "settled").Class("state "+settled).Text(settled),
		),
		app.Div().Class("timeline").Body(
			app.Input().Type("range").Min(st.First).Max(max(st.Horizon, st.Tick, 1)).Value(st.Tick).
				DataSet("testid", "timeline").Aria("label", "Timeline: jump to a tick").
				OnChange(func(ctx app.Context, e app.Event) {
					n, _ := strconv.Atoi(ctx.JSSrc().Get("value").String())
					p.seekTo(ctx, n)
				}),
			app.Span().Class("next-label").Text("next:"),
			p.nextButton(trace.Translate, "↓ translate"),
			p.nextButton(trace.Bind, "⇣ bind"),
			p.nextButton(trace.Realize, "● realize"),
			p.nextButton(trace.Aggregate, "↑ aggregate"),
			p.nextButton(trace.Event, "◇ event"),
		),
		app.If(st.First > 0, func() app.UI {
			return app.P().Class("notice small").DataSet("testid", "discarded").
				Text("Ticks 1–" + itoa(st.First) + " were discarded to keep memory bounded; the run can go back to tick " + itoa(st.First) + ".")
		}),
		app.If(p.m.Notice != "", func() app.UI { return app.P().Class("notice").Role("status").Text(p.m.Notice) }),
	)
}

func (p *Playground) nextButton(c trace.Class, label string) app.UI {
	return app.Button().Class("next cls-"+string(c)).DataSet("testid", "next-"+string(c)).
		Aria("label", "Step to the next tick with a "+string(c)+" effect").Text(label).
		OnClick(func(ctx app.Context, e app.Event) { p.stepTo(ctx, c) })
}
