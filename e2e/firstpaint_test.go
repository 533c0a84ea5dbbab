package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/framing"
)

// heldHost serves the built site as stateflow serve does (app.wasm
// compressed, with an ETag and no-cache), but sends only the first half of app.wasm until
// release is called: the page is caught while the wasm streams. It counts
// the wasm's answers: full downloads and 304s.
type heldHost struct {
	url     string
	release func()
	mu      sync.Mutex
	full    int
	revalid int
}

func newHeldHost(t *testing.T) *heldHost {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(shared.dir, "web", "app.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	// Compressed, as every host sends it (and as the browser caches it).
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(raw)
	zw.Close()
	wasm := gz.Bytes()
	const etag = `W/"held"`
	held := make(chan struct{})
	var once sync.Once
	h := &heldHost{release: func() { once.Do(func() { close(held) }) }}
	files := http.FileServer(http.Dir(shared.dir))
	srv := httptest.NewServer(framing.Framable(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if path.Base(r.URL.Path) != "app.wasm" {
			files.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("ETag", etag)
		if r.Header.Get("If-None-Match") == etag {
			h.count(&h.revalid)
			w.WriteHeader(http.StatusNotModified)
			return
		}
		h.count(&h.full)
		w.Header().Set("Content-Type", "application/wasm")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Length", fmt.Sprint(len(wasm)))
		w.Write(wasm[:len(wasm)/2])
		w.(http.Flusher).Flush()
		select {
		case <-held:
		case <-r.Context().Done():
			return
		}
		w.Write(wasm[len(wasm)/2:])
	})))
	t.Cleanup(func() {
		h.release()
		srv.Close()
	})
	h.url = srv.URL + "/"
	return h
}

func (h *heldHost) count(n *int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	*n++
}

func (h *heldHost) counts() (full, revalid int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.full, h.revalid
}

// loaderProblems is what is wrong with the page while its wasm streams:
// the progress strip that does not say how far it is or covers the
// diagram, a prerendered diagram that is missing or not the one the
// screen's width calls for.
const loaderProblems = `(() => {
  const out = [], r = e => e.getBoundingClientRect();
  const loader = document.getElementById('app-wasm-loader');
  if (!loader) return ['no loader while the wasm streams'];
  const now = +loader.getAttribute('aria-valuenow');
  if (loader.getAttribute('role') !== 'progressbar' || !(now > 0 && now < 100)) out.push('the loader is not a progress bar part way (aria-valuenow ' + now + ')');
  const l = r(loader);
  if (l.height > 80 || Math.abs(l.bottom - innerHeight) > 1) out.push('the loader is not a strip at the bottom: ' + JSON.stringify(l));
  const shown = [...document.querySelectorAll('.flow svg[data-testid^=flow]')].filter(s => r(s).width > 0);
  if (shown.length !== 1) { out.push(shown.length + ' diagrams shown'); return out; }
  const want = innerWidth < 700 ? 'flow-narrow' : 'flow';
  if (shown[0].dataset.testid !== want) out.push('the ' + shown[0].dataset.testid + ' diagram is shown at ' + innerWidth + ' px');
  const nodes = [...shown[0].querySelectorAll('[data-testid=flow-node] rect')];
  if (nodes.length === 0) out.push('the prerendered diagram has no boxes');
  for (const n of nodes) {
    const b = r(n);
    if (b.right > innerWidth + 1 || b.left < -1) out.push('a box runs off the screen sideways');
    if (b.bottom > l.top && b.top < l.bottom) out.push('the loader covers a box of the diagram');
  }
  return out;
})()`

// Before the wasm runs, the page a visitor sees is the default example,
// prerendered: its manifest in the editor, its diagram at tick 0 drawn
// for the screen's width with text of at least 12 px, and a progress
// strip at the bottom that says how much has arrived. The service worker
// registers after the wasm has loaded, so app.wasm is downloaded once
// on a first visit (its second request, the worker's, is a 304).
func TestPrerenderedPageWhileTheWasmStreams(t *testing.T) {
	ex, ok := examples.Get(examples.Default)
	if !ok {
		t.Fatal("no default example")
	}
	for _, s := range []screen{screens[0], screens[2]} {
		t.Run(s.name, func(t *testing.T) {
			host := newHeldHost(t)
			tb := newPrivateTab(t)
			var opts []chromedp.EmulateViewportOption
			if s.phone {
				opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateScale(3))
			}
			if err := chromedp.Do(tb.ctx, chromedp.EmulateViewport(s.width, s.height, opts...)); err != nil {
				t.Fatal(err)
			}
			if err := chromedp.Do(tb.ctx, chromedp.Navigate(host.url)); err != nil {
				t.Fatal(err)
			}
			tb.waitFor(`+document.getElementById('app-wasm-loader')?.getAttribute('aria-valuenow') > 0`, "the progress bar to move")
			for _, p := range eval[[]string](tb, loaderProblems) {
				t.Error(p)
			}
			for _, p := range eval[[]string](tb, legibility(12)) {
				t.Error(p)
			}
			for _, v := range tb.axe(axeSource(t)) {
				t.Error("while the wasm streams: " + v)
			}
			if got := eval[string](tb, `document.getElementById('examples').value`); got != examples.Default {
				t.Errorf("the example list shows %q, want %q", got, examples.Default)
			}
			if got := eval[string](tb, `document.getElementById('editor').value`); got != ex.Source {
				t.Errorf("the editor holds %d bytes, not the default example's manifest (%d bytes)", len(got), len(ex.Source))
			}
			if eval[bool](tb, `navigator.serviceWorker.getRegistration().then(r => !!r)`) {
				t.Error("the service worker registered before the wasm loaded")
			}
			if !eval[bool](tb, `document.querySelector('.page').inert && document.activeElement === document.body`) {
				t.Error("the prerendered page is not inert: its controls and editor take the focus and typing the mounted page would drop")
			}
			host.release()
			tb.waitFor(`document.querySelector('.page')?.dataset.loaded === 'true' && !document.getElementById('app-wasm-loader')`, "the playground to load")
			for deadline := time.Now().Add(30 * time.Second); !eval[bool](tb, `navigator.serviceWorker.getRegistration().then(r => !!r && !!r.active)`); time.Sleep(100 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the service worker did not install in 30 s")
				}
			}
			if full, revalid := host.counts(); full != 1 {
				t.Errorf("app.wasm was downloaded %d times on a first visit (and revalidated %d times), want once", full, revalid)
			}
		})
	}
}

// newPrivateTab opens a tab in a browser context of its own: no cache, no
// service worker, as a first visit.
func newPrivateTab(t *testing.T) *tab {
	t.Helper()
	ctx, cancel := chromedp.NewContext(shared.browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	ctx, cancelTimeout := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(cancelTimeout)
	return &tab{t: t, ctx: ctx}
}

// An embed before its wasm runs shows a loading card that fills its
// frame, with the progress strip, not the prerendered full playground
// (the boot script marks the document before the body is parsed).
func TestEmbedLoadingCard(t *testing.T) {
	host := newHeldHost(t)
	tb := newPrivateTab(t)
	if err := chromedp.Do(tb.ctx, chromedp.EmulateViewport(800, 520)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(host.url+"?embed=1")); err != nil {
		t.Fatal(err)
	}
	tb.waitFor(`+document.getElementById('app-wasm-loader')?.getAttribute('aria-valuenow') > 0`, "the progress bar to move")
	if !eval[bool](tb, `document.documentElement.classList.contains('embed-boot')`) {
		t.Error("the boot script did not mark the embed (blocked by the Content-Security-Policy?)")
	}
	if v := eval[string](tb, `getComputedStyle(document.querySelector('.page')).visibility`); v != "hidden" {
		t.Errorf("the prerendered full page is %s in the embed's frame", v)
	}
	if !eval[bool](tb, `(() => { const l = document.getElementById('app-wasm-loader').getBoundingClientRect(); return l.top <= 0 && l.bottom >= innerHeight && l.width >= innerWidth; })()`) {
		t.Error("the loading card does not fill the frame")
	}
	for _, v := range tb.axe(axeSource(t)) {
		t.Error("while the wasm streams: " + v)
	}
	host.release()
	tb.waitFor(`document.querySelector('.embed')?.dataset.loaded === 'true' && !document.getElementById('app-wasm-loader')`, "the embed to load")

	// Where go-app loads no wasm (?wasm=false, a crawler), the loader
	// goes and the prerendered page shows: the frame is not left blank.
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(host.url+"?embed=1&wasm=false")); err != nil {
		t.Fatal(err)
	}
	tb.waitFor(`!document.getElementById('app-wasm-loader') && document.querySelector('.page')`, "the loader to go")
	if v := eval[string](tb, `getComputedStyle(document.querySelector('.page')).visibility`); v != "visible" {
		t.Errorf("without the wasm the embed's frame is blank (the page is %s)", v)
	}
}
