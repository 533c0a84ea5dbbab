package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/engine/api"
)

// Inspector shows the selected object at the current tick: first what
// this tick changed in it (path, old → new), then its YAML, spec and
// status open and metadata folded, with the changed lines marked.
type Inspector struct {
	app.Compo
	Rev      model.Rev
	Selected api.Key
	Shown    bool
	// Asked names the open "why?" answer (its field and tick), "" for
	// none: a new question renders the inspector again.
	Asked string

	// objects is what it reads of the view-model at Rev, choose selects
	// an object and why asks, follows and closes a "why?" (the page's:
	// go-app copies exported fields only).
	objects inspectable
	choose  func(api.Key)
	why     whyActions
	bridge  bridge
	// field is the field the "why?" menu has chosen ("" for its first).
	field string
}

// whyActions are the inspector's handlers for "why?": ask about a field
// of the selected object, go to a step's tick, close the answer.
type whyActions struct {
	ask   func(ctx app.Context, field string)
	seek  func(ctx app.Context, tick int)
	close func(ctx app.Context)
}

// inspectable is what the inspector reads of the view-model.
type inspectable interface {
	Inspect() model.Inspection
	Pickable() model.Picker
	Why() *model.WhyAnswer
}

// OnUpdate brings the field the lesson points at into view.
func (c *Inspector) OnUpdate(ctx app.Context) {
	ctx.Defer(func(ctx app.Context) {
		if c.Shown {
			c.bridge.ScrollIntoView("[data-testid=inspector] .lesson-field")
		}
	})
}

// hasLesson says a section holds the field the lesson points at.
func hasLesson(lines []model.Line) bool {
	for _, l := range lines {
		if l.Lesson {
			return true
		}
	}
	return false
}

// Render draws the inspector.
func (c *Inspector) Render() app.UI {
	if !c.Shown {
		return app.Div().Class("inspector").DataSet("testid", "inspector")
	}
	in := c.objects.Inspect()
	pk := c.objects.Pickable()
	keys := pk.Keys
	return app.Div().Class("inspector").DataSet("testid", "inspector").Body(
		app.Select().Aria("label", "Object to inspect").DataSet("testid", "inspect-object").OnChange(func(ctx app.Context, e app.Event) {
			if k, ok := api.ParseKey(ctx.JSSrc().Get("value").String()); ok {
				c.choose(k)
			}
		}).Body(
			app.If(!in.Exists, func() app.UI { return app.Option().Value("").Text("— choose an object —").Selected(true) }),
			app.Range(keys).Slice(func(i int) app.UI {
				return app.Option().Value(keys[i].String()).Text(keys[i].Short()).Selected(keys[i] == in.Key)
			}),
			app.If(pk.Hidden > 0, func() app.UI {
				text := "… " + itoa(pk.Hidden) + " more pods: choose a ReplicaSet to list its pods"
				if pk.Focus != "" {
					text = "… " + itoa(pk.Hidden) + " pods of other ReplicaSets than rs/" + pk.Focus
				}
				return app.Option().Value("").Disabled(true).Text(text)
			}),
		),
		app.If(in.Key.Kind != "", func() app.UI { return c.changes(in) }),
		app.If(len(in.WhyFields) > 0, func() app.UI { return c.whyMenu(in) }),
		app.If(c.objects.Why() != nil, func() app.UI { return &WhyPanel{Answer: c.objects.Why(), do: c.why} }),
		app.If(in.Stale != "", func() app.UI {
			return app.P().Class("stale-note").DataSet("testid", "inspector-stale").
				Text("◔ Stale cache: " + strings.ReplaceAll(in.Stale, " · ", ", ") + ".")
		}),
		app.If(in.LessonField != "", func() app.UI {
			where := " (marked below)."
			if in.LessonUnset {
				where = ", which " + in.Key.Short() + " does not have yet."
			}
			return app.P().Class("lesson-note").DataSet("testid", "inspector-lesson").Body(
				app.Text("The lesson points at "), app.Code().Text(in.LessonField), app.Text(where))
		}),
		app.If(len(in.Rules) > 0, func() app.UI { return rules(in) }),
		app.Range(in.Sections).Slice(func(i int) app.UI {
			s := in.Sections[i]
			open := s.Name != "metadata" || hasChange(s.Lines) || hasLesson(s.Lines)
			return app.Details().Class("yaml-section").Open(open).Body(
				app.Summary().Text(s.Name),
				app.Pre().Class("yaml").Attr("tabindex", 0).Aria("label", s.Name+" of "+in.Key.Short()).Body(runs(s.Lines)...),
			)
		}),
	)
}

// changes is the inspector's first section: what this tick did to the
// object, field by field, each with a "Why?".
func (c *Inspector) changes(in model.Inspection) app.UI {
	var head string
	switch {
	case in.Op == "create":
		head = "This tick created " + in.Key.Short() + "."
	case in.Op == "delete":
		head = "This tick deleted " + in.Key.Short() + "."
	case !in.Exists && in.LastWrite > 0:
		head = fmt.Sprintf("%s does not exist at this tick; it was last written (deleted) at tick %d.", in.Key.Short(), in.LastWrite)
	case !in.Exists:
		head = in.Key.Short() + " does not exist at this tick."
	case in.Op != "":
		head = fmt.Sprintf("This tick's %s changed %d field(s) of %s:", in.Op, len(in.Diff), in.Key.Short())
	case in.LastWrite > 0:
		head = fmt.Sprintf("This tick did not change %s; it was last written at tick %d.", in.Key.Short(), in.LastWrite)
	default:
		head = "This tick did not change " + in.Key.Short() + "."
	}
	return app.Section().Class("changes").DataSet("testid", "inspector-changes").Body(
		app.H3().Text("Changed in this tick"),
		app.P().Class("changed-note").Text(head),
		app.If(len(in.Diff) > 0, func() app.UI {
			return app.Table().Class("diff").Body(
				app.THead().Body(app.Tr().Body(app.Th().Text("field"), app.Th().Text("was"), app.Th().Text("now"), app.Th().Text("cause"))),
				app.TBody().Body(app.Range(in.Diff).Slice(func(i int) app.UI {
					d := in.Diff[i]
					return app.Tr().Body(
						app.Td().Class("path").Text(d.Path),
						app.Td().Class("from").Text(shorten(d.From, 80)).Title(d.From),
						app.Td().Class("to").Text("→ "+shorten(d.To, 80)).Title(d.To),
						app.Td().Body(c.whyButton(d.Path, "why-change")),
					)
				})),
			)
		}),
	)
}

// rules is where each node's kube-proxy sends a connection to the
// Service now: the data plane, which kubectl cannot show.
func rules(in model.Inspection) app.UI {
	return app.Details().Class("yaml-section").DataSet("testid", "inspect-rules").Open(true).Body(
		app.Summary().Text("kube-proxy rules on each node"),
		app.Table().Class("diff").Body(
			app.THead().Body(app.Tr().Body(app.Th().Text("node"), app.Th().Text("forwards to"))),
			app.TBody().Body(app.Range(in.Rules).Slice(func(i int) app.UI {
				r := in.Rules[i]
				to := strings.Join(r.Targets, ", ")
				switch {
				case !r.OK:
					to = "no rules yet (its kube-proxy has not synced this Service)"
				case len(r.Targets) == 0:
					to = "nothing: connections are rejected (no endpoints)"
				}
				return app.Tr().Body(app.Td().Class("path").Text(r.Node), app.Td().Text(to))
			})),
		),
	)
}

func hasChange(lines []model.Line) bool {
	for _, l := range lines {
		if l.Changed {
			return true
		}
	}
	return false
}

// runs renders lines as few elements as it can: one text span per run of
// unchanged lines and one mark per run of changed ones, so that a step
// diffs a handful of elements instead of one per line.
func runs(lines []model.Line) []app.UI {
	var out []app.UI
	var b strings.Builder
	for i, l := range lines {
		b.WriteString(l.Text)
		b.WriteByte('\n')
		if i+1 < len(lines) && lines[i+1].Changed == l.Changed && lines[i+1].Lesson == l.Lesson {
			continue
		}
		switch {
		case l.Lesson:
			cls := "lesson-field"
			if l.Changed {
				cls += " changed"
			}
			out = append(out, app.Mark().Class(cls).Text(b.String()))
		case l.Changed:
			out = append(out, app.Mark().Class("changed").Text(b.String()))
		default:
			out = append(out, app.Span().Text(b.String()))
		}
		b.Reset()
	}
	return out
}
