package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
)

// The Share banner's "Load on click" snippet frames the light poster:
// it names the scenario (the title, its kinds and its tick, read from
// the link) and downloads nothing of the simulator (no wasm, no
// go-app script, no service worker) until its reader presses Load,
// which opens the embed of the same link at the same tick.
func TestEmbedPosterLoadsOnClick(t *testing.T) {
	ex, ok := examples.Get("rolling-update")
	if !ok {
		t.Fatal("no rolling-update example")
	}
	link := shared.url + "#" + share.EncodeState(share.State{Scenario: ex.Source, Tick: 5})

	tb := newTab(t)
	tb.open(shared.url)
	tb.click("share")
	tb.waitFor(`document.querySelector('[data-testid=embed-poster]')`, "the embed snippet")
	tb.click("embed-poster")
	tb.waitFor(`document.querySelector('[data-testid=embed-snippet]').value.includes('web/poster.html?title=')`, "the poster snippet")
	snippet := eval[string](tb, `document.querySelector('[data-testid=embed-snippet]').value`)
	if !strings.Contains(snippet, `loading="lazy"`) || !strings.Contains(snippet, `<iframe src="`+shared.url+`web/poster.html?title=`) {
		t.Errorf("the poster snippet: %s", snippet)
	}

	poster := newPrivateTab(t)
	if err := chromedp.Do(poster.ctx, chromedp.Navigate(model.PosterSrc(link, "Stateflow: a rolling update"))); err != nil {
		t.Fatal(err)
	}
	poster.waitFor(`document.querySelector('[data-testid=poster-what]').textContent.includes('tick 5')`, "the poster to describe the link")
	if got := poster.text("poster-title"); got != "Stateflow: a rolling update" {
		t.Errorf("the poster's title %q", got)
	}
	if got := poster.text("poster-what"); !strings.Contains(got, "Deployment") {
		t.Errorf("the poster says %q: not the link's kinds", got)
	}
	for _, name := range []string{"app.wasm", "app.js", "wasm_exec.js", "app-worker.js", "codemirror.js"} {
		if n := eval[int](poster, resourcesNamed(name)); n != 0 {
			t.Errorf("the poster downloaded %s", name)
		}
	}
	if eval[bool](poster, `navigator.serviceWorker.getRegistration().then(r => !!r)`) {
		t.Error("the poster registered a service worker")
	}
	for _, v := range poster.axe(axeSource(t)) {
		t.Error("the poster: " + v)
	}
	// A plain click: the page navigates away (the tab's click helper waits
	// for frames of the page it clicked in).
	xy := eval[[]float64](poster, `(() => { const r = document.querySelector('[data-testid=poster-load]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2] })()`)
	if err := chromedp.Do(poster.ctx, chromedp.MouseClickXY(xy[0], xy[1])); err != nil {
		t.Fatal(err)
	}
	poster.waitFor(`document.querySelector('.embed')?.dataset.loaded === 'true' && !document.getElementById('app-wasm-loader')`, "the embed to load")
	poster.waitFor(`document.querySelector('[data-testid=tick]')?.textContent.trim() === '5'`, "the embed at tick 5")
}
