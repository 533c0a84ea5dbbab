package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// renderEvents is the Events table, as kubectl get events -A prints it,
// narrowed by a field selector. While the tab is hidden on a cluster with
// more Events than the panel lists, the table is left for when the tab
// opens: listing tens of thousands of Events at every step would slow
// every step.
func (p *Playground) renderEvents() app.UI {
	var out string
	var failed bool
	if n := p.m.EventCount(); p.tab == "events" || n <= model.EventsShown {
		out, failed = p.m.Events(p.eventSelector)
	} else {
		out = itoa(n) + " Events: they are listed when this tab is open."
	}
	return app.Div().Class("events").DataSet("testid", "events").Body(
		app.Label().For("event-selector").Text("Field selector"),
		app.Input().ID("event-selector").DataSet("testid", "event-selector").Placeholder("involvedObject.kind=Pod,type=Warning").
			Value(p.eventSelector).Spellcheck(false).
			OnChange(func(ctx app.Context, e app.Event) { p.eventSelector = ctx.JSSrc().Get("value").String() }),
		app.Pre().Class(map[bool]string{true: "output failed", false: "output"}[failed]).Text(out),
	)
}
