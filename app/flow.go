package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element; every SVG element needs its namespace.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// renderFlow draws the hierarchy of the current tick: Deployments,
// ReplicaSets, pods, the scheduler junction and the nodes with their
// kubelets, and the tick's effects as arrows told apart by shape and label.
func (p *Playground) renderFlow() app.UI {
	f := p.m.Flow()
	boxes := map[string]model.Box{}
	for _, b := range f.Boxes {
		boxes[b.ID] = b
	}
	caption := "Tick 0: nothing has happened yet. Step (→) to apply the manifest, then watch each component take its turn."
	if t := p.m.Current(); t != nil {
		caption = fmt.Sprintf("Tick %d: %s — %s", t.Seq, t.Actor(), t.Explanation)
	}
	return app.Figure().Class("flow").Body(
		app.FigCaption().Class("tick-caption").DataSet("testid", "tick-caption").Text(caption),
		app.Div().Class("flow-scroll").Body(
			svg("svg").DataSet("testid", "flow").Attr("viewBox", fmt.Sprintf("0 0 %d %d", f.Width, f.Height)).
				Attr("width", f.Width).Attr("height", f.Height).Attr("role", "img").
				Aria("label", "State flow diagram: Deployments, ReplicaSets, Pods, scheduler and nodes").Body(
				defs(),
				svg("text").Class("row-label").Attr("x", 4).Attr("y", 12).Text("desired state ↓ · observed state ↑"),
				svg("g").Class("junction").Body(
					svg("line").Attr("x1", 10).Attr("x2", f.EventsX-10).Attr("y1", f.SchedulerY).Attr("y2", f.SchedulerY),
					svg("text").Attr("x", 14).Attr("y", f.SchedulerY-6).Text("scheduler — binds spec.nodeName (the junction between pods and nodes)"),
				),
				svg("g").Class("events-channel").Body(
					svg("line").Attr("x1", f.EventsX).Attr("x2", f.EventsX).Attr("y1", 20).Attr("y2", f.Height-10),
					svg("text").Attr("x", f.EventsX+6).Attr("y", 30).Text("Events ◇"),
					svg("text").Attr("x", f.EventsX+6).Attr("y", 46).Class("small").Text("side channel"),
				),
				app.Range(f.Edges).Slice(func(i int) app.UI { return edge(f.Edges[i], boxes) }),
				app.Range(f.Boxes).Slice(func(i int) app.UI { return p.node(f.Boxes[i]) }),
				app.Range(f.Arrows).Slice(func(i int) app.UI { return arrow(f.Arrows[i]) }),
			),
		),
		app.If(f.Grouped != "", func() app.UI { return app.P().Class("small").Text(f.Grouped) }),
		legend(),
	)
}

// defs are the arrowheads, one per class.
func defs() app.UI {
	var markers []app.UI
	for _, c := range trace.Classes {
		markers = append(markers, svg("marker").ID("head-"+string(c)).Attr("viewBox", "0 0 10 10").Attr("refX", 9).Attr("refY", 5).
			Attr("markerWidth", 7).Attr("markerHeight", 7).Attr("orient", "auto-start-reverse").Body(
			svg("path").Class("head cls-"+string(c)).Attr("d", "M 0 0 L 10 5 L 0 10 z"),
		))
	}
	return svg("defs").Body(markers...)
}

func edge(e model.Edge, boxes map[string]model.Box) app.UI {
	from, ok1 := boxes[e.From]
	to, ok2 := boxes[e.To]
	if !ok1 || !ok2 {
		return svg("g")
	}
	return svg("line").Class("edge "+e.Kind).
		Attr("x1", from.X+from.W/2).Attr("y1", from.Y+from.H).Attr("x2", to.X+to.W/2).Attr("y2", to.Y)
}

// node is one object: a box with its key numbers; click to inspect.
func (p *Playground) node(b model.Box) app.UI {
	cls := "box status-" + b.Status
	if b.Highlight != "" {
		cls += " hl cls-" + string(b.Highlight)
	}
	if b.Actor {
		cls += " actor"
	}
	g := svg("g").Class(cls).DataSet("testid", "flow-node").DataSet("kind", b.Kind).DataSet("name", b.Name).DataSet("key", b.Key.String()).
		DataSet("highlight", string(b.Highlight)).Attr("tabindex", 0).Attr("role", "button").
		Aria("label", b.Kind+" "+b.Name).
		OnClick(func(ctx app.Context, e app.Event) {
			if k, ok := api.ParseKey(dataOf(ctx, "key")); ok && k.Kind != "" {
				p.m.Select(k)
				p.tab = "inspector"
			}
		})
	title := b.Title
	if b.Stale != "" {
		title += " — stale view: " + b.Stale
	}
	body := []app.UI{
		svg("title").Text(title),
		svg("rect").Attr("x", b.X).Attr("y", b.Y).Attr("width", b.W).Attr("height", b.H).Attr("rx", 6),
		svg("text").Class("title").Attr("x", b.X+6).Attr("y", b.Y+15).Text(b.Title),
	}
	for i, l := range b.Lines {
		body = append(body, svg("text").Attr("x", b.X+6).Attr("y", b.Y+30+i*13).Text(l))
	}
	if b.Highlight != "" {
		body = append(body, svg("text").Class("badge cls-"+string(b.Highlight)).Attr("x", b.X+b.W-4).Attr("y", b.Y+15).
			Attr("text-anchor", "end").Text(b.Highlight.Symbol()))
	}
	if b.Stale != "" {
		body = append(body, svg("text").Class("stale").Attr("x", b.X+4).Attr("y", b.Y+b.H+12).Text("stale: "+b.Stale))
	}
	return g.Body(body...)
}

// arrow is one effect: dashes, dots and the label tell the classes apart
// as well as colour does.
func arrow(a model.Arrow) app.UI {
	mx, my := (a.X1+a.X2)/2, (a.Y1+a.Y2)/2
	return svg("g").Class("arrow cls-"+string(a.Class)).DataSet("testid", "effect").DataSet("class", string(a.Class)).Body(
		svg("line").Attr("x1", a.X1).Attr("y1", a.Y1).Attr("x2", a.X2).Attr("y2", a.Y2).Attr("marker-end", "url(#head-"+string(a.Class)+")"),
		svg("text").Class("arrow-label").Attr("x", mx+4).Attr("y", my-2).Text(a.Label),
	)
}

func legend() app.UI {
	return app.Ul().Class("legend").Aria("label", "Effect classes").Body(
		app.Li().Class("cls-translate").Text("↓ translate: writes desired state one layer down"),
		app.Li().Class("cls-bind").Text("⇣ bind: the scheduler sets spec.nodeName"),
		app.Li().Class("cls-realize").Text("● realize: the kubelet runs containers and reports them"),
		app.Li().Class("cls-aggregate").Text("↑ aggregate: a status summarised from the layer below"),
		app.Li().Class("cls-event").Text("◇ event: the side channel"),
		app.Li().Class("stale-key").Text("stale: a component's cache lags the API server (shown under the object)"),
	)
}
