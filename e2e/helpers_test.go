package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// tab is one browser tab on the site.
type tab struct {
	t   testing.TB
	ctx context.Context
}

// newTab opens a tab, which is closed, whatever it is doing, after two
// minutes.
func newTab(t testing.TB) *tab {
	t.Helper()
	return newTabFor(t, 2*time.Minute)
}

// newTabFor opens a tab that lives at most d.
func newTabFor(t testing.TB, d time.Duration) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(shared.browser)
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, d)
	t.Cleanup(cancelTimeout)
	return &tab{t: t, ctx: ctx}
}

// open navigates and waits until the wasm has mounted the playground. It
// returns how long that took.
func (tb *tab) open(url string) time.Duration {
	tb.t.Helper()
	start := time.Now()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(url)); err != nil {
		tb.t.Fatalf("navigate: %v", err)
	}
	tb.waitFor(`document.querySelector('.page') && document.querySelector('.page').dataset.loaded === 'true' && !document.getElementById('app-wasm-loader')`, "the playground to load")
	return time.Since(start)
}

// eval evaluates JavaScript (awaiting a promise) and decodes the result.
func eval[T any](tb *tab, js string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluate %s: %v", js, err)
	}
	return v
}

// waitFor polls a JavaScript condition for up to 30 seconds.
func (tb *tab) waitFor(cond, what string) {
	tb.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool]("!!("+cond+")"))
		if err == nil && ok {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	tb.t.Fatalf("timed out waiting for %s", what)
}

// poll reports whether a JavaScript condition becomes true within ten
// seconds; unlike waitFor it lets the test say what it saw instead.
func (tb *tab) poll(cond string) bool {
	tb.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool]("!!("+cond+")")); err == nil && ok {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

func sel(testid string) string {
	return fmt.Sprintf(`document.querySelector('[data-testid=%q]')`, testid)
}

func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func (tb *tab) text(testid string) string {
	tb.t.Helper()
	return eval[string](tb, sel(testid)+".textContent")
}

// click clicks a data-testid element and waits for go-app to update the
// page (its data-renders changes at every update; a click that updates
// nothing, on a disabled button, waits two seconds).
func (tb *tab) click(testid string) {
	tb.t.Helper()
	tb.clickElement(sel(testid))
}

// clickElement dispatches a click on the element a JavaScript expression
// finds (a diagram box is an SVG group, which has no click method) and
// waits, as click does, for go-app to update the page.
func (tb *tab) clickElement(elem string) {
	tb.t.Helper()
	eval[bool](tb, `new Promise(done => {
		const page = document.querySelector('.page'), before = page && page.dataset.renders;
		(`+elem+`).dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true}));
		const end = performance.now() + 2000;
		const check = () => (!page || page.dataset.renders !== before || performance.now() > end) ? done(true) : setTimeout(check, 5);
		check();
	})`)
	tb.settle()
}

// settle waits for the next animation frames, after go-app's update.
func (tb *tab) settle() {
	tb.t.Helper()
	eval[bool](tb, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
}

func (tb *tab) tick() string { return strings.TrimSpace(tb.text("tick")) }

// setValue sets a field's value and fires input and change, as typing does.
func (tb *tab) setValue(testid, value string) {
	tb.t.Helper()
	eval[bool](tb, fmt.Sprintf(`(() => { const e = %s; e.value = %s; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); return true })()`, sel(testid), js(value)))
	tb.settle()
}

func (tb *tab) chooseExample(name string) {
	tb.t.Helper()
	tb.setValue("examples", name)
	tb.waitFor(sel("tick")+".textContent.trim() === '0'", "the example to load")
}

// atoi reads a number the page shows.
func atoi(t testing.TB, s string) int {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatalf("not a number: %q", s)
	}
	return n
}
