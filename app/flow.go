package app

import (
	"fmt"
	"math"
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

// Flow is the diagram of the current tick: the workloads over their
// pods, the scheduler junction and the nodes with their kubelets, the
// Events channel, and the tick's effects as arrows told apart by shape
// and label as well as colour. It is laid out for the room its pane has
// (model.Flow), so its text is never smaller than model.FontPx: what does
// not fit is grouped, and a group opens on a click. Fit draws it as
// large as the pane allows (up to model.MaxFitScale); + and − zoom, and
// the pane scrolls to pan.
type Flow struct {
	app.Compo
	Rev      model.Rev
	Selected api.Key
	// Marks are the objects the lesson's step points at.
	Marks []api.Key
	// Why names the inspector's open "why?" answer, whose objects the
	// diagram numbers ("" for none).
	Why string
	// Compact is the embed's diagram: the pane alone (no zoom tools or
	// legend), its objects named but not buttons (there is no inspector
	// to open).
	Compact bool

	// layout lays the diagram out for a pane (the view-model at Rev);
	// inspect opens an object in the inspector; rendered counts renders
	// (for the page's tests). go-app copies exported fields only, so they
	// stay what the page set when the diagram was first mounted.
	layout   flowLayout
	inspect  func(api.Key)
	bridge   bridge
	rendered *int
	// w and h are the pane's size as last measured (0 before it is).
	w, h     int
	zoom     float64 // relative to the fitted diagram; 1 (or 0) is fit
	expanded map[string]bool
	all      bool
	unwatch  []func()
	// focus is the box to bring into view after a render that does not
	// fit its pane ("" when it fits).
	focus string
	// want is how tall the embed's pane would be to draw the diagram as
	// laid out at the scale its width allows, and told the height last
	// told to the page that frames the embed (tellHeight).
	want, told int
}

// flowLayout is what the diagram reads of the view-model.
type flowLayout interface {
	Flow(v model.Viewport) model.Flow
}

// OnMount measures the pane (and follows its size) and lets a mouse drag
// pan it.
func (c *Flow) OnMount(ctx app.Context) {
	pane := "[data-testid=flow-pane]"
	c.unwatch = append(c.unwatch,
		c.bridge.DragToScroll(pane),
		c.bridge.ObserveSize(pane, func(w, h int) {
			ctx.Dispatch(func(ctx app.Context) {
				if w == c.w && h == c.h {
					ctx.PreventUpdate()
					return
				}
				c.w, c.h = w, h
				c.tellHeight(ctx)
			})
		}))
}

// OnDismount stops following the pane.
func (c *Flow) OnDismount() {
	for _, f := range c.unwatch {
		f()
	}
	c.unwatch = nil
}

// OnUpdate brings the tick's objects into view when the diagram does
// not fit its pane (it then scrolls).
func (c *Flow) OnUpdate(ctx app.Context) {
	c.tellHeight(ctx)
	ctx.Defer(func(ctx app.Context) {
		if c.focus != "" {
			c.bridge.ScrollIntoView(`[data-testid=flow-node][data-id="` + c.focus + `"]`)
		}
	})
}

// maxFrameHeight bounds the height an embed asks its frame for.
const maxFrameHeight = 1600

// tellHeight, in the embed, tells the page that frames it, after this
// render, the height it needs to draw the diagram without shrinking it
// (for hosts that size their frames to their content). It only ever asks
// for more than it last asked, so a frame does not jump at every tick.
func (c *Flow) tellHeight(ctx app.Context) {
	if !c.Compact || c.w == 0 {
		return
	}
	ctx.Defer(func(ctx app.Context) {
		if h := c.bridge.TellHeight("[data-testid=flow-pane]", c.want, c.told, maxFrameHeight); h > 0 {
			c.told = h
		}
	})
}

// naturalHeight is how tall the pane would be for the diagram drawn at
// the scale its width allows, laid out with all the room it wants (f,
// the layout for v, when that one is already drawn that way).
func (c *Flow) naturalHeight(v model.Viewport, f model.Flow) int {
	widthScale := func(f model.Flow) float64 { return min(float64(v.W)/float64(f.Width), model.MaxFitScale) }
	if !f.Fits || f.Density != 0 || float64(f.Height)*widthScale(f) > float64(v.H) {
		tall := v
		tall.H = maxFrameHeight
		f = c.layout.Flow(tall)
	}
	return int(math.Ceil(float64(f.Height)*widthScale(f))) + 2*panePadding
}

// embedFont is the smallest text the embed's diagram may be drawn with
// before it groups what the story is not about.
const embedFont = 11

// viewport is the room the diagram is laid out for.
func (c *Flow) viewport() model.Viewport {
	v := model.DefaultViewport
	if c.w > 0 && c.h > 0 {
		v.W, v.H = c.w, c.h
	}
	v.Expanded, v.All = c.expanded, c.all
	if c.Compact {
		v.MinFont = embedFont
	}
	return v
}

// Render draws the diagram.
func (c *Flow) Render() app.UI {
	*c.rendered++
	v := c.viewport()
	f := c.layout.Flow(v)
	scale := 1.0
	c.focus = f.Focus
	if f.Fits {
		scale, c.focus = fitScale(v, f), ""
	}
	if c.Compact && c.w > 0 {
		c.want = c.naturalHeight(v, f)
	}
	zoom := max(c.zoom, 1)
	pane := "flow-scroll"
	if f.Fits && zoom == 1 {
		pane += " fits"
	}
	diagram := c.diagram(f, scale*zoom).DataSet("testid", "flow")
	var narrow app.UI
	if c.prerendering() {
		// The page before its wasm runs: one diagram for a laptop's pane
		// and one for a phone's, the stylesheet showing the one that
		// suits the screen (the pane cannot be measured yet).
		diagram = diagram.Class("flow-prerender-wide")
		nf := c.layout.Flow(narrowViewport)
		narrow = c.diagram(nf, fitScale(narrowViewport, nf)).Class("flow-prerender-narrow").DataSet("testid", "flow-narrow")
	}
	return app.Figure().Class("flow").Body(
		app.Div().Class(pane).DataSet("testid", "flow-pane").DataSet("density", f.Density).DataSet("fits", f.Fits).DataSet("focus", f.Focus).
			Attr("tabindex", 0).Aria("label", "Diagram pane: scroll to pan").Body(diagram, narrow),
		app.If(!c.Compact, func() app.UI {
			return app.Div().Class("flow-foot").Body(c.tools(zoom), &Key{Grouped: f.Grouped})
		}),
	)
}

// panePadding is the diagram pane's padding (app.css, .flow-scroll).
const panePadding = 4

// narrowViewport is a phone's diagram pane, for the prerendered page.
var narrowViewport = model.Viewport{W: 360, H: 480}

// prerendering reports whether the diagram is drawn for the page the
// server sends, before the wasm runs and measures the pane.
func (c *Flow) prerendering() bool { return app.IsServer && c.w == 0 && !c.Compact }

// fitScale is the scale that fits a diagram laid out for v into it.
func fitScale(v model.Viewport, f model.Flow) float64 {
	return min(float64(v.W)/float64(f.Width), float64(v.H)/float64(f.Height), model.MaxFitScale)
}

// diagram is the SVG of a laid-out diagram, drawn at scale.
func (c *Flow) diagram(f model.Flow, scale float64) app.HTMLElem {
	boxes := map[string]model.Box{}
	for _, b := range f.Boxes {
		boxes[b.ID] = b
	}
	return svg("svg").Attr("viewBox", fmt.Sprintf("0 0 %d %d", f.Width, f.Height)).
		Attr("width", int(float64(f.Width)*scale)).Attr("height", int(float64(f.Height)*scale)).
		Attr("role", "group").
		Aria("label", "State flow diagram: the workloads over their pods, the scheduler, the nodes and the Events channel").Body(
		defs(),
		app.Range(f.Texts).Slice(func(i int) app.UI { return diagramText(f.Texts[i]) }),
		svg("line").Class("junction").Attr("x1", 4).Attr("x2", f.EventsX-6).Attr("y1", f.SchedulerY).Attr("y2", f.SchedulerY),
		svg("line").Class("events-channel").Attr("x1", f.EventsX).Attr("x2", f.EventsX).Attr("y1", 4).Attr("y2", f.Height-4),
		app.Range(f.Edges).Slice(func(i int) app.UI { return edge(f.Edges[i], boxes) }),
		app.Range(f.Arrows).Slice(func(i int) app.UI { return arrow(f.Arrows[i]) }),
		app.Range(f.WhyLinks).Slice(func(i int) app.UI { return whyLink(f.WhyLinks[i]) }),
		app.Range(f.Boxes).Slice(func(i int) app.UI { return c.node(f.Boxes[i]) }),
	)
}

// tools are Fit, the zoom buttons and Show all.
func (c *Flow) tools(zoom float64) app.UI {
	return app.Div().Class("flow-tools").Body(
		app.Button().DataSet("testid", "fit").Title("Fit the diagram to its pane").Aria("pressed", strconv.FormatBool(zoom == 1)).Text("Fit").
			OnClick(func(ctx app.Context, e app.Event) { c.zoom = 1 }),
		app.Button().DataSet("testid", "zoom-out").Title("Zoom out").Aria("label", "Zoom out").Disabled(zoom <= 1).Text("−").
			OnClick(func(ctx app.Context, e app.Event) { c.zoom = max(1, max(c.zoom, 1)/zoomStep) }),
		app.Button().DataSet("testid", "zoom-in").Title("Zoom in; then scroll or drag the diagram to pan").Aria("label", "Zoom in").Disabled(zoom >= maxZoom).Text("+").
			OnClick(func(ctx app.Context, e app.Event) { c.zoom = min(maxZoom, max(c.zoom, 1)*zoomStep) }),
		app.Span().Class("small").DataSet("testid", "zoom").Text(strconv.Itoa(int(zoom*100+0.5))+"% of fit"),
		app.Button().DataSet("testid", "show-all").Aria("pressed", strconv.FormatBool(c.all)).
			Title("Draw every object by itself, however many (the pane scrolls); off: group what the story is not about to keep the text readable").
			Text("Show all").OnClick(func(ctx app.Context, e app.Event) { c.all = !c.all }),
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
	markers = append(markers, svg("marker").ID("head-why").Attr("viewBox", "0 0 10 10").Attr("refX", 9).Attr("refY", 5).
		Attr("markerWidth", 7).Attr("markerHeight", 7).Attr("orient", "auto-start-reverse").Body(
		svg("path").Class("head why-head").Attr("d", "M 0 0 L 10 5 L 0 10 z"),
	))
	return svg("defs").Body(markers...)
}

// whyLink is a leg of the open "why?" answer's path, from a cause to the
// step it caused, in the answer's colour, named by the step's number and
// component (its tooltip says it where the label did not fit).
func whyLink(k model.WhyLink) app.UI {
	return svg("g").Class("why-link").DataSet("testid", "why-link").DataSet("step", k.Step).DataSet("component", k.Component).Body(
		svg("title").Text("Step "+strconv.Itoa(k.Step)+" of the why chain: "+k.Component),
		svg("line").Attr("x1", k.X1).Attr("y1", k.Y1).Attr("x2", k.X2).Attr("y2", k.Y2).Attr("marker-end", "url(#head-why)"),
		app.If(k.Label != "", func() app.UI {
			return svg("text").Class("why-link-label").Attr("x", k.LabelX).Attr("y", k.LabelY).Text(k.Label)
		}),
	)
}

// diagramText is a label of the diagram itself; the Events channel's
// runs down beside it.
func diagramText(t model.Text) app.UI {
	e := svg("text").Class("diagram-text "+t.Class).Attr("x", t.X).Attr("y", t.Y)
	if t.Vertical {
		e = e.Attr("transform", fmt.Sprintf("rotate(90 %d %d)", t.X, t.Y))
	}
	return e.Text(t.Text)
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

// accessibleName is a box's text for a screen reader and its tooltip:
// what it shows (or abbreviates), its status, this tick's effect, the
// lesson's mark, and what a stale cache believes.
func accessibleName(b model.Box) string {
	name := b.Title + " — " + strings.Join(b.Lines, " — ")
	if b.Detail != "" {
		name = b.Detail
	}
	name += " (" + b.Kind + ", " + statusWords[b.Status]
	if b.Highlight != 0 {
		name += ", " + b.Highlight.String() + " this tick"
	}
	if b.Refused {
		name += ", refused an eviction this tick"
	}
	if b.Lesson {
		name += ", the lesson's step points at it"
	}
	if b.Why > 0 {
		name += fmt.Sprintf(", step %d of the why chain: %s", b.Why, b.WhyStep)
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
	if b.Opens != "" && !b.Open {
		name += ". Press to draw them one by one"
	}
	return name
}

// node is one object (or group): a box with its key numbers. An object
// opens the inspector on a click or Enter; a group opens (or folds).
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
	if b.Why > 0 {
		cls += " why"
	}
	if b.Opens != "" {
		cls += " group"
	}
	g := svg("g").Class(cls).DataSet("testid", "flow-node").DataSet("kind", b.Kind).DataSet("name", b.Name).DataSet("key", b.Key.String()).
		DataSet("id", b.ID).DataSet("opens", b.Opens).DataSet("highlight", b.Highlight.String()).DataSet("stale", b.Stale != "").DataSet("lesson", b.Lesson).DataSet("why", b.Why)
	switch {
	case b.Opens != "":
		g = g.Attr("tabindex", 0).Attr("role", "button").Aria("expanded", strconv.FormatBool(b.Open)).
			OnClick(func(ctx app.Context, e app.Event) { c.toggle(ctx) }).
			OnKeyDown(func(ctx app.Context, e app.Event) { onActivate(e, func() { c.toggle(ctx) }) })
	case b.Key.Kind != "" && c.Compact:
		// Focusable, so a keyboard shows a stale cache's tip as a hover does.
		g = g.Attr("tabindex", 0).Attr("role", "img")
	case b.Key.Kind != "":
		g = g.Attr("tabindex", 0).Attr("role", "button").
			OnClick(func(ctx app.Context, e app.Event) { c.pick(ctx) }).
			OnKeyDown(func(ctx app.Context, e app.Event) { onActivate(e, func() { c.pick(ctx) }) })
	}
	body := []app.UI{
		svg("title").Text(accessibleName(b)),
		svg("rect").Attr("x", b.X).Attr("y", b.Y).Attr("width", b.W).Attr("height", b.H).Attr("rx", 6),
	}
	if b.Lesson {
		// A dashed ring around the box, outside it: the box's own outline
		// keeps saying its status and this tick's effect.
		body = append(body, svg("rect").Class("lesson-ring").Attr("x", b.X-4).Attr("y", b.Y-4).Attr("width", b.W+8).Attr("height", b.H+8).Attr("rx", 9))
	}
	if b.Why > 0 {
		body = append(body, whyMark(b)...)
	}
	titleRoom := b.W - badgeRoom
	if b.Why > 0 {
		titleRoom -= whyBadgeW(b.Why)
	}
	body = append(body, svg("text").Class("title").Attr("x", b.X+model.TextPad).Attr("y", b.Y+model.TitleY).Text(model.Clip(b.Title, titleRoom)))
	for i, l := range b.Lines {
		body = append(body, svg("text").Attr("x", b.X+model.TextPad).Attr("y", b.Y+model.TitleY+(i+1)*model.LineH).Text(model.Clip(l, b.W)))
	}
	if len(b.Spark) > 0 {
		body = append(body, sparkline(b)...)
	}
	if len(b.Marks) > 0 {
		body = append(body, marks(b))
	}
	return g.Body(append(body, badges(b)...)...)
}

// whyMark is a box's solid ring in the open "why?" chain; its number
// is a badge (badges).
func whyMark(b model.Box) []app.UI {
	return []app.UI{svg("rect").Class("why-ring").Attr("x", b.X-3).Attr("y", b.Y-3).Attr("width", b.W+6).Attr("height", b.H+6).Attr("rx", 8)}
}

// whyBadgeW is the width of the badge that numbers a box in a "why?"
// chain: its digits and a margin.
func whyBadgeW(n int) int { return model.TextPx(len(strconv.Itoa(n))) + 8 }

// badgeRoom is the room a box's title leaves for its badges.
const badgeRoom = 2 * model.BadgeW

// badges are drawn right of a box's title: + on a group a click opens
// (− on one it folds), this tick's effect, a refused eviction, a stale
// cache (whose tip shows under the box).
func badges(b model.Box) []app.UI {
	var out []app.UI
	x := b.X + b.W - 5
	if b.Opens != "" {
		out = append(out, svg("text").Class("badge opens").Attr("x", x).Attr("y", b.Y+model.TitleY).Attr("text-anchor", "end").
			Text(choose(b.Open, "−", "+")))
		x -= model.BadgeW
	}
	if b.Highlight != 0 {
		out = append(out, svg("text").Class("badge cls-"+b.Highlight.String()).Attr("x", x).Attr("y", b.Y+model.TitleY).
			Attr("text-anchor", "end").Text(b.Highlight.Symbol()))
		x -= model.BadgeW
	}
	if b.Refused {
		out = append(out, svg("text").Class("badge refused-badge").Attr("x", x).Attr("y", b.Y+model.TitleY).Attr("text-anchor", "end").Text("429"))
		x -= model.TextPx(3) + 3
	}
	if b.Why > 0 {
		w := whyBadgeW(b.Why)
		out = append(out, svg("rect").Class("why-disc").Attr("x", x-w+3).Attr("y", b.Y+model.TitleY-12).Attr("width", w).Attr("height", 16).Attr("rx", 8),
			svg("text").Class("why-num").Attr("x", x-w/2+3).Attr("y", b.Y+model.TitleY).Attr("text-anchor", "middle").Text(strconv.Itoa(b.Why)))
		x -= w + 2
	}
	if b.Stale != "" {
		out = append(out, svg("text").Class("stale-badge").Attr("x", x).Attr("y", b.Y+model.TitleY).Attr("text-anchor", "end").Text("◔"),
			staleTip(b))
	}
	return out
}

// marks are a group's members, a small square each, coloured (and
// outlined) by status.
func marks(b model.Box) app.UI {
	y := b.Y + b.H - model.MarkSize - 5
	var out []app.UI
	for i, s := range b.Marks {
		out = append(out, svg("rect").Class("mark status-"+s).Attr("x", b.X+model.TextPad+i*(model.MarkSize+model.MarkGap)).Attr("y", y).
			Attr("width", model.MarkSize).Attr("height", model.MarkSize))
	}
	return svg("g").Class("marks").Aria("hidden", "true").Body(out...)
}

// onActivate runs f for Enter or space, as a button does.
func onActivate(e app.Event, f func()) {
	if k := e.Get("key").String(); k == "Enter" || k == " " {
		e.PreventDefault()
		e.Call("stopPropagation")
		f()
	}
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
	body := []app.UI{svg("rect").Attr("x", b.X).Attr("y", b.Y+b.H+4).Attr("width", w).Attr("height", 4+model.LineH*len(lines)).Attr("rx", 4)}
	for i, l := range lines {
		body = append(body, svg("text").Attr("x", b.X+model.TextPad).Attr("y", b.Y+b.H+16+model.LineH*i).Text(l))
	}
	return svg("g").Class("stale-tip").Aria("hidden", "true").Body(body...)
}

// pick inspects the box whose handler runs (read from the element, as
// dataOf explains).
func (c *Flow) pick(ctx app.Context) {
	if k, ok := api.ParseKey(dataOf(ctx, "key")); ok && k.Kind != "" && c.inspect != nil {
		c.inspect(k)
	}
}

// toggle opens the group whose handler runs, or folds it again.
func (c *Flow) toggle(ctx app.Context) {
	id := dataOf(ctx, "opens")
	if id == "" {
		return
	}
	if c.expanded == nil {
		c.expanded = map[string]bool{}
	}
	if c.expanded[id] {
		delete(c.expanded, id)
		return
	}
	c.expanded[id] = true
}

// arrow is one effect: dashes, dots and the label tell the classes apart
// as well as colour does. Arrows are drawn under the boxes, so a line
// that crosses one hides behind it; labels lie where no box is.
func arrow(a model.Arrow) app.UI {
	line := svg("line").Attr("x1", a.X1).Attr("y1", a.Y1).Attr("x2", a.X2).Attr("y2", a.Y2)
	if a.ViaY != 0 {
		// Down into the gap below the row, then along it.
		line = svg("polyline").Attr("fill", "none").Attr("points", fmt.Sprintf("%d,%d %d,%d %d,%d", a.X1, a.Y1, a.X1, a.ViaY, a.X2, a.ViaY))
	}
	return svg("g").Class("arrow cls-"+a.Class.String()).DataSet("testid", "effect").DataSet("class", a.Class.String()).Body(
		line.Attr("marker-end", "url(#head-"+a.Class.String()+")"),
		app.If(a.Label != "", func() app.UI {
			return svg("text").Class("arrow-label").Attr("x", a.LabelX).Attr("y", a.LabelY).Text(a.Label)
		}),
	)
}

// Key is the diagram's legend: a line per effect class, told apart by
// shape and text as well as colour, and (opened) what each word and mark
// of the diagram means, so nothing is left to a hover. A component of
// its own, it renders again only when what was folded to fit changes.
type Key struct {
	app.Compo
	// Grouped says what the diagram folded to fit ("" for nothing).
	Grouped string
}

// Render draws the key.
func (k *Key) Render() app.UI {
	grouped := k.Grouped
	item := func(c trace.Class, text string) app.UI {
		return app.Li().Class("cls-"+c.String()).Body(
			svg("svg").Class("sample").Attr("width", 28).Attr("height", 10).Aria("hidden", "true").Body(
				svg("line").Class("arrow-sample").Attr("x1", 1).Attr("y1", 5).Attr("x2", 27).Attr("y2", 5),
			),
			app.Span().Text(text),
		)
	}
	return app.Details().Class("key").DataSet("testid", "key").Body(
		app.Summary().Title("What the lines, marks and words of the diagram mean").Body(
			app.Span().Class("key-title").Text("Key"),
			app.Ul().Class("legend").Aria("label", "Effect classes").Body(
				item(trace.Translate, "↓ translate"),
				item(trace.Bind, "⇣ bind"),
				item(trace.Realize, "● realize"),
				item(trace.Aggregate, "↑ aggregate"),
				item(trace.Event, "◇ event"),
				app.Li().Class("stale-key").Text("◔ stale cache"),
			),
		),
		app.Div().Class("key-body").DataSet("testid", "key-body").Body(
			app.If(grouped != "", func() app.UI { return app.P().Class("grouped").DataSet("testid", "flow-grouped").Text(grouped) }),
			app.Dl().Body(glossaryItems()...),
		),
	)
}

// glossary defines the diagram's words where a learner meets them.
var glossary = []struct{ term, meaning string }{
	{"↓ translate", "A controller writes desired state one layer down: a Deployment's controller writes ReplicaSets, a ReplicaSet's controller creates pods."},
	{"⇣ bind", "The scheduler picks a node for a pod and writes it into the pod's spec.nodeName."},
	{"● realize", "A node's kubelet runs the pod's containers (pulls, starts, probes them) and reports what happened in the pod's status."},
	{"↑ aggregate", "A controller summarises the layer below into its own status: a ReplicaSet counts its ready pods, a Deployment sums its ReplicaSets."},
	{"◇ event", "A record written beside the hierarchy, on the side channel (kubectl get events). No controller reads it to decide anything."},
	{"◔ stale cache", "A component acts on its own cached copy, which lags the API server by its watch latency. Hover, focus or tap the box (or open it in the inspector) to read what the cache still believes."},
	{"resourceVersion", "The API server numbers every write. A cache that has seen writes up to resourceVersion 12 while the API server is at 15 has not yet heard of the last three."},
	{"conflict", "Optimistic concurrency: a write carries the resourceVersion it was based on. If the object changed since, the API server refuses it and the controller tries again from a fresh copy. This is normal, not a failure."},
	{"quiet ticks", "Ticks that changed nothing in the API server: a controller re-checking, or retrying a write a conflict refused. The story view folds them into one row."},
	{"saw 4 of 3 pods", "In the ReplicaSet controller's line: it counted 4 pods of the ReplicaSet in its cache while its spec wants 3, so it deletes one (with fewer, it creates the missing ones)."},
	{"✓ ○ ◌ ✗ ⊘", "On small pods and nodes, and as the marks of a group: ready or done, on its way, waiting (no node yet), failing, going away (terminating)."},
	{"groups", "When the pane cannot show every object at a readable size, the pods and nodes this step is not about are counted in one box, and other workloads are folded to one box each. What the step writes is always drawn by itself. Click a group to open it, or press Show all."},
}

func glossaryItems() []app.UI {
	out := make([]app.UI, 0, 2*len(glossary))
	for _, g := range glossary {
		out = append(out, app.Dt().Text(g.term), app.Dd().Text(g.meaning))
	}
	return out
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
