package model

import (
	"fmt"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
)

// paneSizes are the diagram's panes as the browser measures them (less
// their padding, rounded down): the page at 1366×768 and 1920×1080, a
// 390×844 phone's Flow pane, and the embed at 800×520 and 360×600, with
// a lesson and without (where text may be 11 px).
var paneSizes = []struct {
	name string
	v    Viewport
}{
	{"laptop", Viewport{W: 689, H: 450}},
	{"desktop", Viewport{W: 1000, H: 760}},
	{"phone", Viewport{W: 366, H: 510}},
	{"embed", Viewport{W: 792, H: 396, MinFont: 11}},
	{"embed-lesson", Viewport{W: 472, H: 396, MinFont: 11}},
	{"embed-narrow", Viewport{W: 352, H: 460, MinFont: 11}},
	{"embed-narrow-lesson", Viewport{W: 352, H: 410, MinFont: 11}},
}

// TestEveryExampleFitsLegibly lays out every example at its start, at
// every fifth tick and settled, in every pane size, and checks what a
// reader would: the diagram fits its pane at full size (so its text is
// FontPx or larger, in the embed its MinFont), no box overlaps another, every line fits its box,
// no label covers a box or another label, and every object the tick
// wrote is drawn by itself. The oracle is geometry, not the layout.
func TestEveryExampleFitsLegibly(t *testing.T) {
	for _, ex := range examples.All() {
		t.Run(ex.Name, func(t *testing.T) {
			t.Parallel()
			m, err := New(ex.Source)
			if err != nil {
				t.Fatal(err)
			}
			m.RunUntilSettled()
			last := m.Status().Tick
			for tick := 0; tick <= last; tick++ {
				if tick%5 != 0 && tick != last {
					continue
				}
				m.Seek(tick)
				for _, p := range paneSizes {
					f := m.Flow(p.v)
					for _, problem := range layoutProblems(m, f, p.v) {
						t.Errorf("tick %d, %s (%dx%d): %s", tick, p.name, p.v.W, p.v.H, problem)
					}
				}
			}
		})
	}
}

// layoutProblems says what is wrong with a diagram laid out for v.
func layoutProblems(m *Model, f Flow, v Viewport) []string {
	var out []string
	font := FontPx
	if v.MinFont > 0 {
		font = v.MinFont
	}
	if !f.Fits || f.Width*font > v.W*FontPx || f.Height*font > v.H*FontPx {
		out = append(out, fmt.Sprintf("the diagram (%dx%d at density %d) does not fit its pane", f.Width, f.Height, f.Density))
	}
	boxes := make([]rect, len(f.Boxes))
	for i, b := range f.Boxes {
		boxes[i] = rect{b.X, b.Y, b.X + b.W, b.Y + b.H}
		if b.X < 0 || b.Y < 0 || b.X+b.W > f.Width || b.Y+b.H > f.Height {
			out = append(out, fmt.Sprintf("%s lies outside the diagram", b.ID))
		}
		if n := CharsIn(b.W); runes(b.Title) > CharsIn(b.W-2*BadgeW) || longest(b.Lines) > n {
			out = append(out, fmt.Sprintf("%s's text (%q %q) does not fit its width %d", b.ID, b.Title, b.Lines, b.W))
		}
		if h := BoxHeight(1 + len(b.Lines)); b.H < h {
			out = append(out, fmt.Sprintf("%s is %d high for %d lines", b.ID, b.H, 1+len(b.Lines)))
		}
		for j := range i {
			if boxes[i].overlaps(boxes[j]) {
				out = append(out, fmt.Sprintf("%s overlaps %s", b.ID, f.Boxes[j].ID))
			}
		}
	}
	var labels []rect
	for _, a := range f.Arrows {
		if a.Label == "" {
			continue
		}
		r := labelRect(a.LabelX, a.LabelY, a.Label)
		if r.x0 < 0 || r.y0 < 0 || r.x1 > f.Width || r.y1 > f.Height {
			out = append(out, fmt.Sprintf("the label %q lies outside the diagram", a.Label))
		}
		for i, b := range boxes {
			if r.overlaps(b) {
				out = append(out, fmt.Sprintf("the label %q covers %s", a.Label, f.Boxes[i].ID))
			}
		}
		for _, l := range labels {
			if r.overlaps(l) {
				out = append(out, fmt.Sprintf("the label %q covers another", a.Label))
			}
		}
		labels = append(labels, r)
	}
	return append(out, undrawnWrites(m, f)...)
}

// undrawnWrites are the objects the current tick wrote that exist and
// are not drawn by themselves.
func undrawnWrites(m *Model, f Flow) []string {
	t := m.Current()
	if t == nil {
		return nil
	}
	drawn := map[api.Key]bool{}
	for _, b := range f.Boxes {
		drawn[b.Key] = true
	}
	var out []string
	for _, e := range t.Effects {
		switch e.Object.Kind {
		case api.KindEvent, api.KindEndpointSlice, api.KindEndpoints, api.KindControllerRevision, api.KindPersistentVolumeClaim, "NodeMetrics", "PodMetrics":
			continue // not drawn: a Service's box tells its slices
		}
		if _, ok := m.eng.Store().Get(e.Object); ok && !drawn[e.Object] && e.Class != trace.Event {
			out = append(out, fmt.Sprintf("the tick wrote %s, which is not drawn by itself", e.Object))
		}
	}
	return out
}
