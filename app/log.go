package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/engine/trace"
)

// Log is the tick log. In the story view every tick that changed
// something is a row and each run of ticks that changed nothing (retries,
// re-checks) is one quiet row that says why, expandable; with every tick
// shown, each tick is a row. It reaches every kept tick: it renders a
// window of rows, which follows the newest until the visitor pages back
// (Earlier, Later) or jumps to a tick. The rows are in the DOM oldest
// first, so a step appends one, and CSS shows them newest first. A click
// on a row seeks to that tick.
type Log struct {
	app.Compo
	Rev    model.Rev
	Filter model.LogFilter
	Every  bool
	Shown  bool // the panel is on screen

	// story reads the rows at Rev (the view-model); do holds what the log
	// asks of the page; rendered counts its renders (for the page's
	// tests). go-app copies exported fields only, so they stay what the
	// page set when the log was first mounted.
	story    storyReader
	do       logActions
	bridge   bridge
	rendered *int
	open     map[int]bool // folds expanded, by their first tick
	anchor   int          // the first row shown, when not following
	follow   bool         // the window ends at the newest row
	jumped   int          // the tick the visitor jumped to, highlighted
	init     bool
	gen      int             // the scenario the state above is about
	view     model.LogFilter // the filter and the view the anchor indexes
	every    bool
	tick     int // the tick at the last render
}

// storyReader is what the log reads of the view-model.
type storyReader interface {
	Story(f model.LogFilter, every bool) []model.Span
	Entry(s model.Span, f model.LogFilter) model.StoryEntry
	SpanAt(spans []model.Span, tick int) (at, first int)
}

// logActions are what the log asks of the page.
type logActions struct {
	filter func(model.LogFilter)
	seekTo func(ctx app.Context, tick int)
}

// Render draws the log.
func (c *Log) Render() app.UI {
	*c.rendered++
	if !c.init || c.gen != c.Rev.Gen {
		// A new scenario: follow its newest tick, nothing expanded.
		c.follow, c.open, c.jumped, c.init, c.gen = true, map[int]bool{}, -1, true, c.Rev.Gen
	}
	if c.view != c.Filter || c.every != c.Every || c.Rev.Tick < c.tick {
		// The anchor indexes rows of another list (a filter, the view, or
		// a trace cut back by going back in time): follow the newest again.
		c.follow, c.view, c.every = true, c.Filter, c.Every
	}
	c.tick = c.Rev.Tick
	if !c.Shown {
		return app.Div().Class("log").Body(app.Ol().Class("tick-log").DataSet("testid", "tick-log").Aria("label", "Tick log"))
	}
	m := c.story
	spans := m.Story(c.Filter, c.Every)
	start, end := c.window(len(spans))
	ticks := 0
	for _, s := range spans {
		ticks += s.Ticks
	}
	return app.Div().Class("log").Body(
		c.filters(len(spans), ticks),
		app.Div().Class("log-pager").Body(
			app.Button().DataSet("testid", "log-earlier").Disabled(start == 0).Text("◀ Earlier").
				OnClick(func(ctx app.Context, e app.Event) { c.page(-1) }),
			app.Span().Class("small").DataSet("testid", "log-range").Text(fmt.Sprintf("rows %d–%d of %d", min(start+1, end), end, len(spans))),
			app.Button().DataSet("testid", "log-later").Disabled(end >= len(spans)).Text("Later ▶").
				OnClick(func(ctx app.Context, e app.Event) { c.page(1) }),
			app.Form().Class("jump").OnSubmit(func(ctx app.Context, e app.Event) {
				e.PreventDefault()
				c.jump(ctx)
			}).Body(
				app.Label().For("log-jump").Text("Tick"),
				app.Input().ID("log-jump").DataSet("testid", "log-jump").Type("number").Min(0).Aria("label", "Find tick"),
				app.Button().Type("submit").Text("Find"),
			),
		),
		app.Ol().Class("tick-log").DataSet("testid", "tick-log").Aria("label", "Tick log").Body(
			app.Range(spans[start:end]).Slice(func(i int) app.UI { return c.entry(m.Entry(spans[start+i], c.Filter)) }),
		),
	)
}

// LogWindow is how many rows the log renders at once.
const LogWindow = 150

// window is the range of rows shown.
func (c *Log) window(n int) (int, int) {
	if c.follow {
		// The start moves in jumps of half a window, so between jumps a step
		// only appends a row.
		start := 0
		if n > LogWindow {
			start = (n - LogWindow + LogWindow/2 - 1) / (LogWindow / 2) * (LogWindow / 2)
		}
		return start, n
	}
	start := min(max(c.anchor, 0), max(n-1, 0))
	return start, min(start+LogWindow, n)
}

// page moves the window by half a window back (-1) or forward (+1).
func (c *Log) page(dir int) {
	n := len(c.story.Story(c.Filter, c.Every))
	start, _ := c.window(n)
	c.anchor = max(0, start+dir*LogWindow/2)
	c.follow = c.anchor+LogWindow >= n
	c.jumped = -1
}

// jump shows the row of the tick typed in the jump field.
func (c *Log) jump(ctx app.Context) {
	v := ctx.JSSrc().Call("querySelector", "input").Get("value").String()
	tick, err := strconv.Atoi(v)
	if err != nil {
		return
	}
	spans := c.story.Story(c.Filter, c.Every)
	if len(spans) == 0 {
		return
	}
	at, first := c.story.SpanAt(spans, tick)
	c.anchor, c.follow, c.jumped = max(0, at-LogWindow/2), false, tick
	c.open[first] = true
	ctx.Defer(func(ctx app.Context) {
		c.bridge.ScrollIntoView(".tick-log .jumped:not(.fold), .tick-log .fold.jumped")
	})
}

func (c *Log) filters(rows, ticks int) app.UI {
	components := model.Components()
	return app.Div().Class("filters").Body(
		app.Select().Aria("label", "Filter by component").DataSet("testid", "log-component").OnChange(func(ctx app.Context, e app.Event) {
			f := c.Filter
			f.Component = ctx.JSSrc().Get("value").String()
			c.do.filter(f)
		}).Body(
			app.Option().Value("").Text("all components").Selected(c.Filter.Component == ""),
			app.Range(components).Slice(func(i int) app.UI {
				name := components[i]
				return app.Option().Value(name).Text(name).Selected(c.Filter.Component == name)
			}),
		),
		app.Select().Aria("label", "Filter by effect class").DataSet("testid", "log-class").OnChange(func(ctx app.Context, e app.Event) {
			f := c.Filter
			f.Class = parseClass(ctx.JSSrc().Get("value").String())
			c.do.filter(f)
		}).Body(
			app.Option().Value("").Text("all classes").Selected(c.Filter.Class == 0),
			app.Range(trace.Classes).Slice(func(i int) app.UI {
				cl := trace.Classes[i]
				return app.Option().Value(cl.String()).Text(cl.Symbol() + " " + cl.String()).Selected(c.Filter.Class == cl)
			}),
		),
		app.Span().Class("small").DataSet("testid", "log-count").Text(fmt.Sprintf("%d rows for %d ticks", rows, ticks)),
	)
}

// entry is one row: a tick, or a fold that expands to its ticks. Each is
// a component of its own, so a step renders only the rows that changed
// (the new one, the one that stopped being current).
func (c *Log) entry(e model.StoryEntry) app.UI {
	if e.Fold == nil {
		return &logRow{Row: e.Row, Jumped: e.Row.Seq == c.jumped, l: c}
	}
	f := e.Fold
	return &logFold{Fold: *f, Open: c.open[f.First], Jumped: c.jumped >= f.First && c.jumped <= f.Last, l: c}
}

// logFold is a folded run of quiet ticks: one sentence, expandable.
type logFold struct {
	app.Compo
	Fold   model.Fold
	Open   bool
	Jumped bool

	l *Log
}

// Render draws the fold.
func (c *logFold) Render() app.UI {
	f, open := &c.Fold, c.Open
	cls := "row fold"
	if f.Current {
		cls += " current"
	}
	if c.Jumped {
		cls += " jumped"
	}
	span := "tick " + itoa(f.First)
	if f.Last != f.First {
		span = "ticks " + itoa(f.First) + "–" + itoa(f.Last)
	}
	return app.Li().Class(cls).DataSet("tick", f.First).DataSet("testid", "fold").Body(
		app.Button().Class("fold-toggle").Aria("expanded", strconv.FormatBool(open)).DataSet("tick", f.First).
			Title(choose(open, "Hide these ticks", "Show each of these ticks")).
			OnClick(func(ctx app.Context, e app.Event) {
				if seq, err := strconv.Atoi(dataOf(ctx, "tick")); err == nil {
					c.l.open[seq] = !c.l.open[seq]
					c.Open = c.l.open[seq]
				}
			}).Body(
			app.Span().Class("chevron").Aria("hidden", "true").Text(choose(open, "▾", "▸")),
			app.Span().Class("seq").Text(span),
			app.Span().Class("expl").Text(f.Text),
		),
		app.If(open, func() app.UI {
			return app.Ol().Class("folded").Body(
				app.Range(f.Rows).Slice(func(i int) app.UI {
					return &logRow{Row: f.Rows[i], Inner: true, Jumped: f.Rows[i].Seq == c.l.jumped, l: c.l}
				}),
			)
		}),
	)
}

// logRow is one tick; red (alert) only for what a user must act on.
type logRow struct {
	app.Compo
	Row    model.LogRow
	Inner  bool // inside an expanded fold
	Jumped bool

	l *Log
}

// Render draws the row.
func (c *logRow) Render() app.UI {
	r := c.Row
	cls := "row tone-" + string(r.Tone)
	if c.Inner {
		cls += " inner"
	}
	if r.Current {
		cls += " current"
	}
	if c.Jumped {
		cls += " jumped"
	}
	return app.Li().Class(cls).DataSet("tick", r.Seq).DataSet("tone", string(r.Tone)).Title("Go to tick "+itoa(r.Seq)).Attr("tabindex", 0).
		OnClick(func(ctx app.Context, e app.Event) {
			e.Call("stopPropagation")
			c.l.seek(ctx)
		}).
		OnKeyDown(func(ctx app.Context, e app.Event) {
			if e.Get("key").String() == "Enter" {
				e.Call("stopPropagation")
				c.l.seek(ctx)
			}
		}).Body(
		app.Span().Class("seq").Text(r.Seq),
		app.Span().Class("clock").Text(r.Clock),
		app.Span().Class("actor").Text(r.Actor),
		app.Span().Class("arrows").Aria("hidden", "true").Text(r.Arrows),
		app.Span().Class("expl").Text(r.Explanation),
		app.If(r.Refusal != "", func() app.UI {
			return app.Span().Class("error-tag refusal").Title(r.Error).Text("↻ " + r.Refusal)
		}).ElseIf(r.Error != "", func() app.UI {
			return app.Span().Class("error-tag").Title(r.Error).Text("API error: " + shorten(r.Error, 90))
		}),
	)
}

// seek goes to the tick of the row whose handler runs.
func (c *Log) seek(ctx app.Context) {
	if seq, err := strconv.Atoi(dataOf(ctx, "tick")); err == nil {
		c.do.seekTo(ctx, seq)
	}
}

// shorten cuts s to n runes with an ellipsis.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// parseClass is the class the filter's option names, 0 (all) for "".
func parseClass(name string) trace.Class {
	c, _ := trace.ParseClass(name)
	return c
}
