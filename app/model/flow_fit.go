package model

import (
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// MaxFitScale is how much larger than FontPx Fit draws a diagram that
// has room to spare.
const MaxFitScale = 1.5

// fit draws the scene at the first density of the ladder at which it
// fits the viewport, with its pods in as many rows as make it largest.
// When none fits and the viewport allows a smaller font (the embed's
// 11 px), the ladder is tried again for that font: laid out for a
// viewport larger by FontPx/MinFont, drawn smaller by as much. When
// nothing fits it is drawn at the densest, at FontPx, and the pane
// scrolls to the tick's objects.
func (s *scene) fit(v Viewport) Flow {
	if v.W <= 0 || v.H <= 0 {
		v.W, v.H = DefaultViewport.W, DefaultViewport.H
	}
	steps := ladder
	if v.All {
		steps = ladder[:1]
	}
	fonts := []int{FontPx}
	if v.MinFont > 0 && v.MinFont < FontPx && !v.All {
		fonts = append(fonts, v.MinFont)
	}
	var best *arrangement
	var bestMS *measured
	for _, font := range fonts {
		vv := v
		vv.W, vv.H = v.W*FontPx/font, v.H*FontPx/font
		for i, d := range steps {
			for _, w := range wrappings {
				d.wrapping = w
				ms := s.measure(d, vv.W)
				a := ms.bestRows(vv)
				if a.fits || v.All {
					return ms.draw(a, i)
				}
				if font == FontPx {
					best, bestMS = a, ms
				}
			}
		}
	}
	return bestMS.draw(best, len(steps)-1)
}

// bestRows arranges the measured scene with every count of pod rows and
// keeps the one drawn largest in the viewport (fewer rows on a tie).
func (ms *measured) bestRows(v Viewport) *arrangement {
	var best *arrangement
	for rows := 1; rows <= max(1, ms.maxCells); rows++ {
		a := ms.arrange(rows, v.W)
		a.scale = min(float64(v.W)/float64(a.width), float64(v.H)/float64(a.height), MaxFitScale)
		a.fits = a.scale >= 1 && !a.tooWide
		if best == nil || a.fits && !best.fits || a.fits == best.fits && a.scale > best.scale+1e-9 {
			best = a
		}
	}
	return best
}

// layout is a scene being drawn: its boxes placed, by ID.
type layout struct {
	m     *Model
	s     *scene
	f     *Flow
	boxes map[string]*Box
	// podsY is the y of the pods' row of each box's band, for arrows
	// that rise from it.
	podsY map[string]int
	// taken are the areas labels may not cover: the boxes, the diagram's
	// texts and the labels placed so far (placeLabels).
	taken []rect
}

// draw places the arranged scene and draws the tick on it.
func (ms *measured) draw(a *arrangement, step int) Flow {
	l := &layout{m: ms.s.m, s: ms.s, f: &Flow{}, boxes: map[string]*Box{}, podsY: map[string]int{}}
	f := l.f
	f.Width, f.Height, f.Fits, f.Density = a.width, a.height, a.fits, step
	if len(ms.grouped) > 0 {
		f.Grouped = "To fit, " + strings.Join(ms.grouped, "; ") + "."
	}
	if !ms.d.bare {
		f.Texts = append(f.Texts, Text{X: margin, Y: margin + 12, Text: headerText, Class: "header"})
	}
	y := margin + ms.headerH()
	for i, bd := range a.bands {
		if i > 0 {
			y += bandGap
		}
		l.placeBand(bd, margin+(a.contentW-bd.w)/2, y)
		y += bd.height()
	}
	f.Texts = append(f.Texts, Text{X: margin, Y: a.junctionY + 15, Text: a.junction, Class: "junction"})
	f.SchedulerY = a.junctionY + 20
	f.NodesY = a.junctionY + junctionH
	y = f.NodesY
	for _, r := range a.nodeRows {
		x := margin + (a.contentW-rowWidth(r))/2
		for _, b := range r {
			l.put(b, x, y, 0)
			x += b.W + gapX
		}
		y += rowHeight(r) + podGap
	}
	f.EventsX = margin + a.contentW + eventsGap + 2
	label := "◇ Events · a side channel"
	if TextPx(runes(label)) > f.Height-2*margin-headerH {
		label = "◇ Events"
	}
	f.Texts = append(f.Texts, Text{X: f.EventsX + 3, Y: margin + headerH, Text: label, Class: "events", Vertical: true})
	l.edges()
	l.highlight()
	l.markLesson()
	l.markWhy()
	f.Focus = l.focusBox()
	for _, id := range sortedIDs(l.boxes) {
		f.Boxes = append(f.Boxes, *l.boxes[id])
	}
	return *f
}

// placeBand places a band's pieces from x, its rows from y.
func (l *layout) placeBand(bd *band, x, y int) {
	rowsY := []int{y, y, y} // top, owners, pods
	next := y
	for i, h := range []int{bd.topH, bd.midH, bd.podsH} {
		rowsY[i] = next
		if h > 0 {
			next += h + rowGap
		}
	}
	for i, p := range bd.pieces {
		if i > 0 {
			x += laneGap
		}
		l.placePiece(p, x, y, rowsY[1], rowsY[2])
		x += p.w
	}
}

// placePiece places a piece of width p.w: its top row centred over it,
// its owners side by side, each centred over its grid of pods and the
// group box under it, and its column in rows from its top.
func (l *layout) placePiece(p *piece, x, topY, midY, podsY int) {
	tx := x + (p.w-rowWidth(p.top))/2
	for _, t := range p.top {
		l.put(t, tx, topY, podsY)
		tx += t.W + gapX
	}
	ow := 0
	for i, ob := range p.owners {
		if i > 0 {
			ow += gapX
		}
		ow += ob.width(p.rows)
	}
	ox := x + (p.w-ow)/2
	for _, ob := range p.owners {
		obw := ob.width(p.rows)
		if ob.box != nil {
			l.put(ob.box, ox+(obw-ob.box.W)/2, midY, podsY)
		}
		cols, _, _ := ob.grid(p.rows)
		gy := podsY
		if n := len(ob.cells); n > 0 {
			cx := ox + (obw-(cols*ob.cellW+(cols-1)*podGap))/2
			for i, c := range ob.cells {
				l.put(c, cx+(i%cols)*(ob.cellW+podGap), podsY+(i/cols)*(ob.cellH+podGap), podsY)
			}
			gy += ((n + cols - 1) / cols) * (ob.cellH + podGap)
		}
		if g := ob.group; g != nil {
			l.put(g, ox+(obw-g.W)/2, gy, podsY)
		}
		ox += obw + gapX
	}
	cy := topY
	for _, r := range p.column {
		cx := x
		for _, c := range r {
			l.put(c, cx, cy, podsY)
			cx += c.W + gapX
		}
		cy += rowHeight(r) + podGap
	}
}

// put places a box.
func (l *layout) put(b *Box, x, y, podsY int) {
	b.X, b.Y = x, y
	l.boxes[b.ID] = b
	l.podsY[b.ID] = podsY
}

// focusBox is the box to bring into view when the diagram does not fit:
// the tick's actor, else the first box it touched.
func (l *layout) focusBox() string {
	t := l.m.Current()
	if t == nil {
		return ""
	}
	if b := l.boxes[t.Object.String()]; b != nil {
		return b.ID
	}
	for _, id := range sortedIDs(l.boxes) {
		if l.boxes[id].Highlight != 0 {
			return id
		}
	}
	return ""
}

// markLesson marks the boxes of the objects the lesson's step points at.
func (l *layout) markLesson() {
	marks := l.m.LessonMarks()
	if len(marks) == 0 {
		return
	}
	set := map[api.Key]bool{}
	for _, k := range marks {
		set[k] = true
	}
	for _, b := range l.boxes {
		if b.Key.Kind != "" && set[b.Key] {
			b.Lesson = true
		}
	}
}

func sortedIDs(m map[string]*Box) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
