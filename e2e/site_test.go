package e2e

import (
	"context"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/internal/framing"
	"github.com/stateflow/stateflow/internal/wasmbuild"
)

// site is the built static site, served on loopback, and a browser.
type site struct {
	url     string
	web     string // the built web/ directory: app.wasm and the assets
	dir     string // the built static site
	browser context.Context
	cancel  func()
}

var shared *site

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

func chromiumPath() string {
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p != "" {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return ""
}

func TestMain(m *testing.M) {
	required := os.Getenv("STATEFLOW_E2E") != ""
	flag.Parse()
	if testing.Short() && !required {
		fmt.Println("e2e: -short; skipping the browser tests (make check leaves them to make test)")
		os.Exit(0)
	}
	if chromiumPath() == "" {
		if required {
			fmt.Fprintln(os.Stderr, "e2e: STATEFLOW_E2E is set but Chromium is not installed (apt-get install -y chromium)")
			os.Exit(1)
		}
		fmt.Println("e2e: Chromium not found; skipping the browser tests (make test installs and requires them)")
		os.Exit(0)
	}
	s, err := start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		os.Exit(1)
	}
	shared = s
	code := m.Run()
	s.cancel()
	os.Exit(code)
}

// start builds the wasm and the site, serves it and launches Chromium.
func start() (*site, error) {
	root := repoRoot()
	dir, err := os.MkdirTemp("", "stateflow-e2e")
	if err != nil {
		return nil, err
	}
	web := filepath.Join(dir, "web")
	out := filepath.Join(dir, "site")
	if err := os.MkdirAll(web, 0o755); err != nil {
		return nil, err
	}
	for _, a := range []string{"app.css", "codemirror.js", "icon.svg", "icon-192.png", "icon-512.png", "poster.html", "poster.js"} { // and wasmbuild.Build writes zoneinfo.zip
		b, err := os.ReadFile(filepath.Join(root, "web", a))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(web, a), b, 0o644); err != nil {
			return nil, err
		}
	}
	if err := wasmbuild.Build(context.Background(), root, filepath.Join(web, "app.wasm"), profiling()); err != nil {
		return nil, err
	}
	gen := exec.Command("go", "run", "./cmd/stateflow", "build", "--out", out, "--web", web)
	gen.Dir = root
	if b, err := gen.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the site: %v\n%s", err, b)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	// Served as stateflow serve serves it: any origin may frame it.
	go http.Serve(ln, framing.Framable(http.FileServer(http.Dir(out))))
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath()), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.UserDataDir(filepath.Join(dir, "profile")), chromedp.WindowSize(1440, 900),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true))
	browser, cancelBrowser := chromedp.NewContext(alloc)
	if err := chromedp.Do(browser, chromedp.Navigate("about:blank")); err != nil {
		cancelBrowser()
		cancelAlloc()
		return nil, fmt.Errorf("starting Chromium: %w", err)
	}
	return &site{url: "http://" + ln.Addr().String() + "/", web: web, dir: out, browser: browser, cancel: func() {
		cancelBrowser()
		cancelAlloc()
		ln.Close()
		os.RemoveAll(dir)
	}}, nil
}
