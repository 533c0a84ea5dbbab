package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// On a phone the controls are one strip over the diagram: Back, Play,
// Step, the tick and clock and More, on one row, each at least 44 px;
// More opens the rest (Reset, speed, run, the view, the timeline) over
// the diagram, which keeps its size, and closes again.
func TestPhoneControlsAreOneStrip(t *testing.T) {
	tb := newTab(t)
	tb.resize(screens[2])
	tb.open(shared.url)
	tb.chooseExample("rolling-update")
	strip := eval[[]float64](tb, `['step-back', 'play', 'step', 'more-controls'].map(id => document.querySelector('[data-testid="' + id + '"]').getBoundingClientRect()).flatMap(r => [r.top, r.height])`)
	for i := 0; i < len(strip); i += 2 {
		if strip[i] != strip[0] || strip[i+1] < 43.5 {
			t.Errorf("the strip's controls (top, height): %v, want one row of 44 px", strip)
			break
		}
	}
	if shown := eval[bool](tb, `(e => e.offsetParent !== null)(`+sel("reset")+`)`); shown {
		t.Error("Reset is in the strip; it belongs under More")
	}
	pane := eval[float64](tb, sel("flow-pane")+".getBoundingClientRect().height")
	tb.click("more-controls")
	if got := eval[string](tb, sel("more-controls")+".getAttribute('aria-expanded')"); got != "true" {
		t.Fatalf("More: aria-expanded %s", got)
	}
	for _, id := range []string{"reset", "speed", "run", "story", "every-tick", "timeline", "next-bind"} {
		if !eval[bool](tb, `(e => e.offsetParent !== null && e.getBoundingClientRect().height > 0)(`+sel(id)+`)`) {
			t.Errorf("More does not show %s", id)
		}
	}
	if problems := eval[[]string](tb, layoutProblems); len(problems) > 0 {
		t.Errorf("More open: %s", strings.Join(problems, "; "))
	}
	if after := eval[float64](tb, sel("flow-pane")+".getBoundingClientRect().height"); after != pane {
		t.Errorf("opening More changed the diagram's height from %.0f to %.0f px", pane, after)
	}
	tb.click("more-controls")
	if eval[bool](tb, `(e => e.offsetParent !== null)(`+sel("reset")+`)`) {
		t.Error("More does not close")
	}
}

// Autoplay starts at a pace a person can read (one step a second), and
// the story/every-tick switch shows which view is on: the one pressed is
// filled, and a press switches both.
func TestPaceAndViewSwitch(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	if speed := eval[string](tb, sel("speed")+".value"); speed != "1" {
		t.Errorf("autoplay's speed is %s steps/s, want 1", speed)
	}
	state := func() string {
		return eval[string](tb, `['story', 'every-tick'].map(id => (e => e.getAttribute('aria-pressed') + ':' + (getComputedStyle(e).backgroundColor === getComputedStyle(document.querySelector('[data-testid=step]')).backgroundColor))(document.querySelector('[data-testid="' + id + '"]'))).join(' ')`)
	}
	if got := state(); got != "true:true false:false" {
		t.Errorf("at load (pressed:filled) %s, want the story pressed and filled", got)
	}
	tb.click("every-tick")
	if got := state(); got != "false:false true:true" {
		t.Errorf("after Every tick (pressed:filled) %s", got)
	}
	tb.click("story")
	if got := state(); got != "true:true false:false" {
		t.Errorf("after Story (pressed:filled) %s", got)
	}
}

// The key under the diagram defines its words without a hover: opened,
// it says what each class of effect, a stale cache, a resourceVersion, a
// conflict, quiet ticks and the marks of small pods mean.
func TestKeyDefinesTheWords(t *testing.T) {
	for _, s := range []screen{screens[0], screens[2]} {
		t.Run(s.name, func(t *testing.T) {
			tb := newTab(t)
			tb.resize(s)
			tb.open(shared.url)
			eval[bool](tb, `(document.querySelector('[data-testid=key] summary').click(), true)`)
			tb.settle()
			terms := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=key-body] dt')].filter(e => e.offsetParent !== null).map(e => e.textContent)`)
			for _, want := range []string{"↓ translate", "⇣ bind", "● realize", "↑ aggregate", "◇ event", "◔ stale cache", "resourceVersion", "conflict", "quiet ticks"} {
				found := false
				for _, t := range terms {
					found = found || t == want
				}
				if !found {
					t.Errorf("the key does not define %q (it defines %q)", want, terms)
				}
			}
			if problems := eval[[]string](tb, layoutProblems); len(problems) > 0 {
				t.Errorf("the key open: %s", strings.Join(problems, "; "))
			}
			if r := eval[[]float64](tb, `(r => [r.top, r.bottom])(`+sel("key-body")+`.getBoundingClientRect())`); r[0] < 0 || r[1] > float64(s.height) {
				t.Errorf("the open key lies at %v, off the %d px screen", r, s.height)
			}
		})
	}
}

// A caption longer than its lines ends at a line's end and offers
// "more", which shows it whole; "less" puts it back. (A quiet fold's
// caption is long: it says what each component retried and why.)
func TestCaptionReadsInFull(t *testing.T) {
	for _, s := range []screen{screens[0], screens[2]} {
		t.Run(s.name, func(t *testing.T) {
			tb := newTab(t)
			tb.resize(s)
			tb.open(shared.url)
			tb.chooseExample("rolling-update")
			cap := sel("tick-caption")
			for i := 0; i < 60 && !eval[bool](tb, cap+`.scrollHeight > `+cap+`.clientHeight + 1`); i++ {
				tb.click("step")
			}
			if !eval[bool](tb, cap+`.scrollHeight > `+cap+`.clientHeight + 1`) {
				t.Fatal("no caption in 60 steps is longer than its lines")
			}
			if problems := eval[[]string](tb, captionProblems); len(problems) > 0 {
				t.Fatalf("tick %s: %s", tb.tick(), strings.Join(problems, "; "))
			}
			tb.click("tick-caption-more")
			if full := eval[bool](tb, cap+`.scrollHeight <= `+cap+`.clientHeight + 1`); !full {
				t.Errorf("tick %s: more does not show the whole caption", tb.tick())
			}
			if got := eval[string](tb, sel("tick-caption-more")+".getAttribute('aria-expanded')"); got != "true" {
				t.Errorf("more: aria-expanded %s", got)
			}
			tb.click("tick-caption-more")
			if problems := eval[[]string](tb, captionProblems); len(problems) > 0 || eval[bool](tb, cap+`.scrollHeight <= `+cap+`.clientHeight + 1`) {
				t.Errorf("less does not put the caption back on its lines: %v", problems)
			}
		})
	}
}

// A rolling update shows its own numbers: the Deployment's box says the
// pods there are against the bounds maxSurge and maxUnavailable resolve
// to, and the terminating pods apart, not counted; a terminating pod is
// drawn as going away.
func TestRollingUpdateShowsItsBounds(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("rolling-update")
	// What the box shows: its lines, not its accessible name or its tip.
	deploy := `(g => g ? [...g.querySelectorAll(':scope > text')].map(t => t.textContent).join('\n') : '')(document.querySelector('[data-testid=flow-node][data-kind=Deployment]'))`
	for i := 0; i < 200 && !strings.Contains(eval[string](tb, deploy), "terminating"); i++ {
		tb.click("step")
	}
	text := eval[string](tb, deploy)
	if !strings.Contains(text, "of ≤ 5 · ≥ 3 available") || !strings.Contains(text, "terminating (not counted)") {
		t.Fatalf("the Deployment's box reads %q: want its pods against ≤ 5 and ≥ 3, and its terminating pods apart", text)
	}
	going := eval[int](tb, `[...document.querySelectorAll('[data-testid=flow-node][data-kind=Pod]')].filter(g => [...g.querySelectorAll(':scope > text')].some(t => t.textContent.includes('Terminating')) && g.classList.contains('status-gone')).length`)
	if going == 0 {
		t.Error("no terminating pod is drawn as going away")
	}
}

// Many pods in a phone's pane are grouped by owner, with counts; a tap on
// a group draws its pods one by one, and a second folds them; Show all
// draws every pod. The text stays 12 px or larger throughout.
func TestGroupsOpenAndFold(t *testing.T) {
	tb := newTab(t)
	tb.resize(screens[2])
	tb.open(shared.url)
	tb.chooseExample("proportional-scaling")
	for i := 0; i < 100 && eval[int](tb, `document.querySelectorAll('[data-testid=flow-node][data-kind=PodGroup]').length`) == 0; i++ {
		tb.click("step")
	}
	pods := func() int {
		return eval[int](tb, `document.querySelectorAll('[data-testid=flow-node][data-kind=Pod]').length`)
	}
	group := `document.querySelector('[data-testid=flow-node][data-kind=PodGroup]')`
	if !eval[bool](tb, `!!`+group) {
		t.Fatal("no group on the phone in 100 steps of proportional-scaling")
	}
	before, opens := pods(), eval[string](tb, group+`.dataset.opens`)
	tb.clickElement(group)
	opened := fmt.Sprintf(`document.querySelector('[data-testid=flow-node][data-opens=%q]')`, opens)
	if after := pods(); after <= before || eval[string](tb, opened+`.getAttribute('aria-expanded')`) != "true" {
		t.Errorf("a tap on the group: %d pods drawn (was %d), its box expanded %s", after, before, eval[string](tb, opened+`.getAttribute('aria-expanded')`))
	}
	if problems := eval[[]string](tb, legibility(12)); len(problems) > 0 {
		t.Errorf("the group open: %s", strings.Join(problems, "; "))
	}
	tb.clickElement(opened)
	if got := pods(); got != before {
		t.Errorf("a second tap leaves %d pods drawn, want %d", got, before)
	}
	tb.click("show-all")
	if got := eval[int](tb, `document.querySelectorAll('[data-testid=flow-node][data-kind=PodGroup]').length`); got != 0 {
		t.Errorf("Show all leaves %d groups", got)
	}
	if problems := eval[[]string](tb, legibility(12)); len(problems) > 0 {
		t.Errorf("Show all: %s", strings.Join(problems, "; "))
	}
}

// A write refused because a cache lagged (a conflict) is told as normal
// in the log, in the quiet colour, not in the colour of a failure.
func TestConflictIsToldAsNormal(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("rolling-update")
	tb.everyTick()
	refusal := `document.querySelector('[data-testid=tick-log] .error-tag.refusal')`
	for i := 0; i < 120 && !eval[bool](tb, `!!`+refusal); i++ {
		tb.click("step")
	}
	if !eval[bool](tb, `!!`+refusal) {
		t.Fatal("no refused write in 120 ticks of rolling-update")
	}
	text := eval[string](tb, refusal+`.textContent`)
	if !strings.Contains(text, "normal") {
		t.Errorf("the refusal reads %q: it does not say this is normal", text)
	}
	color := eval[string](tb, `getComputedStyle(`+refusal+`).color`)
	bad := eval[string](tb, `(e => (e.style.color = 'var(--bad)', document.body.append(e), getComputedStyle(e).color))(document.createElement('span'))`)
	if color == bad {
		t.Errorf("the refusal is drawn in the failure colour %s", color)
	}
}

// At 1366×768 the console's Wide gives it the diagram's room: a wide
// table (get pods -o wide) reads in full, no column cut or scrolled away.
func TestConsoleWideReadsTablesInFull(t *testing.T) {
	tb := newTab(t)
	tb.resize(screens[0])
	tb.open(shared.url)
	tb.chooseExample("rolling-update")
	tb.click("run")
	tb.waitFor(sel("run")+`.getAttribute('aria-pressed') === 'false'`, "the run to end")
	tb.click("tab-console")
	tb.setValue("console-input", "kubectl get pods -o wide")
	eval[bool](tb, `document.querySelector('[data-testid=console-input]').form.requestSubmit(), true`)
	tb.settle()
	out := sel("console-output")
	if !eval[bool](tb, out+`.scrollWidth > `+out+`.clientWidth + 1`) {
		t.Log("the table already fits the narrow console")
	}
	tb.click("console-wide")
	if eval[bool](tb, out+`.scrollWidth > `+out+`.clientWidth + 1`) {
		t.Errorf("wide, the console still cuts the table: %v px of %v", eval[float64](tb, out+`.scrollWidth`), eval[float64](tb, out+`.clientWidth`))
	}
	if problems := eval[[]string](tb, layoutProblems); len(problems) > 0 {
		t.Errorf("wide: %s", strings.Join(problems, "; "))
	}
	tb.click("console-wide")
	if !eval[bool](tb, `(e => e.offsetParent !== null)(`+sel("flow")+`)`) {
		t.Error("narrow again, the diagram is not back")
	}
}
