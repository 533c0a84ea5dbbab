package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// TestServeCompressesTheWasm asks for app.wasm as browsers do and checks
// what comes back decodes to the file: brotli when accepted, gzip when
// only that is, the file itself otherwise, 304 for a known ETag, and
// other paths left to the page's handler.
func TestServeCompressesTheWasm(t *testing.T) {
	dir := t.TempDir()
	wasm := bytes.Repeat([]byte("\x00asm stateflow "), 4096)
	if err := os.WriteFile(filepath.Join(dir, "app.wasm"), wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page") })
	files, err := newCompressedFiles(dir, []string{"app.wasm"}, next, true)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(files)
	defer srv.Close()

	do := func(method, path string, header ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(method, srv.URL+path, nil)
		for i := 0; i < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		tr := &http.Transport{DisableCompression: true}
		resp, err := tr.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	get := func(path string, header ...string) *http.Response { return do(http.MethodGet, path, header...) }
	decode := map[string]func(io.Reader) (io.Reader, error){
		"br":   func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
		"gzip": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		"":     func(r io.Reader) (io.Reader, error) { return r, nil },
	}
	var etag string
	for _, tc := range []struct{ accept, want string }{
		{"gzip, deflate, br, zstd", "br"},
		{"gzip;q=1.0, br;q=0", "gzip"},
		{"gzip, br;x=1;q=0", "gzip"},
		{"gzip, br;Q=0.0", "gzip"},
		{"br;q=0.5", "br"},
		{"gzip;q=0, br;q=0", ""},
		{"gzip", "gzip"},
		{"identity", ""},
		{"", ""},
	} {
		resp := get("/web/app.wasm", "Accept-Encoding", tc.accept)
		enc := resp.Header.Get("Content-Encoding")
		if enc != tc.want {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tc.accept, enc, tc.want)
			continue
		}
		r, err := decode[enc](resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(r)
		resp.Body.Close()
		if err != nil || !bytes.Equal(body, wasm) {
			t.Errorf("Accept-Encoding %q: the body does not decode to the wasm (%d bytes, %v)", tc.accept, len(body), err)
		}
		if resp.Header.Get("Content-Type") != "application/wasm" {
			t.Errorf("Content-Type %q, want application/wasm (browsers stream-compile only that)", resp.Header.Get("Content-Type"))
		}
		etag = resp.Header.Get("ETag")
	}
	if etag == "" {
		t.Fatal("no ETag")
	}
	for _, match := range []string{etag, `"other", ` + etag, strings.TrimPrefix(etag, "W/"), "*"} {
		if resp := get("/web/app.wasm", "If-None-Match", match); resp.StatusCode != http.StatusNotModified {
			t.Errorf("If-None-Match %s got %d, want 304", match, resp.StatusCode)
		}
	}
	if resp := get("/web/app.wasm", "If-None-Match", `W/"0123456789abcdef"`); resp.StatusCode != http.StatusOK {
		t.Errorf("an old ETag got %d, want 200 and the new file", resp.StatusCode)
	}
	resp := get("/web/app.wasm", "Accept-Encoding", "gzip")
	if v := resp.Header.Get("Vary"); v != "Accept-Encoding" {
		t.Errorf("Vary %q, want Accept-Encoding (caches keep one copy per coding)", v)
	}
	head := do(http.MethodHead, "/web/app.wasm", "Accept-Encoding", "gzip")
	if b, _ := io.ReadAll(head.Body); len(b) != 0 || head.Header.Get("Content-Length") != resp.Header.Get("Content-Length") {
		t.Errorf("HEAD sent %d bytes and Content-Length %s, want none and GET's %s", len(b), head.Header.Get("Content-Length"), resp.Header.Get("Content-Length"))
	}
	if post := do(http.MethodPost, "/web/app.wasm"); post.Header.Get("Content-Encoding") != "" {
		t.Error("a POST was answered with the compressed file, not left to the page's handler")
	}
	resp = get("/", "Accept-Encoding", "br")
	if b, _ := io.ReadAll(resp.Body); string(b) != "page" {
		t.Errorf("/ answered %q, want the page's handler", b)
	}
}
