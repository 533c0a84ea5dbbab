package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// Caption says what the current tick did, over the diagram, as the tick
// log's row says it (in the story, the fold of quiet ticks it ends). It
// keeps a height of whole lines, so the diagram does not move as you
// step; a text longer than that ends at a line's end, and "more" (shown
// only then) opens it in full, "less" closes it. Nothing of it is behind
// a hover. It is a live region, quiet while the simulation plays.
type Caption struct {
	app.Compo
	C model.Caption
	// ID is the caption's data-testid (tick-caption, embed-caption).
	ID string
	// Quiet silences the live region (while playing or running).
	Quiet bool

	// why asks why the tick did what the caption says (nil: no "Why?").
	why func(ctx app.Context)

	bridge  bridge
	open    bool
	unwatch func()
}

// OnMount marks the caption while its text overflows it.
func (c *Caption) OnMount(ctx app.Context) {
	c.unwatch = c.bridge.MarkOverflow("[data-testid=" + c.ID + "]")
}

// OnDismount stops watching it.
func (c *Caption) OnDismount() {
	if c.unwatch != nil {
		c.unwatch()
	}
}

// Render draws the caption and its more/less toggle.
func (c *Caption) Render() app.UI {
	cls := "caption"
	if c.open {
		cls += " open"
	}
	cp := c.C
	ticks := "Tick " + itoa(cp.First)
	if cp.Last != cp.First {
		ticks = "Ticks " + itoa(cp.First) + "–" + itoa(cp.Last)
	}
	live := "polite"
	if c.Quiet {
		live = "off"
	}
	return app.Div().Class(cls).Body(
		app.P().Class("caption-text tone-"+string(cp.Tone)).DataSet("testid", c.ID).DataSet("tick", cp.Last).Aria("live", live).Body(
			app.Span().Class("caption-body").Body(
				app.Strong().Class("seq").Text(ticks+":"),
				app.If(cp.Actor != "", func() app.UI { return app.Span().Class("actor").Text(" " + cp.Actor) }),
				app.If(cp.Arrows != "", func() app.UI { return app.Span().Class("arrows").Aria("hidden", "true").Text(" " + cp.Arrows) }),
				app.Span().Class("expl").Text(choose(cp.Actor != "", " — ", " ")+cp.Text),
			),
		),
		moreButton(c.ID, c.open, func() { c.open = !c.open }),
		app.If(cp.Why && c.why != nil, func() app.UI {
			return app.Button().Class("why-ask caption-why").DataSet("testid", c.ID+"-why").
				Aria("label", "Why did tick "+itoa(cp.Last)+" do this?").Title("Trace this tick back to the user's action that caused it").Text("Why?").
				OnClick(func(ctx app.Context, e app.Event) { c.why(ctx) })
		}),
	)
}

// moreButton opens or closes a clamped text; CSS shows it only while the
// text overflows its lines (data-overflow, MarkOverflow) or is open.
func moreButton(id string, open bool, toggle func()) app.UI {
	return app.Button().Class("caption-more link").DataSet("testid", id+"-more").Aria("expanded", strconv.FormatBool(open)).
		Title(choose(open, "Show it on its lines again", "Show all of it")).
		Text(choose(open, "less ▴", "more ▾")).
		OnClick(func(ctx app.Context, e app.Event) { toggle() })
}

// Description is the scenario's description in the header: on its line
// (its lines on a phone), with "more" when it is longer.
type Description struct {
	app.Compo
	Text string

	bridge  bridge
	open    bool
	unwatch func()
}

// OnMount marks the description while it overflows.
func (d *Description) OnMount(ctx app.Context) {
	d.unwatch = d.bridge.MarkOverflow("[data-testid=description]")
}

// OnDismount stops watching it.
func (d *Description) OnDismount() {
	if d.unwatch != nil {
		d.unwatch()
	}
}

// Render draws the description and its toggle.
func (d *Description) Render() app.UI {
	cls := "description caption"
	if d.open {
		cls += " open"
	}
	return app.Div().Class(cls).Body(
		app.P().Class("scenario-description caption-text").DataSet("testid", "description").Body(
			app.Span().Class("caption-body").Text(d.Text),
		),
		moreButton("description", d.open, func() { d.open = !d.open }),
	)
}
