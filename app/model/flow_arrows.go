package model

// This file draws the current tick on the placed diagram: the object it
// handled (its actor), the boxes it wrote, an arrow per effect in the
// direction its class moves state, with labels put where no box or
// other label is; and the lines that link owners to what they own,
// pods to their nodes, autoscalers and budgets to their workloads.

import (
	"fmt"
	"slices"
	"sort"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// boundEdgesUpTo is how many pods the diagram may draw before it links
// only the story's pods to their nodes (a line per pod would hide the
// rest).
const boundEdgesUpTo = 12

// edges links owners to what they own, pods to their nodes, autoscalers
// to what they scale and budgets to what they guard.
func (l *layout) edges() {
	st := l.m.eng.Store()
	pods := 0
	for _, b := range l.boxes {
		if b.Kind == api.KindPod {
			pods++
		}
	}
	for _, id := range sortedIDs(l.boxes) {
		b := l.boxes[id]
		if b.Kind == "PodGroup" {
			if owner, ok := l.groupOwner(b); ok {
				l.f.Edges = append(l.f.Edges, Edge{From: owner, To: b.ID, Kind: "owns"})
			}
			continue
		}
		if b.Key.Kind == "" {
			continue
		}
		o, ok := st.Get(b.Key)
		if !ok {
			continue
		}
		if ref := o.Meta().ControllerRef(); ref != nil {
			owner := api.Key{Kind: ref.Kind, Namespace: b.Key.Namespace, Name: ref.Name}.String()
			if _, drawn := l.boxes[owner]; drawn {
				l.f.Edges = append(l.f.Edges, Edge{From: owner, To: b.ID, Kind: "owns"})
			}
		}
		if edge := viewOf(o.GetKind()).edge; edge != nil {
			edge(l, b, o, pods)
		}
	}
	l.pdbEdges()
	sort.Slice(l.f.Edges, func(i, j int) bool { return l.f.Edges[i].From+l.f.Edges[i].To < l.f.Edges[j].From+l.f.Edges[j].To })
}

// groupOwner is the box of the owner whose pods a group box stands for.
func (l *layout) groupOwner(g *Box) (string, bool) {
	for _, ln := range l.s.lanes {
		for _, o := range ln.owners {
			if o.box != nil && groupID(o) == g.ID {
				if _, drawn := l.boxes[o.box.ID]; drawn {
					return o.box.ID, true
				}
			}
		}
	}
	return "", false
}

// highlight marks the tick's actor and the boxes it wrote, and draws an
// arrow per effect.
func (l *layout) highlight() {
	t := l.m.Current()
	if t == nil {
		return
	}
	actor := l.boxes[t.Object.String()]
	if actor != nil {
		actor.Actor = true
	}
	l.rulesArrows(t)
	l.metricsArrows(t)
	l.pdbArrows(t)
	for _, e := range t.Effects {
		if k, ok := serviceOf(e); ok {
			if svc := l.boxes[k.String()]; svc != nil {
				svc.Highlight = e.Class
				l.f.Arrows = append(l.f.Arrows, intoSide(svc, e.Class, "→ endpoints"))
			}
			continue
		}
		target := l.boxOf(e)
		if target != nil && (target.Highlight == 0 || e.Class != trace.Event) {
			target.Highlight = e.Class
		}
		if a, ok := l.arrow(t, actor, target, e); ok && !slices.Contains(l.f.Arrows, a) {
			l.f.Arrows = append(l.f.Arrows, a) // once: the pods a group counts share its arrow
		}
	}
	l.placeLabels()
}

// boxOf is the box an effect's object is drawn in: its own, else the
// group it is counted in.
func (l *layout) boxOf(e trace.Effect) *Box {
	if b := l.boxes[e.Object.String()]; b != nil {
		return b
	}
	o := e.After
	if o == nil {
		o = e.Before
	}
	switch e.Object.Kind {
	case api.KindPod:
		uid := ""
		if o != nil {
			if ref := o.Meta().ControllerRef(); ref != nil {
				uid = ref.UID
			}
		}
		return l.boxes[groupID(&owner{uid: uid})]
	case api.KindNode:
		return l.boxes["nodes"]
	}
	return nil
}

// symbolLabel is an effect class's label: its symbol and name.
func symbolLabel(c trace.Class) string { return c.Symbol() + " " + c.String() }

func (l *layout) arrow(t *trace.Tick, actor, target *Box, e trace.Effect) (Arrow, bool) {
	label := symbolLabel(e.Class)
	switch {
	case e.Class == trace.Event:
		from := actor
		if from == nil {
			from = target
		}
		if from == nil {
			return Arrow{}, false
		}
		x, y := from.X+from.W-10, from.Y+from.H
		return Arrow{X1: x, Y1: y, X2: l.f.EventsX, Y2: y + podGap/2, ViaY: y + podGap/2, Class: e.Class, Label: label}, true
	case target == nil:
		return Arrow{}, false
	case e.Class == trace.Aggregate && target.Kind == api.KindPodDisruptionBudget:
		return Arrow{}, false // pdbArrows draws it from the pods
	case e.Class == trace.Aggregate:
		return fromBelow(target, e.Class, label), true
	case e.Class == trace.Realize:
		node := l.boxes["Node/"+t.Host]
		if node == nil {
			node = l.boxes["nodes"]
		}
		if node == nil || node == target {
			return fromBelow(target, e.Class, label), true
		}
		return Arrow{X1: node.X + node.W/2, Y1: node.Y, X2: target.X + target.W/2, Y2: target.Y + target.H, Class: e.Class, Label: label}, true
	case e.Class == trace.Bind:
		if p, ok := e.After.(*api.Pod); ok && p.Spec.NodeName != "" {
			node := l.boxes["Node/"+p.Spec.NodeName]
			if node == nil {
				node = l.boxes["nodes"]
			}
			if node != nil {
				return Arrow{X1: target.X + target.W/2, Y1: target.Y + target.H, X2: node.X + node.W/2, Y2: node.Y, Class: e.Class, Label: label}, true
			}
		}
		return Arrow{X1: target.X + target.W/2, Y1: target.Y + target.H, X2: target.X + target.W/2, Y2: l.f.SchedulerY, Class: e.Class, Label: label}, true
	}
	from := actor
	if (from == nil || from == target) && target.Kind == api.KindService {
		return intoSide(target, e.Class, label), true
	}
	if from == nil || from == target {
		return Arrow{X1: target.X + target.W/2, Y1: target.Y - rowGap + 4, X2: target.X + target.W/2, Y2: target.Y, Class: e.Class, Label: label}, true
	}
	return Arrow{X1: from.X + from.W/2, Y1: from.Y + from.H, X2: target.X + target.W/2, Y2: target.Y, Class: e.Class, Label: label}, true
}

// fromBelow is an arrow that rises into a box from the gap under it: a
// summary written from the layer below.
func fromBelow(b *Box, c trace.Class, label string) Arrow {
	return Arrow{X1: b.X + b.W/2, Y1: b.Y + b.H + rowGap - 4, X2: b.X + b.W/2, Y2: b.Y + b.H, Class: c, Label: label}
}

// intoSide is an arrow into a box's left side, from the gap beside it:
// a write to a Service, whose boxes stand in rows and columns where an
// arrow from above would cross the box over it.
func intoSide(b *Box, c trace.Class, label string) Arrow {
	y := b.Y + b.H/2
	return Arrow{X1: b.X - gapX + 1, Y1: y, X2: b.X, Y2: y, Class: c, Label: label}
}

// rect is an area of the diagram.
type rect struct{ x0, y0, x1, y1 int }

func (r rect) overlaps(o rect) bool { return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1 }

// labelRect is where a label's text lies, its baseline at (x, y): a
// line of FontPx text rises 11 px above its baseline and falls 3 below.
func labelRect(x, y int, text string) rect { return rect{x, y - 11, x + TextPx(runes(text)), y + 3} }

// placeLabels puts each arrow's label at the first of its spots that
// covers no box, no other label and no text of the diagram, inside it;
// an arrow of the class and start of one already labelled, or with no
// free spot, shows none (its box's badge still names the class).
func (l *layout) placeLabels() {
	l.reserve()
	said := map[string]bool{}
	for i := range l.f.Arrows {
		a := &l.f.Arrows[i]
		key := fmt.Sprintf("%d %d %d", a.Class, a.X1, a.Y1)
		if a.Label == "" || said[key] {
			a.Label = ""
			continue
		}
		said[key] = true
		a.LabelX, a.LabelY, a.Label = l.placeLabel(a.Label, labelSpots(a.X1, a.Y1, a.X2, a.Y2, a.ViaY, a.Label))
	}
}

// reserve starts l.taken, once: the boxes and the diagram's texts.
func (l *layout) reserve() {
	if l.taken != nil {
		return
	}
	l.taken = make([]rect, 0, len(l.boxes)+len(l.f.Arrows)+len(l.f.Texts))
	for _, b := range l.boxes {
		l.taken = append(l.taken, rect{b.X - 2, b.Y - 2, b.X + b.W + 2, b.Y + b.H + 2})
	}
	for _, t := range l.f.Texts {
		if t.Vertical {
			l.taken = append(l.taken, rect{t.X - 4, t.Y, t.X + 12, t.Y + TextPx(runes(t.Text))})
			continue
		}
		l.taken = append(l.taken, labelRect(t.X, t.Y, t.Text))
	}
}

// placeLabel puts a label at the first of spots where it covers nothing
// placed before it (l.taken) and lies inside the diagram; "" when there
// is no such spot.
func (l *layout) placeLabel(label string, spots [][2]int) (x, y int, placed string) {
	for _, p := range spots {
		r := labelRect(p[0], p[1], label)
		if r.x0 < 0 || r.y0 < 0 || r.x1 > l.f.Width || r.y1 > l.f.Height || overlapsAny(r, l.taken) {
			continue
		}
		l.taken = append(l.taken, r)
		return p[0], p[1], label
	}
	return 0, 0, ""
}

func overlapsAny(r rect, rs []rect) bool {
	for _, o := range rs {
		if r.overlaps(o) {
			return true
		}
	}
	return false
}

// labelSpots are where an arrow's label may go, best first: beside its
// middle, then nearer either end, right of the line and left of it (a
// routed arrow's, above and below its run along the gap, from its end).
func labelSpots(x1, y1, x2, y2, viaY int, label string) [][2]int {
	w := TextPx(runes(label))
	var out [][2]int
	if viaY != 0 {
		for _, f := range []float64{0.8, 0.6, 0.4, 0.2, 1} {
			x := x1 + int(f*float64(x2-x1)) - w - 4
			out = append(out, [2]int{x, viaY - 3}, [2]int{x, viaY + 14})
		}
		return out
	}
	for _, f := range []float64{0.5, 0.3, 0.7, 0.15, 0.85} {
		x := x1 + int(f*float64(x2-x1))
		y := y1 + int(f*float64(y2-y1)) + 4
		out = append(out, [2]int{x + 5, y}, [2]int{x - 5 - w, y})
	}
	return out
}
