package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// tabs of the details panel.
var tabs = []struct{ id, label string }{{"log", "Tick log"}, {"inspector", "Inspector"}, {"events", "Events"}, {"console", "kubectl"}}

// renderPanels is the tabbed details panel: tick log, inspector, events,
// console. Every panel stays in the page (hidden when not selected) so its
// data-testid is always present; a hidden panel's component is told so
// and skips its work.
func (p *page) renderPanels(rev model.Rev) app.UI {
	return app.Aside().Class("panels").Aria("label", "Details").Body(
		app.Div().Class("tabs").Role("tablist").Body(
			app.Range(tabs).Slice(func(i int) app.UI {
				t := tabs[i]
				return app.Button().Role("tab").ID("tab-"+t.id).DataSet("testid", "tab-"+t.id).Aria("selected", strconv.FormatBool(p.tab == t.id)).
					Aria("controls", "panel-"+t.id).Class(choose(p.tab == t.id, "tab active", "tab")).
					DataSet("tab", t.id).Text(t.label).OnClick(func(ctx app.Context, e app.Event) { p.tab = dataOf(ctx, "tab") })
			}),
		),
		p.panel("log", p.log(rev)),
		p.panel("inspector", p.inspector(rev)),
		p.panel("events", p.events(rev)),
		p.panel("console", p.console()),
	)
}

func (p *page) panel(id string, body app.UI) app.UI {
	return app.Div().ID("panel-"+id).Role("tabpanel").Aria("labelledby", "tab-"+id).Class("panel").Hidden(p.tab != id).Body(body)
}

type paneView struct{ id, label, tab string }

// views are the phone's tab bar: one pane at a time; the lesson's comes
// first while a lesson is open.
var (
	views      = []paneView{{"scenario", "Scenario", ""}, {"flow", "Flow", ""}, {"details", "Log", "log"}, {"console", "kubectl", "console"}}
	lessonView = paneView{"lesson", "Lesson", ""}
)

// renderViews is the phone's tab bar (hidden by CSS on wider screens);
// current is the pane shown.
func (p *page) renderViews(current string, lesson bool) app.UI {
	if current == "details" && p.tab == "console" {
		current = "console"
	}
	shown := views
	if lesson {
		shown = append([]paneView{lessonView}, views...)
	}
	return app.Nav().Class("views").Aria("label", "Panes").Body(
		app.Range(shown).Slice(func(i int) app.UI {
			v := shown[i]
			return app.Button().Class(choose(current == v.id, "view active", "view")).DataSet("testid", "view-"+v.id).
				Aria("pressed", strconv.FormatBool(current == v.id)).DataSet("view", v.id).Text(v.label).
				OnClick(func(ctx app.Context, e app.Event) { p.showView(dataOf(ctx, "view")) })
		}),
	)
}

// showView shows one pane on a phone.
func (p *page) showView(id string) {
	for _, v := range append([]paneView{lessonView}, views...) {
		if v.id != id {
			continue
		}
		p.view = id
		if v.tab != "" {
			p.view, p.tab = "details", v.tab
		}
	}
	switch id {
	case "lesson", "scenario":
		p.side = id // the left column shows it when the window widens
	}
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
