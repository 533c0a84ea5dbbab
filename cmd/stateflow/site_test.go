package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// fakeWeb writes a web directory with stand-ins for the wasm and assets.
func fakeWeb(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range append([]string{"app.wasm"}, webAssets...) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Other origins may frame the site (the embed mode), served or built:
// the served page carries frame-ancestors * and no X-Frame-Options, and
// the static site's _headers file says the same for every path. The page's
// own policy (its <meta>) is unchanged.
func TestOtherOriginsMayFrameTheSite(t *testing.T) {
	web := fakeWeb(t)
	h, err := handler(web, filepath.Join(web, "app.wasm"), app.LocalDir(""))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	framable(h).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/?embed=1", nil))
	if got := rec.Header().Get("Content-Security-Policy"); got != "frame-ancestors *" {
		t.Errorf("Content-Security-Policy %q", got)
	}
	if got := rec.Header().Get("X-Frame-Options"); got != "" {
		t.Errorf("X-Frame-Options %q", got)
	}
	if body := rec.Body.String(); !strings.Contains(body, "default-src 'self'") {
		t.Error("the page lost its own Content-Security-Policy")
	}
	out := t.TempDir()
	if err := buildCommand([]string{"--out", out, "--web", web}, &strings.Builder{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "_headers"))
	if err != nil || string(b) != "/*\n  Content-Security-Policy: frame-ancestors *\n" {
		t.Errorf("_headers: %q, %v", b, err)
	}
}
