package main

import (
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/stateflow/stateflow/internal/wasmbuild"
)

// compressedFiles serves the large files of web/ (app.wasm, the editor,
// the style sheet) compressed once: gzip at once, brotli (quality 11,
// about a minute for the wasm) when it is ready, each sent to the
// browsers whose Accept-Encoding takes it, with an ETag of the content,
// so a repeat visit revalidates in one round trip. The ETag is weak
// (W/): the file's three codings are the same content, not the same
// bytes (RFC 9110 §8.8.3), and If-None-Match compares weakly.
type compressedFiles struct {
	files map[string]*compressedFile // by URL path, "/web/app.wasm"
	next  http.Handler
}

type compressedFile struct {
	raw, gzip []byte
	etag      string
	ctype     string

	mu     sync.RWMutex
	brotli []byte // nil until compressed
}

// newCompressedFiles reads names from dir, gzips them and starts their
// brotli compression in the background (or, with wait, before it
// returns). Requests for other paths go to next.
func newCompressedFiles(dir string, names []string, next http.Handler, wait bool) (*compressedFiles, error) {
	c := &compressedFiles{files: map[string]*compressedFile{}, next: next}
	var wg sync.WaitGroup
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		f := &compressedFile{
			raw: b, gzip: wasmbuild.Gzip(b),
			etag:  `W/"` + hex.EncodeToString(sum[:8]) + `"`,
			ctype: mime.TypeByExtension(path.Ext(name)),
		}
		c.files["/web/"+name] = f
		wg.Add(1)
		go func() {
			defer wg.Done()
			br := wasmbuild.Brotli(b)
			f.mu.Lock()
			f.brotli = br
			f.mu.Unlock()
		}()
	}
	if wait {
		wg.Wait()
	}
	return c, nil
}

func (c *compressedFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f := c.files[r.URL.Path]
	if f == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		c.next.ServeHTTP(w, r)
		return
	}
	h := w.Header()
	h.Set("ETag", f.etag)
	h.Set("Cache-Control", "no-cache") // the URL stays while the build changes: revalidate
	h.Add("Vary", "Accept-Encoding")
	if f.ctype != "" {
		h.Set("Content-Type", f.ctype)
	}
	if etagMatches(r.Header.Get("If-None-Match"), f.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body, enc := f.raw, ""
	f.mu.RLock()
	br := f.brotli
	f.mu.RUnlock()
	switch accept := r.Header.Get("Accept-Encoding"); {
	case br != nil && accepts(accept, "br"):
		body, enc = br, "br"
	case accepts(accept, "gzip"):
		body, enc = f.gzip, "gzip"
	}
	if enc != "" {
		h.Set("Content-Encoding", enc)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	w.Write(body)
}

// etagMatches is If-None-Match's weak comparison (RFC 9110 §13.1.2): "*"
// or any listed tag equal to etag once W/ is dropped from both.
func etagMatches(header, etag string) bool {
	want := strings.TrimPrefix(etag, "W/")
	for _, tag := range strings.Split(header, ",") {
		tag = strings.TrimSpace(tag)
		if tag == "*" || strings.TrimPrefix(tag, "W/") == want {
			return true
		}
	}
	return false
}

// accepts reports whether an Accept-Encoding header takes coding: it is
// listed with a quality above zero (RFC 9110 §12.5.3).
func accepts(header, coding string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(part, ";")
		if !strings.EqualFold(strings.TrimSpace(name), coding) {
			continue
		}
		return quality(params) > 0
	}
	return false
}

// quality is the q parameter among params ("q=0.5; x=1"), 1 when absent.
func quality(params string) float64 {
	for _, p := range strings.Split(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return 0
			}
			return q
		}
	}
	return 1
}
