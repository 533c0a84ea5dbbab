package e2e

import (
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stateflow/stateflow/internal/framing"
)

// TestPublishedUnderABasePath builds the site as the GitHub Pages
// workflow does (stateflow build --base /stateflow), serves it under
// that prefix only, and uses it: the page loads every file from under
// the prefix, steps, and a Share link opens the same scenario at the
// same tick.
func TestPublishedUnderABasePath(t *testing.T) {
	out := filepath.Join(t.TempDir(), "site")
	gen := exec.Command("go", "run", "./cmd/stateflow", "build", "--out", out, "--web", shared.web, "--base", "/stateflow")
	gen.Dir = repoRoot()
	if b, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("stateflow build --base /stateflow: %v\n%s", err, b)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	mux := http.NewServeMux()
	mux.Handle("/stateflow/", http.StripPrefix("/stateflow", http.FileServer(http.Dir(out))))
	var mu sync.Mutex
	var outside []string
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		outside = append(outside, r.URL.Path)
		http.NotFound(w, r)
	})
	go http.Serve(ln, framing.Framable(mux))
	base := "http://" + ln.Addr().String() + "/stateflow/"

	tb := newTab(t)
	tb.open(base)
	tb.chooseExample("recreate")
	for range 5 {
		tb.click("step")
	}
	at := tb.tick()
	if at == "0" {
		t.Fatal("the published page does not step")
	}
	tb.click("share")
	tb.waitFor(`location.hash.startsWith('#s=')`, "the link in the address bar")
	link := eval[string](tb, `location.href`)
	src := eval[string](tb, sel("editor")+".value")
	if !strings.HasPrefix(link, base) {
		t.Fatalf("the Share link %q is not under %s", link, base)
	}
	other := newTab(t)
	other.open(link)
	if got := other.tick(); got != at {
		t.Errorf("the shared link opens at tick %q, want %s", got, at)
	}
	if got := eval[string](other, sel("editor")+".value"); got != src {
		t.Error("the shared link does not carry the scenario")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(outside) > 0 {
		t.Errorf("the page asked for files outside /stateflow/: %v", outside)
	}
}
