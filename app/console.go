package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// renderConsole is the kubectl console: the transcript, an input with
// history (↑/↓) and the seed document's commands as examples.
func (p *Playground) renderConsole() app.UI {
	entries := p.m.Console.Entries
	return app.Div().Class("console").Body(
		app.P().Class("small").Text("kubectl runs against the simulated cluster at the current tick (namespace "+p.m.Namespace()+"). Changes become ticks; rollout status advances the simulation."),
		app.Pre().Class("output").DataSet("testid", "console-output").Aria("live", "polite").Body(
			app.Range(entries).Slice(func(i int) app.UI {
				e := entries[i]
				return app.Span().Class(map[bool]string{true: "entry failed", false: "entry"}[e.Failed]).Body(
					app.Span().Class("prompt").Text("$ "+e.Command+"\n"),
					app.Span().Text(e.Output),
				)
			}),
		),
		app.Form().Class("prompt-line").OnSubmit(func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			p.m.Run(p.consoleInput)
			p.consoleInput = ""
		}).Body(
			app.Label().For("console-input").Class("prompt").Text("$"),
			app.Input().ID("console-input").DataSet("testid", "console-input").Spellcheck(false).AutoComplete(false).
				Placeholder("kubectl get pods").Aria("label", "kubectl command").Value(p.consoleInput).
				OnInput(func(ctx app.Context, e app.Event) { p.consoleInput = ctx.JSSrc().Get("value").String() }).
				OnKeyDown(func(ctx app.Context, e app.Event) {
					switch e.Get("key").String() {
					case "ArrowUp":
						e.PreventDefault()
						p.consoleInput = p.m.Console.Previous()
					case "ArrowDown":
						e.PreventDefault()
						p.consoleInput = p.m.Console.Next()
					}
				}),
			app.Button().Type("submit").Text("Run"),
		),
		app.Details().Class("examples").Body(
			app.Summary().Text("Commands from the seed document"),
			app.Ul().Body(
				app.Range(model.SeedCommands).Slice(func(i int) app.UI {
					c := model.SeedCommands[i]
					return app.Li().Body(app.Button().Class("link code").Text(c).OnClick(func(ctx app.Context, e app.Event) { p.consoleInput = c }))
				}),
			),
		),
	)
}
