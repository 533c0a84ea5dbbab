package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/engine/trace"
)

// renderLog is the tick log: one explained line per tick, filterable by
// component and class; a click seeks to that tick. It shows a window of
// the latest matching ticks so long runs stay light. The rows are in the
// DOM oldest first, so a step appends one, and CSS shows them newest first.
func (p *Playground) renderLog() app.UI {
	rows, total := p.m.Log(p.filter)
	return app.Div().Class("log").Body(
		app.Div().Class("filters").Body(
			app.Select().Aria("label", "Filter by component").DataSet("testid", "log-component").OnChange(func(ctx app.Context, e app.Event) {
				p.filter.Component = ctx.JSSrc().Get("value").String()
			}).Body(
				app.Option().Value("").Text("all components").Selected(p.filter.Component == ""),
				app.Range(model.Components).Slice(func(i int) app.UI {
					c := model.Components[i]
					return app.Option().Value(c).Text(c).Selected(p.filter.Component == c)
				}),
			),
			app.Select().Aria("label", "Filter by effect class").DataSet("testid", "log-class").OnChange(func(ctx app.Context, e app.Event) {
				p.filter.Class = trace.Class(ctx.JSSrc().Get("value").String())
			}).Body(
				app.Option().Value("").Text("all classes").Selected(p.filter.Class == ""),
				app.Range(trace.Classes).Slice(func(i int) app.UI {
					c := trace.Classes[i]
					return app.Option().Value(string(c)).Text(c.Symbol() + " " + string(c)).Selected(p.filter.Class == c)
				}),
			),
			app.Span().Class("small").Text(fmt.Sprintf("%d of %d ticks", len(rows), total)),
		),
		app.Ol().Class("tick-log").DataSet("testid", "tick-log").Aria("label", "Tick log").Body(
			app.Range(rows).Slice(func(i int) app.UI {
				r := rows[i]
				cls := "row"
				if r.Current {
					cls += " current"
				}
				if r.Error != "" {
					cls += " failed"
				}
				text := r.Explanation
				return app.Li().Class(cls).DataSet("tick", r.Seq).Title("Go to tick "+itoa(r.Seq)).
					OnClick(func(ctx app.Context, e app.Event) {
						if seq, err := strconv.Atoi(dataOf(ctx, "tick")); err == nil {
							p.seekTo(ctx, seq)
						}
					}).Body(
					app.Span().Class("seq").Text(r.Seq),
					app.Span().Class("clock").Text(r.Clock),
					app.Span().Class("actor").Text(r.Actor),
					app.Span().Class("arrows").Text(r.Arrows),
					app.Span().Class("expl").Text(text),
					app.If(r.Error != "", func() app.UI {
						return app.Span().Class("error-tag").Title(r.Error).Text("API error: " + shorten(r.Error, 90))
					}),
				)
			}),
		),
	)
}

// shorten cuts s to n runes with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
