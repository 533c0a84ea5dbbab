package e2e

import (
	"bytes"
	"fmt"
	"mime"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/framing"
	"github.com/stateflow/stateflow/internal/wasmbuild"
)

// networkProfile is a connection as Chrome's DevTools throttles it.
type networkProfile struct {
	name          string
	latencyMillis float64
	bytesPerSec   float64
}

var (
	tenMbps = networkProfile{"10Mbps-40ms", 40, 10e6 / 8}
	// Chrome DevTools' "Fast 3G" preset: 1.6 Mbps down, 750 kbps up, 150 ms
	// round trips, each scaled as DevTools scales them (×0.9, ×3.75).
	fast3G = networkProfile{"fast3G", 562.5, 1.6e6 / 8 * 0.9}
)

// BenchmarkFirstInteractionNetwork opens the page and an embed cold (a
// fresh browser context: no cache, no service worker) on a throttled
// connection, from a host sending brotli or gzip as a static host that
// precompresses its files does, until the playground answers clicks;
// "repeat" reopens the page in the same context. Fast 3G runs under
// make bench only (STATEFLOW_BENCH_LARGE): a load there takes 20 s.
func BenchmarkFirstInteractionNetwork(b *testing.B) {
	profiles := []networkProfile{tenMbps}
	if os.Getenv("STATEFLOW_BENCH_LARGE") != "" {
		profiles = append(profiles, fast3G)
	}
	ex, ok := examples.Get("rolling-update")
	if !ok {
		b.Fatal("no rolling-update example")
	}
	for _, enc := range []string{"br", "gzip"} {
		host := newPrecompressedHost(b, shared.dir, enc)
		page, embed := host.url, host.url+"?embed=1#"+share.EncodeState(share.State{Scenario: ex.Source, Tick: 5})
		for _, np := range profiles {
			b.Run(fmt.Sprintf("%s/%s/page", np.name, enc), func(b *testing.B) { coldLoads(b, np, page, ".page", 3) })
			b.Run(fmt.Sprintf("%s/%s/embed", np.name, enc), func(b *testing.B) { coldLoads(b, np, embed, ".embed", 3) })
		}
		b.Run(fmt.Sprintf("%s/%s/page-repeat", tenMbps.name, enc), func(b *testing.B) { repeatLoads(b, tenMbps, page, 3) })
	}
}

func coldLoads(b *testing.B, np networkProfile, url, root string, samples int) {
	var d []time.Duration
	for range samples {
		ctx, cancel := chromedp.NewContext(shared.browser, chromedp.WithNewBrowserContext())
		tb := &tab{t: b, ctx: ctx}
		tb.throttle(np)
		d = append(d, tb.load(url, root))
		cancel()
	}
	reportDurations(b, d)
}

func repeatLoads(b *testing.B, np networkProfile, url string, samples int) {
	ctx, cancel := chromedp.NewContext(shared.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	tb := &tab{t: b, ctx: ctx}
	tb.throttle(np)
	tb.load(url, ".page")
	time.Sleep(2 * time.Second) // the service worker installs
	var d []time.Duration
	for range samples {
		d = append(d, tb.load(url, ".page"))
	}
	reportDurations(b, d)
}

// throttle makes the tab's connection np.
func (tb *tab) throttle(np networkProfile) {
	tb.t.Helper()
	_, err := chromedp.Call(tb.ctx, network.Enable, network.EnableParams{})
	if err == nil {
		_, err = chromedp.Call(tb.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{
				Latency: np.latencyMillis, DownloadThroughput: np.bytesPerSec, UploadThroughput: np.bytesPerSec,
			}},
		})
	}
	if err != nil {
		tb.t.Fatalf("throttling to %s: %v", np.name, err)
	}
}

// load navigates and waits, up to two minutes, until the element root
// (".page" or ".embed") says the wasm has mounted it and the loader is
// gone; it returns how long that took.
func (tb *tab) load(url, root string) time.Duration {
	tb.t.Helper()
	start := time.Now()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(url)); err != nil {
		tb.t.Fatalf("navigate: %v", err)
	}
	cond := fmt.Sprintf(`!!(document.querySelector(%q) && document.querySelector(%q).dataset.loaded === 'true' && !document.getElementById('app-wasm-loader'))`, root, root)
	for deadline := start.Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok, err := chromedp.Run(tb.ctx, chromedp.Evaluate[bool](cond)); err == nil && ok {
			return time.Since(start)
		}
	}
	tb.t.Fatalf("%s did not load in two minutes", url)
	return 0
}

// precompressedHost serves a built site as a static host that sends
// precompressed files does: every text file and the wasm in one encoding,
// compressed once before the first request.
type precompressedHost struct {
	url string
}

func newPrecompressedHost(tb testing.TB, dir, encoding string) *precompressedHost {
	tb.Helper()
	type file struct{ body []byte }
	files := map[string]file{}
	var mu sync.Mutex
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		switch path.Ext(p) {
		case ".wasm", ".js", ".css", ".html", ".webmanifest", ".svg", "":
		default:
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		body := wasmbuild.Gzip(b)
		if encoding == "br" {
			body = wasmbuild.Brotli(b)
		}
		files["/"+filepath.ToSlash(rel)] = file{body}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	plain := http.FileServer(http.Dir(dir))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		mu.Lock()
		f, ok := files[p]
		mu.Unlock()
		if !ok || !strings.Contains(r.Header.Get("Accept-Encoding"), encoding) {
			plain.ServeHTTP(w, r)
			return
		}
		ctype := mime.TypeByExtension(path.Ext(p))
		if ctype == "" {
			ctype = "text/html; charset=utf-8"
		}
		w.Header().Set("Content-Type", ctype)
		w.Header().Set("Content-Encoding", encoding)
		w.Header().Set("Cache-Control", "no-cache")
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go http.Serve(ln, framing.Framable(h))
	return &precompressedHost{url: "http://" + ln.Addr().String() + "/"}
}
