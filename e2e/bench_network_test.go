package e2e

import (
	"bytes"
	"crypto/sha256"
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

	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/framing"
	"github.com/stateflow/stateflow/internal/wasmbuild"
)

// networkProfile is a connection: its round trip and its bandwidth, which
// the test's host enforces for every request it answers, the service
// worker's included (DevTools' throttling covers only the page's).
type networkProfile struct {
	name          string
	latencyMillis float64
	bytesPerSec   float64
}

var (
	tenMbps = networkProfile{"10Mbps-40ms", 40, 10e6 / 8}
	// Chrome DevTools' "Fast 3G" preset: 1.6 Mbps down, 150 ms round
	// trips, each scaled as DevTools scales them (×0.9, ×3.75).
	fast3G = networkProfile{"fast3G", 562.5, 1.6e6 / 8 * 0.9}
)

// BenchmarkFirstInteractionNetwork opens the page and an embed cold (a
// fresh browser context: no cache, no service worker) from a host that
// sends brotli or gzip, as a static host that precompresses its files
// does, over a throttled connection, until the playground answers clicks;
// the service worker's own downloads on a first visit share the
// bandwidth, as they would. "repeat" reopens the page in the same context
// (the service worker answers from its cache). Fast 3G runs under make
// bench only (STATEFLOW_BENCH_LARGE): a load there takes 20 s.
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
		bodies := precompress(b, shared.dir, enc)
		for _, np := range profiles {
			host := newThrottledHost(b, shared.dir, enc, bodies, np)
			page, embed := host, host+"?embed=1#"+share.EncodeState(share.State{Scenario: ex.Source, Tick: 5})
			b.Run(fmt.Sprintf("%s/%s/page", np.name, enc), func(b *testing.B) { coldLoads(b, page, ".page", 3) })
			b.Run(fmt.Sprintf("%s/%s/embed", np.name, enc), func(b *testing.B) { coldLoads(b, embed, ".embed", 3) })
			if np == tenMbps {
				b.Run(fmt.Sprintf("%s/%s/page-repeat", np.name, enc), func(b *testing.B) { repeatLoads(b, page, 3) })
			}
		}
	}
}

// coldLoads reports the first interaction ("load") and the first
// contentful paint ("paint": the prerendered page, whose diagram is
// drawn from the HTML and the stylesheet alone, or the embed's loading
// card).
func coldLoads(b *testing.B, url, root string, samples int) {
	var d []time.Duration
	var paint []float64
	for range samples {
		ctx, cancel := chromedp.NewContext(shared.browser, chromedp.WithNewBrowserContext())
		tb := &tab{t: b, ctx: ctx}
		d = append(d, tb.load(url, root))
		paint = append(paint, eval[float64](tb, `performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1`))
		cancel()
	}
	reportDurations(b, d)
	reportMillis(b, "paint", paint)
}

func repeatLoads(b *testing.B, url string, samples int) {
	ctx, cancel := chromedp.NewContext(shared.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	tb := &tab{t: b, ctx: ctx}
	tb.load(url, ".page")
	time.Sleep(2 * time.Second) // the service worker installs
	var d []time.Duration
	for range samples {
		d = append(d, tb.load(url, ".page"))
	}
	reportDurations(b, d)
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

// precompress compresses every text file and the wasm of the built site
// in dir with encoding, once, by their URL paths.
func precompress(tb testing.TB, dir, encoding string) map[string][]byte {
	tb.Helper()
	bodies := map[string][]byte{}
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
		bodies["/"+filepath.ToSlash(rel)] = body
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return bodies
}

// newThrottledHost serves the site in dir as a static host that sends
// the precompressed bodies in encoding, with GitHub Pages' caching
// headers (ten minutes fresh, an ETag), each answer after np's round
// trip, every byte through one link of np's bandwidth. It returns the
// site's address.
func newThrottledHost(tb testing.TB, dir, encoding string, bodies map[string][]byte, np networkProfile) string {
	tb.Helper()
	plain := http.FileServer(http.Dir(dir))
	etags := map[string]string{}
	for p, body := range bodies {
		etags[p] = fmt.Sprintf(`"%x"`, sha256.Sum256(body))
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(time.Duration(np.latencyMillis * float64(time.Millisecond)))
		p := r.URL.Path
		if strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		body, ok := bodies[p]
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
		w.Header().Set("Cache-Control", "max-age=600") // as GitHub Pages sends
		w.Header().Set("ETag", etags[p])
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { ln.Close() })
	go http.Serve(&throttledListener{Listener: ln, link: &link{bytesPerSec: np.bytesPerSec}}, framing.Framable(h))
	return "http://" + ln.Addr().String() + "/"
}

// link is a connection's bandwidth, shared by every TCP connection over
// it: each write waits its turn and takes len/bytesPerSec.
type link struct {
	bytesPerSec float64
	mu          sync.Mutex
	free        time.Time // when the link has sent everything queued
}

// send waits until n more bytes have gone through the link.
func (l *link) send(n int) {
	l.mu.Lock()
	start := time.Now()
	if l.free.After(start) {
		start = l.free
	}
	l.free = start.Add(time.Duration(float64(n) / l.bytesPerSec * float64(time.Second)))
	done := l.free
	l.mu.Unlock()
	time.Sleep(time.Until(done))
}

type throttledListener struct {
	net.Listener
	link *link
}

func (t *throttledListener) Accept() (net.Conn, error) {
	c, err := t.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &throttledConn{Conn: c, link: t.link}, nil
}

type throttledConn struct {
	net.Conn
	link *link
}

// Write sends b in 16 KB pieces, each after the link has carried it.
func (c *throttledConn) Write(b []byte) (int, error) {
	written := 0
	for len(b) > 0 {
		n := min(len(b), 16<<10)
		c.link.send(n)
		m, err := c.Conn.Write(b[:n])
		written += m
		if err != nil {
			return written, err
		}
		b = b[n:]
	}
	return written, nil
}
