package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/provenance"
)

// This file is the inspector's "Why?": a field's provenance (package
// provenance) as a short story, one line per step, newest first, each
// step's tick a link to it; the diagram numbers the objects of the steps.

// whyButton asks why the field has its value (its data-field: go-app
// keeps a handler's first closure, which would ask about the field the
// button first showed).
func (c *Inspector) whyButton(field, testid string) app.UI {
	return app.Button().Class("why-ask").DataSet("testid", testid).DataSet("field", field).Text("Why?").
		Aria("label", "Why does "+field+" have this value?").
		OnClick(func(ctx app.Context, e app.Event) { c.why.ask(ctx, dataOf(ctx, "field")) })
}

// whyMenu offers every status field of the object to ask about.
func (c *Inspector) whyMenu(in model.Inspection) app.UI {
	field := in.WhyFields[0]
	for _, f := range in.WhyFields {
		if f == c.field {
			field = f
		}
	}
	return app.Div().Class("why-menu").Body(
		app.Label().For("why-field").Text("Ask why a field has its value:"),
		app.Select().ID("why-field").DataSet("testid", "why-field").
			OnChange(func(ctx app.Context, e app.Event) { c.field = ctx.JSSrc().Get("value").String() }).
			Body(app.Range(in.WhyFields).Slice(func(i int) app.UI {
				f := in.WhyFields[i]
				return app.Option().Value(f).Text(f).Selected(f == field)
			})),
		app.Button().Class("why-ask").DataSet("testid", "why-ask").DataSet("field", field).Text("Why?").
			Aria("label", "Why does the field chosen have this value?").
			OnClick(func(ctx app.Context, e app.Event) { c.why.ask(ctx, menuField(ctx)) }),
	)
}

// menuField is the field the menu's select shows at the click, read from
// the page: the button's data-field is only as new as the last render, so
// a click right after a choice would ask about the field before it.
func menuField(ctx app.Context) string {
	if v := app.Window().GetElementByID("why-field"); v.Truthy() {
		return v.Get("value").String()
	}
	return dataOf(ctx, "field")
}

// WhyPanel is an open "why?" answer: the question, the value, and the
// chain as a story, newest cause first, each step's tick a link that
// seeks to it. The inspector shows it under the object; the embed under
// its caption.
type WhyPanel struct {
	app.Compo
	Answer *model.WhyAnswer

	do whyActions
}

// whyHead is the question an answer answers, with the value.
func whyHead(a *model.WhyAnswer) string {
	switch {
	case a.Tick && a.Chain != nil:
		return "Why did tick " + strconv.Itoa(a.At) + " write " + a.Key.Short() + "?"
	case a.Tick:
		return "Why did tick " + strconv.Itoa(a.At) + " do this?"
	case a.Chain != nil:
		return "Why is " + a.Field + " = " + provenance.FormatValue(a.Chain.Value, a.Chain.Set) + "?"
	}
	return "Why is " + a.Field + "?"
}

// Render draws the answer: its head with Close, then the error or the
// story.
func (c *WhyPanel) Render() app.UI {
	a := c.Answer
	if a == nil {
		return app.Section().Class("why-answer").DataSet("testid", "why")
	}
	head := whyHead(a)
	return app.Section().Class("why-answer").DataSet("testid", "why").DataSet("tick-question", a.Tick).Aria("label", head).Body(
		app.Div().Class("why-head").Body(
			app.H3().Text(head),
			app.Button().Class("why-close").DataSet("testid", "why-close").Aria("label", "Close the answer").Text("×").
				OnClick(func(ctx app.Context, e app.Event) { c.do.close(ctx) }),
		),
		app.If(a.Err != "", func() app.UI { return app.P().Class("why-error").DataSet("testid", "why-error").Text(a.Err) }),
		app.If(a.Chain != nil, func() app.UI { return c.story(a) }),
	)
}

// story is the chain, newest first: a line per step.
func (c *WhyPanel) story(a *model.WhyAnswer) app.UI {
	ch := a.Chain
	intro := a.Key.Short() + " at tick " + strconv.Itoa(a.At) + ", newest cause first; the diagram numbers the objects and draws the path."
	return app.Div().Body(
		app.P().Class("why-intro").Text(intro),
		app.Ol().Class("why-steps").Body(app.Range(ch.Steps).Slice(func(i int) app.UI {
			return c.step(i+1, ch.Steps[i])
		})),
		app.If(ch.Folded > 0, func() app.UI {
			return app.P().Class("why-note").Text(strconv.Itoa(ch.Folded) + " more causes left out to keep the story short (named under the steps that read them).")
		}),
	)
}

// step is one line of the story: its number (as the diagram draws it),
// its tick as a link, the actor and what it did, and its notes.
func (c *WhyPanel) step(n int, s provenance.Step) app.UI {
	var tick app.UI = app.Span().Class("why-tick").Text("before")
	if len(s.Ticks) > 0 {
		newest := s.Ticks[0]
		tick = app.Button().Class("why-tick").DataSet("testid", "why-tick").DataSet("tick", newest).
			Aria("label", s.TickLabel()+": go to tick "+strconv.Itoa(newest)).Text(s.TickLabel()).
			OnClick(func(ctx app.Context, e app.Event) {
				// go-app keeps a handler's first closure: read the tick
				// from the element.
				if n, err := strconv.Atoi(dataOf(ctx, "tick")); err == nil {
					c.do.seek(ctx, n)
				}
			})
	}
	actor := s.Actor()
	if s.Class != 0 {
		actor = s.Class.Symbol() + " " + actor
	}
	return app.Li().Class("why-step").DataSet("testid", "why-step").DataSet("n", n).DataSet("user", s.User).Body(
		app.Span().Class("why-n").Aria("hidden", "true").Text(strconv.Itoa(n)),
		tick,
		app.Span().Class("why-actor").Text(actor),
		app.Span().Class("why-text").Text(s.Text),
		app.Range(s.Notes()).Slice(func(i int) app.UI { return app.Div().Class("why-note").Text(s.Notes()[i]) }),
	)
}

// whyAsked names an answer for the inspector's Asked input.
func whyAsked(a *model.WhyAnswer) string {
	if a == nil {
		return ""
	}
	return a.Key.String() + " " + a.Field + "@" + strconv.Itoa(a.At)
}

// askWhyHere answers why the current tick did what its caption says,
// where the caption is: the embed has no inspector to open (a narrow
// frame shows the answer in place of the diagram).
func (p *page) askWhyHere(ctx app.Context) {
	p.m.AskWhyTick()
	p.view = "why"
}
