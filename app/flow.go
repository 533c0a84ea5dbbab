package app

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element; every SVG element needs its namespace.
func svg(tag string) app.HTMLElem { return app.Elem(tag).XMLNS(svgNS) }

// zoomStep is how much one press of + or − zooms.
const zoomStep = 1.25

// maxZoom bounds zooming in, relative to the fitted diagram.
const maxZoom = 8

// Flow is the diagram of the current tick: Deployments, ReplicaSets,
// pods, the scheduler junction and the nodes with their kubelets, and the
// tick's effects as arrows told apart by shape and label as well as
// colour. It fits its pane; + and − zoom, and the pane scrolls to pan.
type Flow struct {
	app.Compo
	Rev      model.Rev
	Selected api.Key
	// Marks are the objects the lesson's step points at.
	Marks []api.Key
	// Compact is the embed's diagram: the pane alone (no caption, zoom
	// tools or legend), its boxes named but not buttons (there is no
	// inspector to open).
	Compact bool

	p      *Playground
	zoom   float64 // relative to the fitted diagram; 1 (or 0) is fit
	undrag func()
}

// OnMount lets a mouse drag pan the diagram's pane.
func (c *Flow) OnMount(ctx app.Context) {
	c.undrag = c.p.bridge.DragToScroll("[data-testid=flow-pane]")
}

// OnDismount stops listening to drags.
func (c *Flow) OnDismount() {
	if c.undrag != nil {
		c.undrag()
	}
}

// Render draws the diagram.
func (c *Flow) Render() app.UI {
	c.p.renders.flow++
	f := c.p.m.Flow()
	boxes := map[string]model.Box{}
	for _, b := range f.Boxes {
		boxes[b.ID] = b
	}
	caption := "Tick 0: nothing has happened yet; the nodes are up. Press Step (→) to apply the manifest, then watch each component take its turn."
	if t := c.p.m.Current(); t != nil {
		caption = fmt.Sprintf("Tick %d: %s — %s", t.Seq, t.Actor(), t.Explanation())
	}
	zoom := max(c.zoom, 1)
	size := "width: 100%; height: 100%"
	if zoom > 1 {
		size = fmt.Sprintf("width: %.0f%%; height: %.0f%%", zoom*100, zoom*100)
	}
	return app.Figure().Class("flow").Body(
		app.If(!c.Compact, func() app.UI {
			return app.FigCaption().Class("tick-caption").DataSet("testid", "tick-caption").Title(caption).Text(caption)
		}),
		app.If(!c.Compact, func() app.UI { return c.tools(zoom) }),
		app.Div().Class("flow-scroll").DataSet("testid", "flow-pane").Attr("tabindex", 0).Aria("label", "Diagram pane: scroll to pan").Body(
			svg("svg").DataSet("testid", "flow").Attr("viewBox", fmt.Sprintf("0 0 %d %d", f.Width, f.Height)).
				Attr("preserveAspectRatio", "xMidYMin meet").Attr("style", "display: block; "+size).Attr("role", "group").
				Aria("label", "State flow diagram: Deployments, ReplicaSets, DaemonSets, StatefulSets, CronJobs, Jobs, Services, Pods, the scheduler and the nodes").Body(
				defs(),
				svg("text").Class("row-label").Attr("x", 4).Attr("y", 14).Text("desired state ↓ · observed state ↑"),
				svg("g").Class("junction").Body(
					svg("line").Attr("x1", 10).Attr("x2", f.EventsX-10).Attr("y1", f.SchedulerY).Attr("y2", f.SchedulerY),
					svg("text").Attr("x", 14).Attr("y", f.SchedulerY-6).Text("scheduler: binds each pod to a node (spec.nodeName)"),
				),
				svg("g").Class("events-channel").Body(
					svg("line").Attr("x1", f.EventsX).Attr("x2", f.EventsX).Attr("y1", 20).Attr("y2", f.Height-10),
					svg("text").Attr("x", f.EventsX+6).Attr("y", 30).Text("◇ Events"),
					svg("text").Attr("x", f.EventsX+6).Attr("y", 46).Text("side channel"),
				),
				app.Range(f.Edges).Slice(func(i int) app.UI { return edge(f.Edges[i], boxes) }),
				app.Range(f.Boxes).Slice(func(i int) app.UI { return c.node(f.Boxes[i]) }),
				app.Range(f.Arrows).Slice(func(i int) app.UI { return arrow(f.Arrows[i]) }),
			),
		),
		app.If(f.Grouped != "", func() app.UI { return app.P().Class("small grouped").Text(f.Grouped) }),
		app.If(!c.Compact, legend),
	)
}

// tools are Fit and the zoom buttons.
func (c *Flow) tools(zoom float64) app.UI {
	return app.Div().Class("flow-tools").Body(
		app.Button().DataSet("testid", "fit").Title("Fit the whole diagram in its pane").Aria("pressed", strconv.FormatBool(zoom == 1)).Text("Fit").
			OnClick(func(ctx app.Context, e app.Event) { c.zoom = 1 }),
		app.Button().DataSet("testid", "zoom-out").Title("Zoom out").Disabled(zoom <= 1).Text("− Zoom out").
			OnClick(func(ctx app.Context, e app.Event) { c.zoom = max(1, max(c.zoom, 1)/zoomStep) }),
		app.Button().DataSet("testid", "zoom-in").Title("Zoom in; then scroll or drag the diagram to pan").Disabled(zoom >= maxZoom).Text("+ Zoom in").
			OnClick(func(ctx app.Context, e app.Event) { c.zoom = min(maxZoom, max(c.zoom, 1)*zoomStep) }),
		app.Span().Class("small").DataSet("testid", "zoom").Text(strconv.Itoa(int(zoom*100+0.5))+"% of fit"),
	)
}

// defs are the arrowheads, one per class.
func defs() app.UI {
	var markers []app.UI
	for _, c := range trace.Classes {
		markers = append(markers, svg("marker").ID("head-"+c.String()).Attr("viewBox", "0 0 10 10").Attr("refX", 9).Attr("refY", 5).
			Attr("markerWidth", 7).Attr("markerHeight", 7).Attr("orient", "auto-start-reverse").Body(
			svg("path").Class("head cls-"+c.String()).Attr("d", "M 0 0 L 10 5 L 0 10 z"),
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
	if e.Kind == "scales" || e.Kind == "guards" {
		// An autoscaler or a disruption budget sits in its target's row:
		// the line runs across, from the side of one to the side of the
		// other.
		x1, x2 := from.X, to.X+to.W
		if from.X < to.X {
			x1, x2 = from.X+from.W, to.X
		}
		return svg("line").Class("edge "+e.Kind).
			Attr("x1", x1).Attr("y1", from.Y+from.H/2).Attr("x2", x2).Attr("y2", to.Y+to.H/2)
	}
	return svg("line").Class("edge "+e.Kind).
		Attr("x1", from.X+from.W/2).Attr("y1", from.Y+from.H).Attr("x2", to.X+to.W/2).Attr("y2", to.Y)
}

// statusWords says a box's status for a screen reader.
var statusWords = map[string]string{"ok": "healthy", "progress": "in progress", "warn": "waiting", "bad": "failing", "gone": "being deleted"}

// node is one object: a box with its key numbers; click or Enter to
// inspect. Its accessible name (the SVG title) starts with the text it
// shows, then says its status and what a stale cache believes.
func (c *Flow) node(b model.Box) app.UI {
	cls := "box status-" + b.Status
	if b.Highlight != 0 {
		cls += " hl cls-" + b.Highlight.String()
	}
	if b.Actor {
		cls += " actor"
	}
	if b.Refused {
		cls += " refused"
	}
	if b.Key == c.Selected && b.Key.Kind != "" {
		cls += " selected"
	}
	if b.Lesson {
		cls += " lesson"
	}
	name := b.Title + " — " + strings.Join(b.Lines, " — ") + " (" + b.Kind + ", " + statusWords[b.Status]
	if b.Highlight != 0 {
		name += ", " + b.Highlight.String() + " this tick"
	}
	if b.Refused {
		name += ", refused an eviction this tick"
	}
	if b.Lesson {
		name += ", the lesson's step points at it"
	}
	name += ")"
	if b.Stale != "" {
		name += ". Stale cache: " + b.Stale
	}
	if n := len(b.Spark); n > 0 {
		lost := 0
		for _, s := range b.Spark {
			if s.Failed > 0 {
				lost++
			}
		}
		name += fmt.Sprintf(". Traffic: %d of the last %d intervals lost requests", lost, n)
	}
	g := svg("g").Class(cls).DataSet("testid", "flow-node").DataSet("kind", b.Kind).DataSet("name", b.Name).DataSet("key", b.Key.String()).
		DataSet("highlight", b.Highlight.String()).DataSet("stale", b.Stale != "").DataSet("lesson", b.Lesson)
	switch {
	case b.Key.Kind != "" && c.Compact:
		// Focusable, so a keyboard shows a stale cache's tip as a hover does.
		g = g.Attr("tabindex", 0).Attr("role", "img")
	case b.Key.Kind != "":
		g = g.Attr("tabindex", 0).Attr("role", "button").
			OnClick(func(ctx app.Context, e app.Event) { c.pick(ctx) }).
			OnKeyDown(func(ctx app.Context, e app.Event) {
				if k := e.Get("key").String(); k == "Enter" || k == " " {
					e.PreventDefault()
					e.Call("stopPropagation")
					c.pick(ctx)
				}
			})
	}
	body := []app.UI{
		svg("title").Text(name),
		svg("rect").Attr("x", b.X).Attr("y", b.Y).Attr("width", b.W).Attr("height", b.H).Attr("rx", 6),
	}
	if b.Lesson {
		// A dashed ring around the box, outside it: the box's own outline
		// keeps saying its status and this tick's effect.
		body = append(body, svg("rect").Class("lesson-ring").Attr("x", b.X-4).Attr("y", b.Y-4).Attr("width", b.W+8).Attr("height", b.H+8).Attr("rx", 9))
	}
	body = append(body,
		svg("text").Class("title").Attr("x", b.X+model.TextPad).Attr("y", b.Y+16).Text(model.Clip(b.Title, b.W-2*model.CharW-4)),
	)
	for i, l := range b.Lines {
		body = append(body, svg("text").Attr("x", b.X+model.TextPad).Attr("y", b.Y+16+(i+1)*model.LineH).Text(model.Clip(l, b.W)))
	}
	if len(b.Spark) > 0 {
		body = append(body, sparkline(b)...)
	}
	badgeX := b.X + b.W - 6
	if b.Highlight != 0 {
		body = append(body, svg("text").Class("badge cls-"+b.Highlight.String()).Attr("x", badgeX).Attr("y", b.Y+16).
			Attr("text-anchor", "end").Text(b.Highlight.Symbol()))
		badgeX -= model.CharW + 4
	}
	if b.Refused {
		body = append(body, svg("text").Class("badge refused-badge").Attr("x", badgeX).Attr("y", b.Y+16).Attr("text-anchor", "end").Text("429"))
		badgeX -= 3*model.CharW + 6
	}
	if b.Stale != "" {
		body = append(body, svg("text").Class("stale-badge").Attr("x", badgeX).Attr("y", b.Y+16).Attr("text-anchor", "end").Text("◔"),
			staleTip(b))
	}
	return g.Body(body...)
}

// staleTip is what a component's stale cache believes, shown under the
// box while it is hovered or focused (CSS), over whatever lies there.
// Its clauses (split at " · ") stand on lines of their own.
func staleTip(b model.Box) app.UI {
	lines := strings.Split("◔ "+b.Stale, " · ")
	w := 0
	for _, l := range lines {
		w = max(w, model.TextWidth(len([]rune(l))))
	}
	body := []app.UI{svg("rect").Attr("x", b.X).Attr("y", b.Y+b.H+4).Attr("width", w).Attr("height", 20*len(lines)).Attr("rx", 4)}
	for i, l := range lines {
		body = append(body, svg("text").Attr("x", b.X+model.TextPad).Attr("y", b.Y+b.H+18+20*i).Text(l))
	}
	return svg("g").Class("stale-tip").Aria("hidden", "true").Body(body...)
}

// pick inspects the box whose handler runs (read from the element, as
// dataOf explains).
func (c *Flow) pick(ctx app.Context) {
	if k, ok := api.ParseKey(dataOf(ctx, "key")); ok && k.Kind != "" {
		c.p.inspect(k)
	}
}

// arrow is one effect: dashes, dots and the label tell the classes apart
// as well as colour does.
func arrow(a model.Arrow) app.UI {
	mx, my := (a.X1+a.X2)/2, (a.Y1+a.Y2)/2
	line := svg("line").Attr("x1", a.X1).Attr("y1", a.Y1).Attr("x2", a.X2).Attr("y2", a.Y2)
	if a.ViaY != 0 {
		// Down into the gap below the row, then along it: the arrow passes
		// no other box.
		line = svg("polyline").Attr("fill", "none").Attr("points", fmt.Sprintf("%d,%d %d,%d %d,%d", a.X1, a.Y1, a.X1, a.ViaY, a.X2, a.ViaY))
		mx, my = a.X2-model.EventLabelW, a.ViaY
	}
	if a.LabelAtStart {
		mx = a.X1
	}
	return svg("g").Class("arrow cls-"+a.Class.String()).DataSet("testid", "effect").DataSet("class", a.Class.String()).Body(
		line.Attr("marker-end", "url(#head-"+a.Class.String()+")"),
		svg("text").Class("arrow-label").Attr("x", mx+4).Attr("y", my-2).Text(a.Label),
	)
}

// legend names each effect class with a sample of its line, so the
// classes differ by shape and text as well as colour.
func legend() app.UI {
	item := func(c trace.Class, text, detail string) app.UI {
		return app.Li().Class("cls-"+c.String()).Title(detail).Body(
			svg("svg").Class("sample").Attr("width", 28).Attr("height", 10).Aria("hidden", "true").Body(
				svg("line").Class("arrow-sample").Attr("x1", 1).Attr("y1", 5).Attr("x2", 27).Attr("y2", 5),
			),
			app.Span().Text(text),
		)
	}
	return app.Ul().Class("legend").Aria("label", "Effect classes").Body(
		item(trace.Translate, "↓ translate", "translate: a controller writes desired state one layer down"),
		item(trace.Bind, "⇣ bind", "bind: the scheduler sets a pod's spec.nodeName"),
		item(trace.Realize, "● realize", "realize: the kubelet runs containers and reports them"),
		item(trace.Aggregate, "↑ aggregate", "aggregate: a status summarised from the layer below"),
		item(trace.Event, "◇ event", "event: a record on the side channel"),
		app.Li().Class("stale-key").Title("stale: a component's cache lags the API server; hover or focus the box for what it still believes").Text("◔ stale cache"),
	)
}

// sparkline draws a Service's traffic under its lines: one bar per
// interval, oldest on the left, its height the requests sent (scaled to
// the busiest interval), served in green under failed in red. Two paths,
// however many bars.
func sparkline(b model.Box) []app.UI {
	peak := 1
	for _, s := range b.Spark {
		peak = max(peak, s.Served+s.Failed)
	}
	left, bottom := b.X+model.TextPad, b.Y+b.H-5
	w := max(2, (b.W-2*model.TextPad)/model.SparkBars)
	hmax := model.SparkH - 6
	var ok, bad strings.Builder
	for i, s := range b.Spark {
		x := left + i*w
		hs := s.Served * hmax / peak
		hf := (s.Served+s.Failed)*hmax/peak - hs
		if s.Failed > 0 && hf == 0 {
			hf = 1 // a lost request always shows
		}
		if hs > 0 {
			fmt.Fprintf(&ok, "M%d %dh%dv%dh%dz", x, bottom-hs, w-1, hs, 1-w)
		}
		if hf > 0 {
			fmt.Fprintf(&bad, "M%d %dh%dv%dh%dz", x, bottom-hs-hf, w-1, hf, 1-w)
		}
	}
	return []app.UI{svg("path").Class("spark-ok").Attr("d", ok.String()), svg("path").Class("spark-bad").Attr("d", bad.String())}
}
