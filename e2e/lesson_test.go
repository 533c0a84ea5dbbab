package e2e

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/lesson"
)

// oracle plays a lesson natively: the page's steps, ticks and answers
// must be the same (the engine is deterministic).
type oracle struct {
	source string
	l      *lesson.Lesson
	steps  []lesson.Step
}

func newOracle(t *testing.T, name string) *oracle {
	t.Helper()
	src, l := testkit.Lesson(t, name)
	return &oracle{source: src, l: l, steps: testkit.Steps(t, l)}
}

// forgetLessons leaves the browser's storage as a new visitor's, so the
// lesson open here does not open in the tests that follow.
func (tb *tab) forgetLessons() {
	tb.t.Cleanup(func() {
		eval[bool](tb, `(localStorage.removeItem('stateflow.lessons'), localStorage.removeItem('stateflow.editor'), true)`)
	})
}

// openLesson opens a lesson from the menu.
func (tb *tab) openLesson(name string) {
	tb.t.Helper()
	tb.setValue("lessons", name)
	tb.lessonAt(1)
}

// lessonAt waits until the player shows step n (from 1), resolved.
func (tb *tab) lessonAt(n int) {
	tb.t.Helper()
	tb.waitFor(fmt.Sprintf(`(() => { const l = %s; return l && l.dataset.step === '%d' && l.dataset.busy === 'false' })()`, sel("lesson"), n), fmt.Sprintf("lesson step %d", n))
}

// waitTick waits until the page shows tick n.
func (tb *tab) waitTick(n int) {
	tb.t.Helper()
	tb.waitFor(sel("tick")+".textContent.trim() === "+js(fmt.Sprint(n)), fmt.Sprintf("tick %d (the page shows %s)", n, tb.tick()))
}

// choose answers the step's question with choice i.
func (tb *tab) choose(i int) {
	tb.t.Helper()
	eval[bool](tb, fmt.Sprintf(`(document.querySelectorAll('[data-testid=lesson-choice]')[%d].click(), true)`, i))
	tb.waitFor(fmt.Sprintf(`document.querySelectorAll('[data-testid=lesson-choice]')[%d].getAttribute('aria-pressed') === 'true'`, i), "the answer to register")
	tb.settle()
}

func capitalized(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// checkStep checks what the player and the page show at a resolved
// step: its progress, its tick, the diagram's marks (and their names)
// and the object inspected.
func (tb *tab) checkStep(o *oracle, i int, desktop bool) {
	tb.t.Helper()
	t, st := tb.t, o.steps[i]
	tb.lessonAt(i + 1)
	tb.waitTick(st.Tick)
	if got, want := tb.text("lesson-progress"), fmt.Sprintf("Step %d of %d", i+1, len(o.steps)); got != want {
		t.Errorf("step %d: progress %q, want %q", i+1, got, want)
	}
	if v := eval[[]float64](tb, `[+`+sel("lesson-bar")+`.value, +`+sel("lesson-bar")+`.max]`); v[0] != float64(i+1) || v[1] != float64(len(o.steps)) {
		t.Errorf("step %d: the progress bar is at %v", i+1, v)
	}
	marked := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=flow-node].lesson')].map(g => g.dataset.key).sort()`)
	var want []string
	for _, k := range st.Objects {
		want = append(want, k.String())
	}
	slices.Sort(want)
	if !slices.Equal(marked, want) {
		t.Errorf("step %d (tick %d): the diagram marks %v, want %v", i+1, st.Tick, marked, want)
	}
	for _, name := range eval[[]string](tb, `[...document.querySelectorAll('[data-testid=flow-node].lesson')].map(g => g.querySelector('title').textContent)`) {
		if !strings.Contains(name, "the lesson's step points at it") {
			t.Errorf("step %d: a marked box is announced as %q", i+1, name)
		}
	}
	if desktop && len(st.Objects) > 0 {
		if got := eval[string](tb, sel("inspect-object")+".value"); got != st.Objects[0].String() {
			t.Errorf("step %d: the inspector shows %q, want %s", i+1, got, st.Objects[0])
		}
	}
}

// A learner takes first-rollout from its first step to its last: each
// step goes to its tick, marks its objects and inspects the first; the
// first question answered wrong then right, the others right, each with
// its feedback and a Show me that goes to the proving tick. Reloading in
// the middle finds the learner's place and answers. At the end the
// player gives the score and offers the next lesson.
func TestLessonFirstRollout(t *testing.T) {
	o := newOracle(t, "first-rollout")
	tb := newTab(t)
	tb.resize(screens[0])
	tb.forgetLessons()
	tb.open(shared.url)
	tb.openLesson("first-rollout")
	if title := tb.text("lesson-title"); title != "How one manifest becomes running containers" {
		t.Fatalf("title %q", title)
	}
	if eval[string](tb, sel("editor")+".value") != o.source || tb.savedText() != o.source {
		t.Error("the editor does not hold the lesson's scenario")
	}
	if !strings.Contains(tb.text("lesson-text"), "kubectl apply stores the Deployment") {
		t.Errorf("step 1's text: %q", tb.text("lesson-text"))
	}
	if code := eval[string](tb, `document.querySelector('[data-testid=lesson-text] code').textContent`); code != "kubectl apply" {
		t.Errorf("the step's `code` is %q", code)
	}
	wrongFirst := true
	for i, st := range o.steps {
		tb.checkStep(o, i, true)
		if q := st.Question; q != nil {
			if !strings.Contains(tb.text("lesson-question"), q.Prompt) {
				t.Errorf("step %d: the question reads %q, want %q", i+1, tb.text("lesson-question"), q.Prompt)
			}
			if got := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=lesson-choice]')].map(b => b.textContent)`); !slices.Equal(got, q.Choices) {
				t.Errorf("step %d: choices %q, want %q", i+1, got, q.Choices)
			}
			if fb := tb.text("lesson-feedback"); fb != "" {
				t.Errorf("step %d: feedback %q before any answer", i+1, fb)
			}
			right := q.Choices[q.Answer]
			if wrongFirst {
				wrongFirst = false
				wrong := (q.Answer + 1) % len(q.Choices)
				tb.choose(wrong)
				fb := tb.text("lesson-feedback")
				if !strings.Contains(fb, "✗ Not quite. You chose "+q.Choices[wrong]+"; the answer is "+right+".") || !strings.Contains(fb, capitalized(q.Why)) {
					t.Errorf("step %d: after a wrong answer the feedback reads %q", i+1, fb)
				}
				if marks := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=lesson-choice]')].map(b => b.className)`); !strings.Contains(marks[q.Answer], "right") || !strings.Contains(marks[wrong], "wrong") {
					t.Errorf("step %d: the choices are marked %q", i+1, marks)
				}
			}
			tb.choose(q.Answer)
			fb := tb.text("lesson-feedback")
			if !strings.Contains(fb, "✓ Right: "+right+".") || !strings.Contains(fb, "The proof: "+capitalized(q.Why)) || strings.Contains(fb, "Not quite") {
				t.Errorf("step %d: after the right answer the feedback reads %q", i+1, fb)
			}
			tb.click("lesson-show-me")
			tb.waitTick(q.Proof)
			if !strings.HasPrefix(tb.text("tick-caption"), fmt.Sprintf("Tick %d:", q.Proof)) {
				t.Errorf("step %d: Show me shows %q", i+1, tb.text("tick-caption"))
			}
			tb.click("lesson-return")
			tb.waitTick(st.Tick)
		}
		if i == 3 {
			// A reload in the middle: the same step, at its tick, with its
			// answer; the first step keeps its (wrong, then right) answer.
			tb.open(shared.url)
			tb.checkStep(o, 3, true)
			if fb := tb.text("lesson-feedback"); !strings.Contains(fb, "✓ Right: "+st.Question.Choices[st.Question.Answer]) {
				t.Errorf("after a reload step 4's feedback reads %q", fb)
			}
			for range 3 {
				tb.click("lesson-back")
			}
			tb.checkStep(o, 0, true)
			if fb := tb.text("lesson-feedback"); !strings.Contains(fb, "✓ Right: ") {
				t.Errorf("after a reload step 1's feedback reads %q", fb)
			}
			for j := range 3 {
				tb.click("lesson-next")
				tb.lessonAt(j + 2)
			}
		}
		if i < len(o.steps)-1 {
			tb.click("lesson-next")
		}
	}
	questions := 0
	for _, st := range o.steps {
		if st.Question != nil {
			questions++
		}
	}
	if score, want := tb.text("lesson-score"), fmt.Sprintf("You answered %d of %d questions right at the first try.", questions-1, questions); score != want {
		t.Errorf("score %q, want %q", score, want)
	}
	second := newOracle(t, examples.Lessons()[1].Name)
	if next := eval[string](tb, `(document.querySelector('[data-testid=lesson-next-lesson]') || {title: ''}).title`); next != "Open the next lesson: "+second.l.Title() {
		t.Errorf("at the end the player offers %q, want the next lesson, %q", next, second.l.Title())
	}
	tb.click("lesson-back")
	tb.lessonAt(len(o.steps) - 1)
	if !eval[bool](tb, sel("lesson-back")+".disabled === false") {
		t.Error("Back is disabled in the middle")
	}
	tb.click("lesson-close")
	if eval[bool](tb, `!!`+sel("lesson")+` || document.querySelectorAll('[data-testid=flow-node].lesson').length > 0`) {
		t.Error("the player is still open, or boxes still marked, after Close")
	}
}

// A share link made at a step opens the player there: the page's Share
// at a step, and a link made at a proving tick, which stays at its tick.
func TestLessonShareLink(t *testing.T) {
	o := newOracle(t, "first-rollout")
	tb := newTab(t)
	tb.forgetLessons()
	tb.open(shared.url)
	tb.openLesson("first-rollout")
	tb.click("lesson-next")
	tb.click("lesson-next")
	tb.checkStep(o, 2, true)
	tb.click("share")
	link := eval[string](tb, sel("share-link")+".value")
	// The notice reads "Copying the link…" until the clipboard answers,
	// which a loaded machine may take a moment to do.
	opens := "opens this lesson at step 3, tick " + fmt.Sprint(o.steps[2].Tick)
	if !strings.Contains(link, "#s=") || !tb.poll(sel("share-notice")+".textContent.includes("+strconv.Quote(opens)+")") {
		t.Fatalf("share: %q, notice %q", link, tb.text("share-notice"))
	}
	st, err := share.Decode(link[strings.Index(link, "#"):])
	if err != nil || st.Lesson != 3 || st.Tick != o.steps[2].Tick {
		t.Fatalf("the link carries %+v (%v)", st, err)
	}
	tb.click("lesson-back") // the learner's own place is step 2 now

	other := newTab(t)
	other.open(link)
	other.checkStep(o, 2, true)

	s5 := o.steps[4]
	frag := share.EncodeState(share.State{Scenario: o.source, Tick: s5.Question.Proof, Lesson: 5})
	third := newTab(t)
	third.resize(screens[2])
	third.open(shared.url + "#" + frag)
	third.lessonAt(5)
	third.waitTick(s5.Question.Proof)
	if !eval[bool](third, `!!`+sel("lesson")+` && getComputedStyle(`+sel("lesson")+`).display !== 'none'`) {
		t.Error("on a phone the link opens on the lesson's pane")
	}
	if !eval[bool](third, `!!`+sel("lesson-return")) {
		t.Error("away from the step's tick, the player does not offer to go back to it")
	}
}

// lessonProblems is what is wrong with the player on screen: it scrolls
// sideways, its Back and Next are off screen or hidden, its text is
// clipped.
const lessonProblems = `(() => {
  const out = [], l = document.querySelector('[data-testid=lesson]');
  if (!l || l.offsetParent === null) return out;
  const r = e => e.getBoundingClientRect();
  for (const e of [l, l.querySelector('.lesson-scroll')])
    if (e.scrollWidth > e.clientWidth + 1) out.push('the player scrolls sideways: ' + e.scrollWidth + ' px in ' + e.clientWidth);
  const pane = r(l);
  for (const id of ['lesson-back', 'lesson-next', 'lesson-next-lesson', 'lesson-close']) {
    const b = l.querySelector('[data-testid=' + id + ']');
    if (!b) continue;
    const br = r(b);
    if (br.left < pane.left - 1 || br.right > pane.right + 1 || br.top < pane.top - 1 || br.bottom > Math.min(pane.bottom, window.innerHeight) + 1)
      out.push(id + ' is not inside the player on screen');
  }
  for (const e of l.querySelectorAll('.lesson-scroll *')) {
    if (e.offsetParent === null || e.closest('details:not([open]) > :not(summary)')) continue;
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'auto') out.push('clipped: ' + (e.dataset.testid || e.tagName) + ' ' + e.textContent.slice(0, 40));
  }
  return out;
})()`

// TestLessonLayout opens every lesson at two sizes (every size for the
// first) and checks, at its first step, at a question answered and at
// its last step, what the layout tests check of every example (boxes,
// labels, the diagram in its pane, no sideways scrolling, 44 px controls
// on a phone, the phone's panes) and what axe-core reports, with the
// player open; and that the player itself neither scrolls sideways nor
// loses its buttons. The first lesson is also checked in the dark theme.
func TestLessonLayout(t *testing.T) {
	src := axeSource(t)
	for _, s := range screens {
		for _, theme := range []string{"light", "dark"} {
			if theme == "dark" && s.name == "desktop" {
				continue
			}
			t.Run(s.name+"/"+theme, func(t *testing.T) {
				tb := newTab(t)
				tb.resize(s)
				tb.scheme(theme)
				tb.forgetLessons()
				tb.open(shared.url)
				for li, ex := range examples.Lessons() {
					if li > 0 && (s.name == "desktop" || theme == "dark") {
						break
					}
					o := newOracle(t, ex.Name)
					tb.openLesson(ex.Name)
					question := slices.IndexFunc(o.steps, func(st lesson.Step) bool { return st.Question != nil })
					for _, moment := range []string{"first step", "a question answered", "last step"} {
						switch moment {
						case "a question answered":
							if question < 0 {
								continue
							}
							tb.show(s, "lesson")
							for range question {
								tb.click("lesson-next")
							}
							tb.lessonAt(question + 1)
							tb.choose(0)
						case "last step":
							tb.show(s, "lesson")
							for tb.text("lesson-progress") != fmt.Sprintf("Step %d of %d", len(o.steps), len(o.steps)) {
								tb.click("lesson-next")
							}
							tb.lessonAt(len(o.steps))
						}
						check := func(pane string) {
							t.Helper()
							problems := append(eval[[]string](tb, layoutProblems), eval[[]string](tb, legibility(12))...)
							if len(problems) > 0 {
								t.Errorf("%s at its %s (%s, %s pane):\n  %s", ex.Name, moment, s.name, pane, strings.Join(problems, "\n  "))
							}
							if problems := eval[[]string](tb, lessonProblems); len(problems) > 0 {
								t.Errorf("%s at its %s (%s, %s pane): the player:\n  %s", ex.Name, moment, s.name, pane, strings.Join(problems, "\n  "))
							}
							if v := tb.axe(src); len(v) > 0 {
								t.Errorf("%s at its %s (%s, %s pane): axe reports:\n  %s", ex.Name, moment, s.name, pane, strings.Join(v, "\n  "))
							}
						}
						if s.phone {
							check("lesson")
							tb.show(s, "flow")
							tb.fit()
							check("flow")
						} else {
							tb.fit()
							check("desktop")
						}
					}
					tb.show(s, "lesson")
					tb.click("lesson-close")
				}
			})
		}
	}
}

// On a phone the lesson has a pane of its own, and the Flow pane a strip
// that steps the lesson; Show me shows the diagram.
func TestLessonOnAPhone(t *testing.T) {
	o := newOracle(t, "first-rollout")
	tb := newTab(t)
	tb.resize(screens[2])
	tb.forgetLessons()
	tb.open(shared.url)
	tb.openLesson("first-rollout")
	if !eval[bool](tb, `!!document.querySelector('.workspace.view-lesson') && `+sel("view-lesson")+`.getAttribute('aria-pressed') === 'true'`) {
		t.Fatal("opening a lesson on a phone does not show its pane")
	}
	tb.choose(o.steps[0].Question.Answer)
	tb.click("lesson-show-me")
	tb.waitTick(o.steps[0].Question.Proof)
	if !eval[bool](tb, `!!document.querySelector('.workspace.view-flow')`) {
		t.Error("Show me does not show the diagram")
	}
	if got := tb.text("strip-read"); got != fmt.Sprintf("Lesson step 1 of %d", len(o.steps)) {
		t.Errorf("the strip reads %q", got)
	}
	tb.click("strip-next")
	tb.lessonAt(2)
	tb.waitTick(o.steps[1].Tick)
	tb.click("strip-read")
	if !eval[bool](tb, `!!document.querySelector('.workspace.view-lesson')`) {
		t.Error("the strip does not open the lesson's pane")
	}
}

// inView says an element lies within the scrolling pane around it and
// within the window: a learner sees it without scrolling.
func inView(selector string) string {
	return `(() => { const e = document.querySelector(` + js(selector) + `); if (!e || e.offsetParent === null) return false;
	  const r = e.getBoundingClientRect(); let p = e.parentElement;
	  while (p && getComputedStyle(p).overflowY !== 'auto' && getComputedStyle(p).overflowY !== 'scroll') p = p.parentElement;
	  const c = p ? p.getBoundingClientRect() : {top: 0, bottom: innerHeight, left: 0, right: innerWidth};
	  return r.top >= Math.max(0, c.top) - 1 && r.bottom <= Math.min(innerHeight, c.bottom) + 1 && r.left >= c.left - 1 && r.right <= c.right + 1 })()`
}

// At 1366×768 a learner reads each question of a lesson, answers it and
// sees the verdict and Show me, without scrolling: the player brings
// them into view. A step that names a field opens the inspector on its
// object with the field marked, in view.
func TestLessonFitsTheLaptop(t *testing.T) {
	for _, name := range []string{"first-rollout", "eventual-consistency"} {
		t.Run(name, func(t *testing.T) {
			o := newOracle(t, name)
			tb := newTab(t)
			tb.resize(screens[0])
			tb.forgetLessons()
			tb.open(shared.url)
			tb.openLesson(name)
			fields := 0
			for i, st := range o.steps {
				if i > 0 {
					tb.click("lesson-next")
				}
				tb.lessonAt(i + 1)
				tb.waitTick(st.Tick)
				if st.Field != "" && len(st.Objects) > 0 {
					fields++
					tb.settle()
					note := eval[string](tb, `(e => e ? e.textContent : '')(`+sel("inspector-lesson")+`)`)
					switch {
					case strings.Contains(note, "does not have yet"):
						// The field is not set at the step's tick (a pod not yet bound).
					case note == "" || !eval[bool](tb, inView("[data-testid=inspector] .lesson-field")):
						t.Errorf("step %d names %s of %s: the inspector does not show it marked and in view (its note: %q)", i+1, st.Field, st.Objects[0], note)
					}
				}
				if st.Question == nil {
					continue
				}
				if !eval[bool](tb, inView("#lesson-prompt")) {
					t.Errorf("step %d: the question is not in view", i+1)
				}
				tb.choose((st.Question.Answer + 1) % len(st.Question.Choices))
				tb.waitFor(sel("lesson-show-me"), "the feedback")
				tb.settle()
				for _, part := range []string{"[data-testid=lesson-feedback] .verdict", "[data-testid=lesson-show-me]"} {
					if !eval[bool](tb, inView(part)) {
						t.Errorf("step %d: %s is not in view after the answer", i+1, part)
					}
				}
			}
			if name == "eventual-consistency" && fields == 0 {
				t.Error("no step names a field")
			}
		})
	}
}
