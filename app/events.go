package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// renderEvents is the Events table, as kubectl get events -A prints it,
// narrowed by a field selector.
func (p *Playground) renderEvents() app.UI {
	out, failed := p.m.Events(p.eventSelector)
	return app.Div().Class("events").DataSet("testid", "events").Body(
		app.Label().For("event-selector").Text("Field selector"),
		app.Input().ID("event-selector").DataSet("testid", "event-selector").Placeholder("involvedObject.kind=Pod,type=Warning").
			Value(p.eventSelector).Spellcheck(false).
			OnChange(func(ctx app.Context, e app.Event) { p.eventSelector = ctx.JSSrc().Get("value").String() }),
		app.Pre().Class(map[bool]string{true: "output failed", false: "output"}[failed]).Text(out),
	)
}
