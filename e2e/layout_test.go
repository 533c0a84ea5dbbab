package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/stateflow/stateflow/examples"
)

// screen is one window size the layout tests use.
type screen struct {
	name          string
	width, height int64
	phone         bool
}

var screens = []screen{{"laptop", 1366, 768, false}, {"desktop", 1920, 1080, false}, {"phone", 390, 844, true}}

// resize sets the tab's viewport (a phone: mobile, touch, 3× pixels).
func (tb *tab) resize(s screen) {
	tb.t.Helper()
	var opts []chromedp.EmulateViewportOption
	if s.phone {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateScale(3))
	}
	if err := chromedp.Do(tb.ctx, chromedp.EmulateViewport(s.width, s.height, opts...)); err != nil {
		tb.t.Fatalf("viewport %s: %v", s.name, err)
	}
	tb.settle()
}

// layoutProblems is what a person would see wrong on the screen now, as
// sentences: flow boxes that overlap, box text that runs out of its box,
// a diagram that does not fit its pane after Fit, sideways scrolling of
// the page, a caption that changed height, controls under 44 px on a
// phone.
const layoutProblems = `(() => {
  const out = [];
  const r = e => e.getBoundingClientRect();
  const boxes = [...document.querySelectorAll('[data-testid=flow-node]')].map(g => ({g, b: r(g.querySelector('rect')), name: g.dataset.key || g.dataset.name}));
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const a = boxes[i].b, b = boxes[j].b;
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
      out.push('boxes overlap: ' + boxes[i].name + ' and ' + boxes[j].name);
  }
  for (const l of document.querySelectorAll('[data-testid=effect] .arrow-label, [data-testid=why-link] .why-link-label')) {
    const lb = r(l);
    for (const {b, name} of boxes)
      if (lb.left < b.right - 0.5 && b.left < lb.right - 0.5 && lb.top < b.bottom - 0.5 && b.top < lb.bottom - 0.5)
        out.push('the label "' + l.textContent + '" covers ' + name);
  }
  for (const {g, b, name} of boxes) for (const t of g.querySelectorAll('text')) {
    const tb = r(t);
    if (tb.width === 0) continue;
    if (tb.left < b.left - 0.5 || tb.right > b.right + 0.5 || tb.top < b.top - 0.5 || tb.bottom > b.bottom + 0.5)
      out.push('text runs out of its box: "' + t.textContent + '" in ' + name);
  }
  const pane = document.querySelector('[data-testid=flow-pane]'), svg = [...document.querySelectorAll('.flow svg[data-testid^=flow]')].find(s => r(s).width > 0);
  if (pane && svg && pane.offsetParent !== null) {
    const p = r(pane), s = r(svg);
    if (p.height < 100) out.push('the diagram pane is ' + Math.round(p.height) + ' px tall');
    // The drawing (viewBox, scaled to meet) must lie inside the pane.
    const vb = svg.viewBox.baseVal, scale = Math.min(s.width / vb.width, s.height / vb.height);
    const w = vb.width * scale, h = vb.height * scale, left = s.left + (s.width - w) / 2;
    if (left < p.left - 1 || left + w > p.right + 1 || s.top < p.top - 1 || s.top + h > p.bottom + 1)
      out.push('after Fit the diagram (' + Math.round(w) + '×' + Math.round(h) + ') is not inside its pane (' + Math.round(p.width) + '×' + Math.round(p.height) + ')');
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    out.push('the page scrolls sideways: ' + document.documentElement.scrollWidth + ' px wide in a ' + window.innerWidth + ' px window');
  if (window.innerWidth <= 900) {
    for (const c of document.querySelectorAll('button, select, input')) {
      if (c.offsetParent === null || c.closest('[hidden]') || c.closest('.cm-editor') || c.closest('details:not([open]) > :not(summary)')) continue;
      const b = r(c);
      if (b.width === 0) continue;
      if (b.height < 43.5) out.push('a control is ' + Math.round(b.height) + ' px tall: ' + (c.dataset.testid || c.textContent.trim().slice(0, 30) || c.outerHTML.slice(0, 60)));
      if (b.right > window.innerWidth + 1) out.push('a control is off screen: ' + (c.dataset.testid || c.textContent.trim().slice(0, 30)));
    }
  }
  return out;
})()`

// legibility is what is wrong with the diagram as a reader sees it, as
// sentences: text drawn smaller than min px (its rendered size, the
// font size times its element's scale on the screen) or a median under
// min, and a box the tick wrote (data-highlight) that is not on screen
// in its pane.
func legibility(min float64) string {
	return fmt.Sprintf(`(() => {
  const out = [], min = %g, r = e => e.getBoundingClientRect();
  const pane = document.querySelector('[data-testid=flow-pane]'), svg = [...document.querySelectorAll('.flow svg[data-testid^=flow]')].find(s => r(s).width > 0);
  if (!pane || !svg || pane.offsetParent === null) return out;
  const sizes = [];
  for (const t of svg.querySelectorAll('text')) {
    if (r(t).width === 0) continue;
    const m = t.getScreenCTM(), px = parseFloat(getComputedStyle(t).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
    sizes.push(px);
    if (px < min - 0.01) out.push('diagram text drawn at ' + px.toFixed(1) + ' px: "' + t.textContent + '"');
  }
  sizes.sort((a, b) => a - b);
  if (sizes.length && sizes[sizes.length >> 1] < min - 0.01) out.push('the median diagram text is ' + sizes[sizes.length >> 1].toFixed(1) + ' px');
  const p = r(pane);
  for (const g of svg.querySelectorAll('[data-testid=flow-node]')) {
    if (!g.dataset.highlight) continue;
    const b = r(g.querySelector('rect'));
    if (b.left < p.left - 1 || b.right > p.right + 1 || b.top < p.top - 1 || b.bottom > p.bottom + 1)
      out.push('the tick wrote ' + (g.dataset.key || g.dataset.id) + ', which is not on screen');
  }
  return out;
})()`, min)
}

// captionProblems is what hides part of a caption: a height that is not
// whole lines (a half line shows), or a text longer than its lines with
// no "more" to open it.
const captionProblems = `(() => {
  const out = [];
  for (const c of document.querySelectorAll('.caption-text')) {
    if (c.offsetParent === null) continue;
    const lh = parseFloat(getComputedStyle(c).lineHeight), lines = c.clientHeight / lh;
    if (Math.abs(lines - Math.round(lines)) > 0.05) out.push((c.dataset.testid || 'a caption') + ' shows ' + lines.toFixed(2) + ' lines: a line is cut');
    const more = c.parentElement.querySelector('.caption-more');
    if (c.scrollHeight > c.clientHeight + 1 && (!more || more.offsetParent === null || more.getBoundingClientRect().height === 0))
      out.push((c.dataset.testid || 'a caption') + ' is longer than its lines and offers no "more"');
  }
  return out;
})()`

// consoleNewest runs a wide command in the console and says what is wrong
// with what a person sees ("" if nothing): the newest entry must be on
// screen, the input cleared. It puts the page back as it was (the
// inspector beside the diagram, or the phone's Flow pane).
func (tb *tab) consoleNewest(s screen) string {
	tb.t.Helper()
	tb.show(s, "console")
	tb.click("tab-console")
	tb.setValue("console-input", "kubectl get pods -o wide")
	eval[bool](tb, `document.querySelector('[data-testid=console-input]').form.requestSubmit(), true`)
	tb.settle()
	got := eval[[]any](tb, `(() => {
		const o = document.querySelector('[data-testid=console-output]'), e = o.lastElementChild.getBoundingClientRect(), b = o.getBoundingClientRect();
		return [e.bottom <= b.bottom + 1 && e.bottom > b.top, document.querySelector('[data-testid=console-input]').value];
	})()`)
	tb.click("tab-inspector")
	tb.show(s, "flow")
	switch {
	case got[0] != true:
		return "the console's newest entry is not on screen"
	case got[1] != "":
		return fmt.Sprintf("the console's input still holds %q after Enter", got[1])
	}
	return ""
}

// editorInSync pastes a line at the end of the editor, goes to the end
// (Ctrl+End, which scrolls) and says what is wrong ("" if nothing): the
// line number beside the caret must be the caret's line, level with it
// and on screen.
func (tb *tab) editorInSync(s screen) string {
	tb.t.Helper()
	tb.show(s, "scenario")
	tb.focusEditor()
	tb.keys(kb.End, chromedp.ModifierCtrl)
	tb.paste("\n# pasted by the layout test")
	tb.keys(kb.Home, chromedp.ModifierCtrl)
	tb.keys(kb.End, chromedp.ModifierCtrl)
	number, level, visible := tb.activeLine()
	line := tb.caretLine()
	tb.show(s, "flow")
	if number != fmt.Sprint(line) || !level || !visible {
		return fmt.Sprintf("after a paste and Ctrl+End the caret is on line %d, the gutter marks %q (level %v, on screen %v)", line, number, level, visible)
	}
	return ""
}

// fit presses Fit when the diagram is on screen.
func (tb *tab) fit() {
	tb.t.Helper()
	eval[bool](tb, `(() => { const b = document.querySelector('[data-testid=fit]'); if (b && b.offsetParent !== null) b.click(); return true })()`)
	tb.settle()
}

// show makes a pane visible: on a phone through the tab bar.
func (tb *tab) show(s screen, view string) {
	tb.t.Helper()
	if !s.phone {
		return
	}
	tb.click("view-" + view)
	pane := map[string]string{"lesson": "lesson", "scenario": "scenario", "flow": "flow", "details": "details", "console": "details"}[view]
	tb.waitFor(`document.querySelector('.workspace.view-`+pane+`')`, "the "+view+" pane")
	tb.settle()
}

// TestLayoutEveryExample opens every example at three screen sizes and,
// at its start, in its middle and once settled, checks what a person
// would see wrong: boxes that overlap or labels that cover them, text out
// of its box, a diagram that does not fit after Fit, diagram text under
// 12 px as rendered, a box the tick wrote that is off screen, a page
// that scrolls sideways, controls under 44 px on the phone (in every
// pane), a phone's diagram under 60 % of its screen, a caption that
// changes height or cuts a line, an inspector that does not lead with
// the tick's changes, and anything serious axe-core reports.
func TestLayoutEveryExample(t *testing.T) {
	src := axeSource(t)
	for _, s := range screens {
		t.Run(s.name, func(t *testing.T) {
			tb := newTabFor(t, 10*time.Minute)
			tb.resize(s)
			tb.open(shared.url)
			if !s.phone {
				tb.click("tab-inspector") // beside the diagram: it must lead with the tick's changes
			}
			caption := -1.0
			for _, ex := range examples.All() {
				tb.show(s, "flow")
				tb.chooseExample(ex.Name)
				for _, moment := range []string{"start", "middle", "settled"} {
					switch moment {
					case "middle":
						for range 12 {
							tb.click("step")
						}
					case "settled":
						tb.click("run")
						tb.waitFor(sel("run")+`.getAttribute('aria-pressed') === 'false'`, "the run to end")
					}
					tb.fit()
					problems := eval[[]string](tb, layoutProblems)
					problems = append(problems, eval[[]string](tb, legibility(12))...)
					problems = append(problems, eval[[]string](tb, captionProblems)...)
					if s.phone {
						if share := eval[float64](tb, sel("flow-pane")+".getBoundingClientRect().height / innerHeight"); share < 0.6 {
							problems = append(problems, fmt.Sprintf("the diagram takes %.0f%% of the screen's height", share*100))
						}
					}
					if len(problems) > 0 {
						t.Errorf("%s at %s (%s, tick %s):\n  %s", ex.Name, moment, s.name, tb.tick(), strings.Join(problems, "\n  "))
					}
					if v := tb.axe(src); len(v) > 0 {
						t.Errorf("%s at %s (%s): axe reports:\n  %s", ex.Name, moment, s.name, strings.Join(v, "\n  "))
					}
					if !s.phone && moment != "start" {
						if first := eval[string](tb, `(document.querySelector('[data-testid=inspector] > :not(select)') || {dataset: {}}).dataset.testid || ''`); first != "inspector-changes" {
							t.Errorf("%s at %s (%s): the inspector opens on %q, not on the tick's changes", ex.Name, moment, s.name, first)
						}
					}
					if problem := tb.consoleNewest(s); problem != "" {
						t.Errorf("%s at %s (%s): %s", ex.Name, moment, s.name, problem)
					}
					if problem := tb.editorInSync(s); problem != "" {
						t.Errorf("%s at %s (%s): %s", ex.Name, moment, s.name, problem)
					}
					if s.phone && moment == "settled" {
						// The phone's other panes: the editor and the log.
						for _, view := range []string{"scenario", "details"} {
							tb.show(s, view)
							if problems := eval[[]string](tb, layoutProblems); len(problems) > 0 {
								t.Errorf("%s, the %s pane (%s):\n  %s", ex.Name, view, s.name, strings.Join(problems, "\n  "))
							}
						}
						tb.show(s, "flow")
					}
					h := eval[float64](tb, sel("tick-caption")+`.getBoundingClientRect().height`)
					if caption >= 0 && h != caption {
						t.Errorf("%s at %s: the caption is %.0f px tall, it was %.0f px: the diagram moves as you step", ex.Name, moment, h, caption)
					}
					caption = h
				}
			}
		})
	}
}

// TestScreenshots writes the README's screenshots (desktop and phone)
// mid-rollout, and checks the phone's panes each fill the screen.
func TestScreenshots(t *testing.T) {
	for _, s := range []screen{screens[0], screens[2]} {
		t.Run(s.name, func(t *testing.T) {
			tb := newTab(t)
			tb.resize(s)
			tb.open(shared.url)
			tb.chooseExample("rolling-update")
			for i := 0; i < 200 && eval[int](tb, `document.querySelectorAll('[data-testid=flow-node][data-kind=ReplicaSet]').length`) < 2; i++ {
				tb.click("step")
			}
			for range 8 {
				tb.click("step")
			}
			tb.fit()
			img, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			dir := filepath.Join(repoRoot(), "testdata", "artifacts")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("playground-%s.png", s.name)
			if err := os.WriteFile(filepath.Join(dir, name), img, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// The console clears its input, shows its newest entry and keeps wide
// tables on one line (the output scrolls sideways), on a laptop and on a
// phone.
func TestConsoleShowsTheNewest(t *testing.T) {
	for _, s := range []screen{screens[0], screens[2]} {
		t.Run(s.name, func(t *testing.T) {
			tb := newTab(t)
			tb.resize(s)
			tb.open(shared.url)
			tb.click("step")
			tb.show(s, "console")
			tb.click("tab-console")
			for i := range 12 {
				cmd := "kubectl get pods -o wide"
				if i == 11 {
					cmd = "kubectl get deployments"
				}
				tb.setValue("console-input", cmd)
				eval[bool](tb, `document.querySelector('[data-testid=console-input]').form.requestSubmit(), true`)
				tb.settle()
			}
			if v := eval[string](tb, sel("console-input")+".value"); v != "" {
				t.Errorf("the input still holds %q after Enter", v)
			}
			out := sel("console-output")
			if gap := eval[float64](tb, out+".scrollHeight - "+out+".scrollTop - "+out+".clientHeight"); gap > 2 {
				t.Errorf("the newest entry is %.0f px below the visible part of the output", gap)
			}
			last := eval[bool](tb, `(() => { const o = `+out+`, e = o.lastElementChild.getBoundingClientRect(), b = o.getBoundingClientRect(); return e.bottom <= b.bottom + 1 && e.bottom > b.top })()`)
			if !last {
				t.Error("the newest entry is not on screen")
			}
			if ws := eval[string](tb, `getComputedStyle(`+out+`).whiteSpace`); ws != "pre" {
				t.Errorf("the output wraps its tables (white-space: %s)", ws)
			}
			if problems := eval[[]string](tb, layoutProblems); len(problems) > 0 {
				t.Errorf("%s", strings.Join(problems, "\n"))
			}
		})
	}
}

// A click on a box the tick wrote opens the inspector on what changed:
// its first section lists the fields with their old and new values, above
// the YAML.
func TestInspectorLeadsWithTheChange(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("rolling-update")
	// Step until a tick updates the Deployment's status.
	for range 40 {
		tb.click("step")
		if eval[bool](tb, `!!document.querySelector('[data-testid=flow-node][data-kind=Deployment]:not([data-highlight=""])') && document.querySelector('[data-testid=flow-node][data-kind=Deployment]').dataset.highlight === 'aggregate'`) {
			break
		}
	}
	tb.clickElement(`document.querySelector('[data-testid=flow-node][data-kind=Deployment]')`)
	tb.waitFor(`document.querySelector('[data-testid=inspector] > :not(select)')`, "the inspector to show the Deployment")
	first := eval[string](tb, `document.querySelector('[data-testid=inspector] > :not(select)').dataset.testid || ''`)
	if first != "inspector-changes" {
		t.Fatalf("the inspector opens on %q, not on the tick's changes", first)
	}
	rows := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=inspector-changes] tbody tr')].map(r => r.textContent)`)
	if len(rows) == 0 || !strings.Contains(strings.Join(rows, "\n"), "status.") || !strings.Contains(strings.Join(rows, "\n"), "→") {
		t.Fatalf("the changes section lists %q", rows)
	}
}

// Zoom in, then pan by dragging with the mouse; Fit shows the whole
// diagram again. A drag that ends on a box does not open the inspector.
func TestZoomAndPan(t *testing.T) {
	tb := newTab(t)
	tb.resize(screens[0])
	tb.open(shared.url)
	tb.chooseExample("rolling-update")
	for range 10 {
		tb.click("step")
	}
	for range 3 {
		tb.click("zoom-in")
	}
	if z := tb.text("zoom"); z != "195% of fit" {
		t.Fatalf("zoom %q after three presses", z)
	}
	pane := sel("flow-pane")
	if !eval[bool](tb, pane+".scrollWidth > "+pane+".clientWidth") {
		t.Fatal("zoomed in, the diagram does not overflow its pane")
	}
	tab := tb.text("tab-inspector")
	moved := eval[[]float64](tb, `(() => {
		const p = `+pane+`, r = p.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
		const before = [p.scrollLeft, p.scrollTop];
		const ev = (type, dx, dy) => p.dispatchEvent(new PointerEvent(type, {pointerType: 'mouse', button: 0, clientX: x + dx, clientY: y + dy, bubbles: true}));
		ev('pointerdown', 0, 0); ev('pointermove', -120, -60); ev('pointerup', -120, -60);
		p.querySelector('[data-testid=flow-node]').dispatchEvent(new MouseEvent('click', {bubbles: true}));
		return [p.scrollLeft - before[0], p.scrollTop - before[1]];
	})()`)
	tb.settle()
	if moved[0] < 100 || moved[1] < 40 {
		t.Errorf("a drag of 120×60 px panned the pane by %v", moved)
	}
	if eval[string](tb, sel("tab-inspector")+".getAttribute('aria-selected')") == "true" {
		t.Errorf("the click that ended the drag opened the inspector (tab %q)", tab)
	}
	tb.click("fit")
	if problems := eval[[]string](tb, layoutProblems); len(problems) > 0 {
		t.Errorf("after Fit: %s", strings.Join(problems, "; "))
	}
}

// After a run the log reaches every kept tick: Earlier pages back to tick
// 1, and Find shows and highlights the row of a tick.
func TestLogReachesEveryTick(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("rollback")
	tb.everyTick()
	tb.click("run")
	tb.waitFor(sel("run")+`.getAttribute('aria-pressed') === 'false'`, "the run to end")
	ticks := atoi(t, tb.tick())
	if ticks < 300 {
		t.Fatalf("the run took %d ticks; the test needs more rows than the log renders at once", ticks)
	}
	rows := `document.querySelectorAll('[data-testid=tick-log] > li').length`
	if n := eval[int](tb, rows); n >= ticks {
		t.Fatalf("the log renders all %d rows at once", n)
	}
	for i := 0; i < 20 && !eval[bool](tb, `!!document.querySelector('[data-testid=tick-log] > li[data-tick="1"]')`); i++ {
		tb.click("log-earlier")
	}
	if !eval[bool](tb, `!!document.querySelector('[data-testid=tick-log] > li[data-tick="1"]')`) {
		t.Fatalf("Earlier never reached tick 1 (%s)", tb.text("log-range"))
	}
	tb.setValue("log-jump", "200")
	eval[bool](tb, `document.querySelector('[data-testid=log-jump]').form.requestSubmit(), true`)
	tb.settle()
	if !tb.poll(`!!document.querySelector('[data-testid=tick-log] li.jumped[data-tick="200"]')`) {
		t.Fatalf("Find 200 does not show tick 200's row (%s)", tb.text("log-range"))
	}
	if got := atoi(t, tb.tick()); got != ticks {
		t.Fatalf("paging the log moved the simulation from tick %d to %d", ticks, got)
	}
}

// Narrow phones, 360 and 430 px wide: every pane, at the start and
// mid-rollout, has controls of at least 44 px and no sideways scrolling
// (the matrix above runs at 390 px).
func TestNarrowPhones(t *testing.T) {
	for _, s := range []screen{{"phone-360", 360, 740, true}, {"phone-430", 430, 932, true}} {
		t.Run(s.name, func(t *testing.T) {
			tb := newTab(t)
			tb.resize(s)
			tb.open(shared.url)
			tb.chooseExample("rolling-update")
			for _, moment := range []string{"start", "middle"} {
				if moment == "middle" {
					tb.show(s, "flow")
					for range 12 {
						tb.click("step")
					}
				}
				for _, view := range []string{"scenario", "flow", "details", "console"} {
					tb.show(s, view)
					if view == "flow" {
						tb.fit()
					}
					if problems := eval[[]string](tb, layoutProblems); len(problems) > 0 {
						t.Errorf("%s, the %s pane at %s:\n  %s", s.name, view, moment, strings.Join(problems, "\n  "))
					}
				}
			}
		})
	}
}
