package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/engine/scenario"
)

// renderEditor is the YAML editor with line numbers, problem markers and
// the problems list. The textarea grows with its text, so the gutter and
// the text scroll together in one container.
func (p *Playground) renderEditor() app.UI {
	lines := strings.Count(p.m.Source, "\n") + 1
	marks := p.m.ProblemLines()
	return app.Aside().Class("editor-pane").Aria("label", "Scenario editor").Body(
		app.Div().Class("pane-title").Body(
			app.H2().Text("Scenario"),
			app.Button().DataSet("testid", "apply").Class("primary").Title("Apply the edited scenario (Ctrl/Cmd+Enter)").
				OnClick(func(ctx app.Context, e app.Event) { p.apply() }).Text("Apply"),
		),
		app.Div().Class("editor-scroll").Body(
			app.Div().Class("gutter").Aria("hidden", true).Body(
				app.Range(make([]struct{}, lines)).Slice(func(i int) app.UI {
					n := i + 1
					ds, bad := marks[n]
					cls := "ln"
					title := ""
					if bad {
						cls += " " + string(worst(ds))
						title = ds[0].String()
					}
					return app.Div().Class(cls).Title(title).Text(n)
				}),
			),
			app.Textarea().ID("editor").DataSet("testid", "editor").Class("code").Spellcheck(false).
				Wrap("off").Rows(lines+1).Aria("label", "Scenario YAML").
				Text(p.m.Source).
				OnInput(func(ctx app.Context, e app.Event) {
					p.m.Source = ctx.JSSrc().Get("value").String()
					p.save()
				}).
				OnKeyDown(func(ctx app.Context, e app.Event) {
					if e.Get("key").String() == "Enter" && (e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool()) {
						e.PreventDefault()
						p.m.Source = ctx.JSSrc().Get("value").String()
						p.apply()
					}
				}),
		),
		p.renderProblems(),
	)
}

func worst(ds []scenario.Diagnostic) scenario.Severity {
	for _, d := range ds {
		if d.Severity == scenario.Error {
			return scenario.Error
		}
	}
	return scenario.Warning
}

// renderProblems lists errors and warnings; clicking one moves the caret.
func (p *Playground) renderProblems() app.UI {
	head := "No problems"
	if n := len(p.m.Problems); n > 0 {
		head = fmt.Sprintf("%d problem(s)", n)
	}
	return app.Div().Class("problems").DataSet("testid", "problems").Role("region").Aria("label", "Problems").Body(
		app.If(p.m.Refused, func() app.UI {
			return app.P().Class("refused").Text("The edit was not applied: the previous scenario keeps running. Fix the errors below and apply again.")
		}),
		app.If(!p.m.Refused && p.m.Source != p.m.Applied, func() app.UI {
			return app.P().Class("dirty").Text("Edited — apply to run it.")
		}),
		app.H3().Text(head),
		app.Ul().Body(
			app.Range(p.m.Problems).Slice(func(i int) app.UI {
				d := p.m.Problems[i]
				return app.Li().Class(string(d.Severity)).Body(
					app.Button().Class("link").Text(d.String()).DataSet("line", d.Line).OnClick(func(ctx app.Context, e app.Event) {
						if line, err := strconv.Atoi(dataOf(ctx, "line")); err == nil && line > 0 {
							p.bridge.FocusLine("editor", line)
						}
					}),
				)
			}),
		),
	)
}
