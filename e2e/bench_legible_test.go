package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
)

// diagramTextJS measures the diagram's text as rendered: the font size of
// every visible text of the diagram times its element's scale on the
// screen; it returns the median and the smallest, in px.
const diagramTextJS = `(() => {
  const svg = document.querySelector('[data-testid=flow]'), out = [];
  for (const t of svg.querySelectorAll('text')) {
    if (t.getBoundingClientRect().width === 0) continue;
    const m = t.getScreenCTM();
    out.push(parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)));
  }
  out.sort((a, b) => a - b);
  return [out[out.length >> 1], out[0]];
})()`

// BenchmarkDiagramText reports the diagram's text as a reader sees it
// (its median and smallest rendered size, in px) in the views issue 38
// measured: the page at 1366×768 with the default example at its start
// and rolling-update twelve steps in, at 1920×1080, on a 390×844 phone's
// Flow pane, and the embed at 800×520 with a lesson and at 360×600 with
// and without one. It measures; it asserts nothing (the layout tests do).
func BenchmarkDiagramText(b *testing.B) {
	rolling, _ := examples.Get("rolling-update")
	src, steps := embedLesson(b, "first-rollout")
	lesson := share.State{Scenario: src, Tick: steps[2].Tick, Lesson: 3}
	mid := func(tb *tab) {
		tb.chooseExample("rolling-update")
		for range 12 {
			tb.click("step")
		}
	}
	views := []struct {
		name   string
		screen screen
		embed  *share.State
		setup  func(*tab)
	}{
		{"page-1366x768-default-start", screens[0], nil, func(tb *tab) { tb.chooseExample(examples.Default) }},
		{"page-1366x768-rolling-update", screens[0], nil, mid},
		{"page-1920x1080-rolling-update", screens[1], nil, mid},
		{"phone-390x844-rolling-update", screens[2], nil, func(tb *tab) { tb.show(screens[2], "flow"); mid(tb) }},
		{"embed-800x520-lesson", screen{"embed", 800, 520, false}, &lesson, nil},
		{"embed-360x600-rolling-update", screen{"embed", 360, 600, false}, &share.State{Scenario: rolling.Source, Tick: 24}, nil},
		{"embed-360x600-lesson", screen{"embed", 360, 600, false}, &lesson, nil},
	}
	for i, v := range views {
		b.Run(v.name, func(b *testing.B) {
			tb := newTab(b)
			tb.resize(v.screen)
			if v.embed != nil {
				tb.openEmbed(strings.Replace(embedURL(*v.embed), "?embed=1#", fmt.Sprintf("?embed=1&n=%d#", i), 1))
				tb.waitFor(sel("tick")+".textContent.trim() === "+js(fmt.Sprint(v.embed.Tick)), "the link's tick")
				if eval[bool](tb, `(b => !!b && b.offsetParent !== null)(`+sel("embed-view-flow")+`)`) {
					tb.click("embed-view-flow") // the diagram's tab in a narrow frame
				}
			} else {
				tb.open(shared.url)
				v.setup(tb)
				tb.fit()
			}
			tb.settle()
			px := eval[[]float64](tb, diagramTextJS)
			b.ReportMetric(px[0], "median-px")
			b.ReportMetric(px[1], "min-px")
		})
	}
}
