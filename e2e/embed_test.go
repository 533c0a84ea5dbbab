package e2e

import (
	"fmt"
	"html"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/framing"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/lesson"
)

// The embed mode in someone else's page. The host page is served on a
// second loopback port and addressed as localhost, while the site is at
// 127.0.0.1: another origin, and another site too, as a blog that embeds
// Stateflow is. Chromium (site isolation on, as shipped) runs a
// cross-site iframe in a process of its own and lists it as a target of
// type "iframe"; the tests attach to that target (chromedp.WithTargetID)
// and drive the frame with the same helpers as a tab: evaluating in the
// page would reach only the host's document, and turning site isolation
// off would test another browser than the one visitors run.

// hostPage serves body in a plain page on another origin and returns its
// address.
func hostPage(t *testing.T, body string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	page := "<!doctype html><html lang=en><head><meta charset=utf-8><title>A post about Kubernetes</title></head>" +
		"<body style=\"margin:8px\"><h1>A post about Kubernetes</h1>" + body + "</body></html>"
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	})}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return fmt.Sprintf("http://localhost:%d/", ln.Addr().(*net.TCPAddr).Port)
}

// iframe is the HTML of a frame of src, w×h.
func iframe(src string, w, h int) string {
	return fmt.Sprintf(`<iframe src="%s" width="%d" height="%d" title="Stateflow, embedded" style="border:0"></iframe>`, html.EscapeString(src), w, h)
}

// embedURL is the site in embed mode on a share link.
func embedURL(st share.State) string {
	return shared.url + "?embed=1#" + share.EncodeState(st)
}

// openFrame opens the host page in a tab and returns the embedded
// player's frame, loaded, as a tab of its own (its target).
func openFrame(t *testing.T, host string) (*tab, *tab) {
	t.Helper()
	tb := newTab(t)
	tb.resize(screen{"host", 1000, 760, false})
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(host)); err != nil {
		t.Fatalf("navigate: %v", err)
	}
	f := tb.frame(shared.url)
	f.waitFor(`document.querySelector('.embed') && document.querySelector('.embed').dataset.loaded === 'true' && !document.getElementById('app-wasm-loader')`, "the embed to load")
	return tb, f
}

// frame attaches to the tab's iframe whose address starts with prefix.
func (tb *tab) frame(prefix string) *tab {
	tb.t.Helper()
	page := chromedp.FromContext(tb.ctx).Target.TargetID
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		infos, err := chromedp.Targets(tb.ctx)
		if err != nil {
			tb.t.Fatal(err)
		}
		for _, info := range infos {
			mine := info.ParentID == page || string(info.ParentFrameID) == string(page)
			if info.Type == "iframe" && mine && strings.HasPrefix(info.URL, prefix) {
				ctx, cancel := chromedp.NewContext(tb.ctx, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
				tb.t.Cleanup(cancel)
				return &tab{t: tb.t, ctx: ctx}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.t.Fatalf("no iframe target at %s", prefix)
	return nil
}

// absent is a script that lists the testids, among ids, the page has.
func absent(ids ...string) string {
	return `[` + strings.Join(func() []string {
		var out []string
		for _, id := range ids {
			out = append(out, js(id))
		}
		return out
	}(), ",") + `].filter(id => document.querySelector('[data-testid="' + id + '"]'))`
}

// frameKey presses a key in the frame as a keyboard does: a mouse click
// on the caption first (the frame gets the focus, nothing is pressed),
// then the key through the host page's tab, which routes it to the frame
// that has the focus.
func frameKey(tb, f *tab, key string) {
	tb.t.Helper()
	at := eval[[]float64](f, `(() => { const r = `+sel("embed-caption")+`.getBoundingClientRect(); return [r.left + 20, r.top + r.height / 2] })()`)
	off := eval[[]float64](tb, `(() => { const r = document.querySelector('iframe').getBoundingClientRect(); return [r.left, r.top] })()`)
	if err := chromedp.Do(tb.ctx, chromedp.MouseClickXY(off[0]+at[0], off[1]+at[1])); err != nil {
		tb.t.Fatalf("click in the frame: %v", err)
	}
	before := eval[string](f, `document.querySelector('.page').dataset.renders`)
	tb.keys(key)
	f.waitFor(`document.querySelector('.page').dataset.renders !== `+js(before), "the frame to answer "+key)
	f.settle()
}

// openState is the state the frame's "Open in Stateflow" link carries;
// the link opens the full page (no ?embed) in a new tab, without an
// opener.
func openState(f *tab) (string, share.State) {
	f.t.Helper()
	a := eval[[]string](f, `(a => [a.href, a.target, a.rel, a.textContent])(`+sel("embed-open")+`)`)
	if !strings.HasPrefix(a[0], shared.url+"#s=") || a[1] != "_blank" || a[2] != "noopener" || !strings.HasPrefix(a[3], "Open in Stateflow") {
		f.t.Fatalf("Open in Stateflow: %q", a)
	}
	st, err := share.Decode(a[0][strings.Index(a[0], "#"):])
	if err != nil {
		f.t.Fatalf("Open in Stateflow carries a link that does not decode: %v", err)
	}
	return a[0], st
}

// Any origin may frame the site as the browser tests serve it, as
// stateflow serve does (internal/framing); nothing forbids it.
func TestEmbedHeaders(t *testing.T) {
	for _, path := range []string{"", "?embed=1", "web/app.css", "app.js"} {
		resp, err := http.Get(shared.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("Content-Security-Policy"); resp.StatusCode != 200 || got != framing.FrameAncestors {
			t.Errorf("/%s: %s, Content-Security-Policy %q", path, resp.Status, got)
		}
		if got := resp.Header.Get("X-Frame-Options"); got != "" {
			t.Errorf("/%s: X-Frame-Options %q", path, got)
		}
	}
}

// A scenario embedded in a page of another origin: the frame opens at
// the link's tick; Step, Step back, Play and the keyboard move it, and
// the caption follows in the log's words; "Open in Stateflow" carries
// the scenario and the tick, and the full page opens there. Nothing of
// the full page that needs room is shown.
func TestEmbedInAnotherOriginsPage(t *testing.T) {
	ex, _ := examples.Get("rolling-update")
	host := hostPage(t, iframe(embedURL(share.State{Scenario: ex.Source, Tick: 5}), 800, 520))
	tb, f := openFrame(t, host)
	if got := eval[[]int](f, `[innerWidth, innerHeight]`); got[0] != 800 || got[1] != 520 {
		t.Fatalf("the frame is %v", got)
	}
	if f.tick() != "5" {
		t.Fatalf("the frame opens at tick %s, want 5", f.tick())
	}
	if shown := eval[[]string](f, absent("editor", "apply", "console-input", "tick-log", "inspector", "examples", "lessons", "share", "timeline", "run", "fit", "tab-log", "view-flow")); len(shown) > 0 {
		t.Errorf("the embed shows %v", shown)
	}
	caption := f.text("embed-caption")
	if !strings.HasPrefix(caption, "Ticks 3–5") || !strings.Contains(caption, "quiet ticks") {
		t.Errorf("at tick 5, in the story, the caption is the fold of ticks 3–5: %q", caption)
	}

	f.click("step")
	tick := atoi(t, f.tick())
	if tick <= 5 || f.text("embed-caption") == caption || !strings.HasPrefix(f.text("embed-caption"), fmt.Sprintf("Tick %d: ", tick)) {
		t.Fatalf("Step: tick %d, caption %q", tick, f.text("embed-caption"))
	}
	if href, st := openState(f); st.Scenario != ex.Source || st.Tick != tick || st.Lesson != 0 || st.EveryTick {
		t.Errorf("Open in Stateflow (%.60s…) carries tick %d, lesson %d, every %v, the scenario %v", href, st.Tick, st.Lesson, st.EveryTick, st.Scenario == ex.Source)
	}
	f.click("step-back")
	if got := atoi(t, f.tick()); got >= tick {
		t.Fatalf("Step back: tick %d after %d", got, tick)
	}

	// The keyboard, as on the full page: → steps, ← steps back, space plays.
	before := atoi(t, f.tick())
	frameKey(tb, f, kb.ArrowRight)
	if got := atoi(t, f.tick()); got <= before {
		t.Fatalf("→ in the frame: tick %d after %d", got, before)
	}
	frameKey(tb, f, kb.ArrowLeft)
	if got := atoi(t, f.tick()); got != before {
		t.Fatalf("← in the frame: tick %d, want %d", got, before)
	}
	frameKey(tb, f, " ")
	f.waitFor(sel("play")+`.getAttribute('aria-pressed') === 'true'`, "space to play")
	f.waitFor(sel("tick")+`.textContent.trim() !== `+js(fmt.Sprint(before)), "playing to advance")
	f.click("play")
	if eval[string](f, sel("play")+`.getAttribute('aria-pressed')`) != "false" {
		t.Fatal("Pause does not pause")
	}

	href, st := openState(f)
	if st.Tick != atoi(t, f.tick()) {
		t.Fatalf("Open in Stateflow carries tick %d, the frame shows %s", st.Tick, f.tick())
	}
	full := newTab(t)
	full.open(href)
	if got := full.tick(); got != fmt.Sprint(st.Tick) || eval[string](full, sel("editor")+".value") != ex.Source {
		t.Fatalf("the full page opens at tick %s (want %d), the scenario carried: %v", got, st.Tick, eval[string](full, sel("editor")+".value") == ex.Source)
	}
}

// embedLesson plays a lesson natively: the frame's steps and ticks must
// be the same.
func embedLesson(t testing.TB, name string) (string, []lesson.Step) {
	t.Helper()
	src, l := testkit.Lesson(t, name)
	return src, testkit.Steps(t, l)
}

// frameLessonAt waits until the frame's player shows step n (from 1),
// resolved, at tick.
func frameLessonAt(f *tab, n, tick int) {
	f.t.Helper()
	f.waitFor(fmt.Sprintf(`(() => { const l = %s; return l && l.dataset.step === '%d' && l.dataset.busy === 'false' })()`, sel("lesson"), n), fmt.Sprintf("lesson step %d", n))
	f.waitFor(sel("tick")+".textContent.trim() === "+js(fmt.Sprint(tick)), fmt.Sprintf("tick %d (the frame shows %s)", tick, f.tick()))
}

// firstQuestion is the index of the lesson's first step with a question.
func firstQuestion(t *testing.T, steps []lesson.Step) int {
	t.Helper()
	for i, st := range steps {
		if st.Question != nil && i > 0 {
			return i
		}
	}
	t.Fatal("the lesson asks nothing")
	return 0
}

// A lesson embedded at a step opens there: its progress, text and
// question, its objects ringed; Next and Back move through it, an answer
// is told right or wrong, and Open in Stateflow carries the step.
func TestEmbedOpensALessonAtItsStep(t *testing.T) {
	src, steps := embedLesson(t, "first-rollout")
	q := firstQuestion(t, steps)
	_, f := openFrame(t, hostPage(t, iframe(embedURL(share.State{Scenario: src, Tick: steps[q].Tick, Lesson: q + 1}), 800, 520)))
	frameLessonAt(f, q+1, steps[q].Tick)
	if got, want := f.text("lesson-progress"), fmt.Sprintf("Step %d of %d", q+1, len(steps)); got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	if f.text("lesson-text") == "" || !eval[bool](f, `!!`+sel("lesson-question")) {
		t.Error("the step's text or question is missing")
	}
	if shown := eval[[]string](f, absent("lesson-close", "show-scenario", "strip-next")); len(shown) > 0 {
		t.Errorf("the embed's player shows %v", shown)
	}
	marked := eval[[]string](f, `[...document.querySelectorAll('[data-testid=flow-node].lesson')].map(g => g.dataset.key).sort()`)
	var want []string
	for _, k := range steps[q].Objects {
		want = append(want, k.String())
	}
	slices.Sort(want)
	if !slices.Equal(marked, want) {
		t.Errorf("the diagram rings %v, want %v", marked, want)
	}
	qs := steps[q].Question
	eval[bool](f, fmt.Sprintf(`(document.querySelectorAll('[data-testid=lesson-choice]')[%d].click(), true)`, qs.Answer))
	f.waitFor(sel("lesson-feedback")+`.textContent.includes('Right')`, "the answer to be told right")
	if _, st := openState(f); st.Lesson != q+1 || st.Tick != steps[q].Tick || st.Scenario != src {
		t.Errorf("Open in Stateflow carries step %d, tick %d (want %d, %d)", st.Lesson, st.Tick, q+1, steps[q].Tick)
	}
	f.click("lesson-next")
	frameLessonAt(f, q+2, steps[q+1].Tick)
	if _, st := openState(f); st.Lesson != q+2 || st.Tick != steps[q+1].Tick {
		t.Errorf("after Next, Open in Stateflow carries step %d, tick %d", st.Lesson, st.Tick)
	}
	f.click("lesson-back")
	frameLessonAt(f, q+1, steps[q].Tick)
}

// A broken link, or a scenario with errors, says so inside the frame
// (over the default example), and the frame still works.
func TestEmbedBadLinks(t *testing.T) {
	for _, tc := range []struct{ frag, want string }{
		{"#s=" + strings.Repeat("A", 20), "This embedded link could not be opened"},
		{"#" + share.Encode("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: many}\n", 3), "The embedded scenario has errors"},
	} {
		_, f := openFrame(t, hostPage(t, iframe(shared.url+"?embed=1"+tc.frag, 800, 520)))
		if got := eval[string](f, `(e => e ? e.getAttribute('role') + ': ' + e.textContent : '')(`+sel("embed-problem")+`)`); !strings.HasPrefix(got, "alert: "+tc.want) {
			t.Errorf("%.30s: the frame says %q", tc.frag, got)
		}
		f.click("step")
		if f.tick() != "1" {
			t.Errorf("%.30s: the default example does not step (tick %s)", tc.frag, f.tick())
		}
	}
}

// embedProblems is what is wrong with the embed on screen, besides what
// layoutProblems finds: its parts overlap, something is outside the
// frame, the frame or the player scrolls, the caption or a control is
// cut.
const embedProblems = `(() => {
  const out = [], r = e => e.getBoundingClientRect(), W = innerWidth, H = innerHeight;
  const shown = e => e && e.offsetParent !== null && r(e).width > 0 && r(e).height > 0;
  const parts = ['.embed-bar', '.banners > *', '[data-testid=embed-caption]', '.embed-why', '[data-testid=notice]', '[data-testid=flow-pane]', '[data-testid=lesson]']
    .flatMap(s => [...document.querySelectorAll(s)]).filter(shown);
  for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
    const a = r(parts[i]), b = r(parts[j]);
    if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
      out.push('overlap: ' + (parts[i].dataset.testid || parts[i].className) + ' and ' + (parts[j].dataset.testid || parts[j].className));
  }
  const inside = [...parts, ...document.querySelectorAll('.embed-bar button, .embed-bar a, .embed-bar .readout, .lesson-nav button, .lesson-pane .pane-title')].filter(shown);
  for (const e of inside) {
    const b = r(e);
    if (b.left < -0.5 || b.top < -0.5 || b.right > W + 0.5 || b.bottom > H + 0.5)
      out.push('outside the frame: ' + (e.dataset.testid || e.className || e.tagName) + ' at ' + [b.left, b.top, b.right, b.bottom].map(Math.round));
  }
  if (document.documentElement.scrollHeight > H + 1) out.push('the frame scrolls: ' + document.documentElement.scrollHeight + ' px tall in ' + H);
  for (const e of document.querySelectorAll('.embed-bar, [data-testid=embed-caption], [data-testid=lesson], .lesson-scroll'))
    if (shown(e) && e.scrollWidth > e.clientWidth + 1) out.push('scrolls sideways: ' + (e.dataset.testid || e.className));
  const c = document.querySelector('[data-testid=embed-caption]');
  if (shown(c) && r(c).height < 40) out.push('the caption is ' + Math.round(r(c).height) + ' px tall');
  return out;
})()`

// The embed at 800×520 and 360×600, light and dark: at load, mid-rollout
// and at a lesson's question answered, nothing overlaps or leaves the
// frame, the diagram fits its pane, controls are 44 px, and axe-core
// reports nothing serious.
func TestEmbedLayoutAndAccessibility(t *testing.T) {
	src := axeSource(t)
	ex, _ := examples.Get("rolling-update")
	lessonSrc, steps := embedLesson(t, "first-rollout")
	q := firstQuestion(t, steps)
	for _, size := range [][2]int{{800, 520}, {360, 600}} {
		for _, theme := range []string{"light", "dark"} {
			t.Run(fmt.Sprintf("%dx%d/%s", size[0], size[1], theme), func(t *testing.T) {
				check := func(f *tab, state string) {
					t.Helper()
					f.settle()
					if p := append(eval[[]string](f, layoutProblems), eval[[]string](f, embedProblems)...); len(p) > 0 {
						t.Errorf("%s: %s", state, strings.Join(p, "\n  "))
					}
					if v := f.axe(src); len(v) > 0 {
						t.Errorf("%s: axe reports:\n  %s", state, strings.Join(v, "\n  "))
					}
				}
				_, f := openFrame(t, hostPage(t, iframe(embedURL(share.State{Scenario: ex.Source}), size[0], size[1])))
				f.scheme(theme)
				check(f, "at load")
				for range 10 {
					f.click("step")
				}
				check(f, "mid-rollout")

				_, f = openFrame(t, hostPage(t, iframe(embedURL(share.State{Scenario: lessonSrc, Tick: steps[q].Tick, Lesson: q + 1}), size[0], size[1])))
				f.scheme(theme)
				frameLessonAt(f, q+1, steps[q].Tick)
				check(f, "a lesson's question")
				eval[bool](f, fmt.Sprintf(`(document.querySelectorAll('[data-testid=lesson-choice]')[%d].click(), true)`, (steps[q].Question.Answer+1)%len(steps[q].Question.Choices)))
				f.waitFor(sel("lesson-feedback")+`.textContent.includes('Not quite')`, "the wrong answer to be told")
				check(f, "a lesson's answer told wrong")
			})
		}
	}
}

// The Share banner of the full page offers the embed snippet beside the
// link: an iframe of this page's origin in embed mode on the same
// fragment, 800×520, titled, lazy, borderless. Copy puts it on the
// clipboard; without a clipboard it selects it in its field. The snippet
// pasted into a page of another origin shows the scenario at the tick.
func TestShareOffersTheEmbedSnippet(t *testing.T) {
	tb := newTab(t)
	tb.resize(screens[0])
	tb.open(shared.url)
	tb.chooseExample("rolling-update")
	for range 4 {
		tb.click("step")
	}
	at := tb.tick()
	tb.click("share")
	tb.waitFor(sel("embed-snippet"), "the embed snippet")
	link := eval[string](tb, sel("share-link")+".value")
	snippet := eval[string](tb, sel("embed-snippet")+".value")
	title := regexp.MustCompile(` title="([^"]*)"`).FindStringSubmatch(snippet)
	if title == nil || !strings.HasPrefix(title[1], "Stateflow: ") {
		t.Fatalf("the snippet has no title: %s", snippet)
	}
	want := fmt.Sprintf(`<iframe src="%s" width="800" height="520" title="%s" loading="lazy" style="border:0"></iframe>`,
		html.EscapeString(shared.url+"?embed=1"+link[strings.Index(link, "#"):]), title[1])
	if snippet != want {
		t.Fatalf("the snippet:\n  %s\nwant\n  %s", snippet, want)
	}
	if got := eval[string](tb, `document.querySelector('label[for=embed-snippet]').textContent`); got == "" {
		t.Error("the snippet's field has no label")
	}

	// Copy, with the clipboard granted to the page.
	origin := strings.TrimSuffix(shared.url, "/")
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(tb.ctx, browser.SetPermission, browser.SetPermissionParams{Permission: &browser.PermissionDescriptor{Name: name}, Setting: "granted", Origin: origin}); err != nil {
			t.Fatalf("grant %s: %v", name, err)
		}
	}
	if _, err := chromedp.Call(tb.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	tb.click("embed-copy")
	tb.waitFor(sel("embed-copy-notice")+`.textContent.includes('copied')`, "the snippet to be copied (the notice says "+tb.text("embed-copy-notice")+")")
	if got := eval[string](tb, `navigator.clipboard.readText()`); got != snippet {
		t.Fatalf("the clipboard holds %q", got)
	}

	// Copy without a clipboard: the snippet is selected in its field.
	eval[bool](tb, `(Object.defineProperty(Navigator.prototype, 'clipboard', {get: () => undefined, configurable: true}), true)`)
	tb.click("embed-copy")
	tb.waitFor(sel("embed-copy-notice")+`.textContent.includes('not available')`, "the notice that the clipboard is not available")
	if !eval[bool](tb, `(f => document.activeElement === f && f.selectionStart === 0 && f.selectionEnd === f.value.length)(`+sel("embed-snippet")+`)`) {
		t.Error("without a clipboard, the snippet is not selected in its field")
	}

	// The snippet in someone else's page.
	_, f := openFrame(t, hostPage(t, snippet))
	if got := f.tick(); got != at {
		t.Fatalf("the embedded snippet opens at tick %s, want %s", got, at)
	}
}

// The Share banner with its snippet, on a laptop and a phone, light and
// dark: nothing scrolls sideways, controls are 44 px on the phone, and
// axe-core reports nothing serious.
func TestShareBannerLayoutAndAccessibility(t *testing.T) {
	src := axeSource(t)
	for _, s := range []screen{screens[0], screens[2]} {
		for _, theme := range []string{"light", "dark"} {
			t.Run(s.name+"/"+theme, func(t *testing.T) {
				tb := newTab(t)
				tb.resize(s)
				tb.scheme(theme)
				tb.open(shared.url)
				tb.click("step")
				tb.click("share")
				tb.waitFor(sel("embed-snippet"), "the embed snippet")
				if p := eval[[]string](tb, layoutProblems); len(p) > 0 {
					t.Errorf("the Share banner: %s", strings.Join(p, "; "))
				}
				if v := tb.axe(src); len(v) > 0 {
					t.Errorf("the Share banner: axe reports:\n  %s", strings.Join(v, "\n  "))
				}
			})
		}
	}
}

// An embed tells the page that frames it the height it needs (a
// postMessage of {type: "stateflow:resize", height}), for hosts that size
// their frames to their content: in a frame too short for its diagram it
// asks for more, only ever more, and once the host has grown the frame
// the diagram is drawn there at the scale the frame's width allows, its
// text legible.
func TestEmbedTellsItsHeight(t *testing.T) {
	ex, ok := examples.Get("rolling-update")
	if !ok {
		t.Fatal("no rolling-update example")
	}
	listener := `<script>window.told = []; addEventListener("message", e => {
  if (!e.data || e.data.type !== "stateflow:resize") return;
  told.push(e.data.height);
  for (const f of document.querySelectorAll("iframe")) if (f.contentWindow === e.source) f.height = e.data.height;
});</script>`
	tb, f := openFrame(t, hostPage(t, listener+iframe(embedURL(share.State{Scenario: ex.Source, Tick: 5}), 800, 300)))
	tb.waitFor(`window.told.length > 0 && +document.querySelector('iframe').height === window.told[window.told.length - 1]`, "the embed to tell its height")
	time.Sleep(time.Second) // the frame's new size reaches the embed, which may ask again
	f.settle()
	told := eval[[]int](tb, `window.told`)
	for i := 1; i < len(told); i++ {
		if told[i] <= told[i-1] {
			t.Errorf("the embed asked for %v: not ever more", told)
		}
	}
	if last := told[len(told)-1]; last <= 300 || last > 1600 {
		t.Errorf("the embed asked for %d px in a 300 px frame", last)
	}
	if fits := eval[string](f, `document.querySelector('[data-testid=flow-pane]').dataset.fits`); fits != "true" {
		t.Error("in the frame it asked for, the diagram does not fit its pane")
	}
	// Drawn at the scale the width allows, filling the pane's height: not
	// shrunk to fit a short frame, and the frame no taller than it needs.
	if gap := eval[float64](f, `(() => { const p = document.querySelector('[data-testid=flow-pane]').getBoundingClientRect(), s = document.querySelector('[data-testid=flow]').getBoundingClientRect(); return p.height - 8 - s.height; })()`); gap < -2 || gap > 4 {
		t.Errorf("the diagram's height is %.0f px short of its pane's", gap)
	}
	for _, p := range eval[[]string](f, legibility(11)) {
		t.Error(p)
	}
}
