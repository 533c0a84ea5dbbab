package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
)

// embedFrames are the frames the embed is made for, as a blog's
// reader's page gives them (the page at that size: its layout is the
// frame's).
var embedFrames = []screen{{"embed-800x520", 800, 520, false}, {"embed-360x600", 360, 600, false}}

// moment is a share link to a scenario at a tick (and a lesson's step).
type moment struct {
	name string
	st   share.State
}

// exampleMoments are every example at its start, twelve steps into its
// story and settled, and every lesson at its first, middle and last
// step, as share links.
func exampleMoments(t *testing.T) []moment {
	t.Helper()
	var out []moment
	for _, ex := range examples.All() {
		m, err := model.New(ex.Source)
		if err != nil {
			t.Fatal(err)
		}
		for range 12 {
			m.StepVisible()
		}
		middle := m.Status().Tick
		m.RunUntilSettled()
		out = append(out,
			moment{ex.Name + " at its start", share.State{Scenario: ex.Source}},
			moment{ex.Name + " twelve steps in", share.State{Scenario: ex.Source, Tick: middle}},
			moment{ex.Name + " settled", share.State{Scenario: ex.Source, Tick: m.Status().Tick}})
	}
	for _, l := range examples.Lessons() {
		src, steps := embedLesson(t, l.Name)
		for _, i := range []int{0, len(steps) / 2, len(steps) - 1} {
			out = append(out, moment{fmt.Sprintf("lesson %s at step %d", l.Name, i+1), share.State{Scenario: src, Tick: steps[i].Tick, Lesson: i + 1}})
		}
	}
	return out
}

// The embed, for every example at three moments and every lesson at
// three steps, in a frame of 800×520 and of 360×600: the diagram's text
// is at least 11 px as rendered (its median too), what the tick wrote
// is on screen, nothing overlaps or leaves the frame, no caption line
// is cut. In the narrow frame a lesson and its diagram are two tabs;
// the diagram's is measured.
func TestEmbedLegibleEveryExample(t *testing.T) {
	moments := exampleMoments(t)
	for _, frame := range embedFrames {
		t.Run(frame.name, func(t *testing.T) {
			tb := newTabFor(t, 20*time.Minute)
			tb.resize(frame)
			for i, mo := range moments {
				// A query of its own: a new fragment alone would not reload.
				tb.openEmbed(strings.Replace(embedURL(mo.st), "?embed=1#", fmt.Sprintf("?embed=1&n=%d#", i), 1))
				tb.waitFor(sel("tick")+".textContent.trim() === "+js(fmt.Sprint(mo.st.Tick)), fmt.Sprintf("%s: tick %d", mo.name, mo.st.Tick))
				if mo.st.Lesson > 0 {
					tb.waitFor(sel("lesson")+`.dataset.busy === 'false'`, mo.name+": the lesson's step")
					if eval[bool](tb, `(b => !!b && b.offsetParent !== null)(`+sel("embed-view-flow")+`)`) {
						tb.click("embed-view-flow")
					}
				}
				tb.settle()
				measure := func() []string {
					problems := eval[[]string](tb, layoutProblems)
					for _, js := range []string{legibility(11), embedProblems, captionProblems} {
						problems = append(problems, eval[[]string](tb, js)...)
					}
					return problems
				}
				// What a reader sees once the page has laid itself out: on a
				// loaded machine the new page's Fit can land a few frames
				// after the tick shows, so a problem must outlast them.
				problems := measure()
				for try := 0; len(problems) > 0 && try < 5; try++ {
					tb.settle()
					problems = measure()
				}
				if len(problems) > 0 {
					t.Errorf("%s (%s, tick %s):\n  %s", mo.name, frame.name, tb.tick(), strings.Join(problems, "\n  "))
				}
			}
		})
	}
}

// openEmbed navigates a tab to the embed mode and waits until it has
// mounted.
func (tb *tab) openEmbed(url string) {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(url)); err != nil {
		tb.t.Fatalf("navigate: %v", err)
	}
	tb.waitFor(`document.querySelector('.embed') && document.querySelector('.embed').dataset.loaded === 'true' && !document.getElementById('app-wasm-loader')`, "the embed to load")
}
