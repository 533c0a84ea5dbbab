package app

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// tabs of the right-hand panel.
var tabs = []struct{ id, label string }{{"log", "Tick log"}, {"inspector", "Inspector"}, {"events", "Events"}, {"console", "kubectl"}}

// renderPanels is the tabbed panel: tick log, inspector, events, console.
// Every panel stays in the page (hidden when not selected) so its
// data-testid is always present.
func (p *Playground) renderPanels() app.UI {
	return app.Aside().Class("panels").Aria("label", "Details").Body(
		app.Div().Class("tabs").Role("tablist").Body(
			app.Range(tabs).Slice(func(i int) app.UI {
				t := tabs[i]
				return app.Button().Role("tab").ID("tab-"+t.id).DataSet("testid", "tab-"+t.id).Aria("selected", p.tab == t.id).
					Aria("controls", "panel-"+t.id).Class(map[bool]string{true: "tab active", false: "tab"}[p.tab == t.id]).
					Text(t.label).OnClick(func(ctx app.Context, e app.Event) { p.tab = t.id })
			}),
		),
		p.panel("log", p.renderLog()),
		p.panel("inspector", p.renderInspector()),
		p.panel("events", p.renderEvents()),
		p.panel("console", p.renderConsole()),
	)
}

func (p *Playground) panel(id string, body app.UI) app.UI {
	return app.Div().ID("panel-"+id).Role("tabpanel").Aria("labelledby", "tab-"+id).Class("panel").Hidden(p.tab != id).Body(body)
}

// dataOf reads a data- attribute of the element whose handler runs. go-app
// keeps an element's first handler when a re-render passes a closure of
// the same function (it compares code pointers), so a handler must not
// use values captured at render time: rows, boxes and problems that move
// would act on what they showed before. It reads the element instead.
func dataOf(ctx app.Context, name string) string {
	v := ctx.JSSrc().Get("dataset").Get(name)
	if v.IsUndefined() || v.IsNull() {
		return ""
	}
	return v.String()
}
