package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// Events is the Events table, as kubectl get events -A prints it,
// narrowed by a field selector. While the tab is hidden the table is left
// for when it opens: listing the Events at every step would slow every
// step.
type Events struct {
	app.Compo
	Rev      model.Rev
	Selector string
	Shown    bool

	// events lists the Events at Rev (the view-model); setSelector
	// keeps the selector typed. go-app copies exported fields only, so
	// both stay what the page set when the panel was first mounted.
	events      eventLister
	setSelector func(string)
}

// eventLister is what the Events panel reads of the view-model.
type eventLister interface {
	Events(fieldSelector string) (out string, failed bool)
	EventCount() int
}

// Render draws the Events panel.
func (c *Events) Render() app.UI {
	var out string
	var failed bool
	if c.Shown {
		out, failed = c.events.Events(c.Selector)
	} else {
		out = itoa(c.events.EventCount()) + " Events: they are listed when this tab is open."
	}
	return app.Div().Class("events").DataSet("testid", "events").Body(
		app.Label().For("event-selector").Text("Field selector"),
		app.Input().ID("event-selector").DataSet("testid", "event-selector").Placeholder("involvedObject.kind=Pod,type=Warning").
			Value(c.Selector).Spellcheck(false).
			OnChange(func(ctx app.Context, e app.Event) { c.setSelector(ctx.JSSrc().Get("value").String()) }),
		app.Pre().Class(choose(failed, "output failed", "output")).DataSet("testid", "events-output").
			Attr("tabindex", 0).Aria("label", "Events").Text(out),
	)
}
