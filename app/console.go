package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// Console is the kubectl console: the transcript, an input with history
// (↑/↓) and the article's commands as examples. After a command the input
// is cleared and the transcript scrolls to its newest entry; wide tables
// keep their lines and scroll sideways, and Wide gives the console the
// diagram's room too, so a wide table reads in full.
type Console struct {
	app.Compo
	Entries   []model.Entry // the transcript
	Namespace string
	Wide      bool

	do     consoleActions
	bridge bridge
	input  string
}

// consoleActions are what the console asks of the page (method values
// of the page that first mounted it: go-app copies exported fields only).
type consoleActions struct {
	run            func(command string)
	previous, next func() string // the command history, walked with ↑/↓
	toggleWide     func()
}

// Render draws the console.
func (c *Console) Render() app.UI {
	entries := c.Entries
	return app.Div().Class("console").Body(
		app.Div().Class("console-head").Body(
			app.P().Class("small").Text("kubectl runs against the simulated cluster at the current tick (namespace "+c.Namespace+"). Changes become ticks; rollout status advances the simulation."),
			app.Button().Class("console-wide").DataSet("testid", "console-wide").Aria("pressed", strconv.FormatBool(c.Wide)).
				Title(choose(c.Wide, "Give the diagram its room back", "Widen the console over the diagram, so wide tables read in full")).
				Text(choose(c.Wide, "⤡ Narrow", "⤢ Wide")).
				OnClick(func(ctx app.Context, e app.Event) { c.do.toggleWide() }),
		),
		app.Pre().Class("output").DataSet("testid", "console-output").Attr("tabindex", 0).Aria("label", "kubectl output").Aria("live", "polite").Body(
			app.Range(entries).Slice(func(i int) app.UI {
				e := entries[i]
				return app.Span().Class(choose(e.Failed, "entry failed", "entry")).Body(
					app.Span().Class("prompt").Text("$ "+e.Command+"\n"),
					app.Span().Text(e.Output),
				)
			}),
		),
		app.Form().Class("prompt-line").OnSubmit(func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			c.run(ctx)
		}).Body(
			app.Label().For("console-input").Class("prompt").Text("$"),
			app.Input().ID("console-input").DataSet("testid", "console-input").Spellcheck(false).AutoComplete(false).
				Placeholder("kubectl get pods").Aria("label", "kubectl command").Value(c.input).
				OnInput(func(ctx app.Context, e app.Event) { c.input = ctx.JSSrc().Get("value").String() }).
				OnKeyDown(func(ctx app.Context, e app.Event) {
					switch e.Get("key").String() {
					case "ArrowUp":
						e.PreventDefault()
						c.input = c.do.previous()
					case "ArrowDown":
						e.PreventDefault()
						c.input = c.do.next()
					}
				}),
			app.Button().Type("submit").Text("Run"),
		),
		app.Details().Class("examples").Body(
			app.Summary().Text("Commands from the article"),
			app.Ul().Body(
				app.Range(model.SeedCommands).Slice(func(i int) app.UI {
					cmd := model.SeedCommands[i]
					return app.Li().Body(app.Button().Class("link code").DataSet("command", cmd).Text(cmd).
						OnClick(func(ctx app.Context, e app.Event) { c.input = dataOf(ctx, "command") }))
				}),
			),
		),
	)
}

// run runs the typed command, clears the input and shows the newest entry.
func (c *Console) run(ctx app.Context) {
	c.do.run(c.input)
	c.input = ""
	// go-app drops an empty value attribute rather than setting the
	// property, so the field is cleared here.
	if in := ctx.JSSrc().Call("querySelector", "input"); in.Truthy() {
		in.Set("value", "")
	}
	ctx.Defer(func(ctx app.Context) { c.bridge.ScrollToEnd("[data-testid=console-output]") })
}
