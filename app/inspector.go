package app

import (
	"fmt"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/engine/api"
)

// renderInspector shows the selected object at the current tick as YAML,
// spec and status apart, with the fields this tick changed marked.
func (p *Playground) renderInspector() app.UI {
	in := p.m.Inspect()
	pk := p.m.Pickable()
	keys := pk.Keys
	return app.Div().Class("inspector").DataSet("testid", "inspector").Body(
		app.Select().Aria("label", "Object to inspect").DataSet("testid", "inspect-object").OnChange(func(ctx app.Context, e app.Event) {
			if k, ok := api.ParseKey(ctx.JSSrc().Get("value").String()); ok {
				p.m.Select(k)
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
		app.If(!in.Exists && in.Key.Kind != "", func() app.UI {
			return app.P().Text(in.Key.Short() + " does not exist at this tick.")
		}),
		app.If(in.Op != "", func() app.UI {
			return app.P().Class("changed-note").Text(fmt.Sprintf("This tick's %s changed %d field(s) of %s (marked).", in.Op, len(in.Changes), in.Key.Short()))
		}),
		app.Range(in.Sections).Slice(func(i int) app.UI {
			s := in.Sections[i]
			return app.Section().Class("yaml-section").Body(
				app.H3().Text(s.Name),
				app.Pre().Class("yaml").Body(runs(s.Lines)...),
			)
		}),
	)
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
		if i+1 < len(lines) && lines[i+1].Changed == l.Changed {
			continue
		}
		if l.Changed {
			out = append(out, app.Mark().Class("changed").Text(b.String()))
		} else {
			out = append(out, app.Span().Text(b.String()))
		}
		b.Reset()
	}
	return out
}
