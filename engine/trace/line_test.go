package trace

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stateflow/stateflow/engine/api"
)

// A line reads back as it was said; one that begins with its object's
// short name keeps only the rest, shared with every line of the same
// rest, and a line given in pieces whose rest is kept allocates nothing.
func TestLinesKeepTheRestOnce(t *testing.T) {
	pod := func(name string) api.Key { return api.Key{Kind: api.KindPod, Namespace: "default", Name: name} }
	ls := NewLines()
	for _, tc := range []struct {
		about  api.Key
		s      string
		shared bool
	}{
		{pod("web-1"), "pod/web-1: started web; ready", true},
		{pod("web-1"), "pod/web-1 status: Running, 1/1 containers ready, Ready=True", true},
		{pod("web-1"), "pod/web-10: started web; ready", false}, // another pod's name begins the same way
		{pod("web-1"), "pod/web-1", false},                      // nothing after the name
		{pod("web-1"), "scaled rs/web from 1 to 2", false},
		{api.Key{Kind: api.KindReplicaSet, Namespace: "default", Name: "web"}, "rs/web: saw 3 of 3 pods", true},
		{api.Key{}, "kubectl apply -f -", false},
		{pod("web-1"), "", false},
		{pod("web-1"), "\xff is not UTF-8", false}, // read back with the byte replaced (below)
	} {
		if tc.s != "" && tc.s[0] == afterName[0] {
			if got := ls.About(tc.about, tc.s).Render(tc.about); got != "\uFFFD is not UTF-8" {
				t.Errorf("a line beginning with the marker's byte reads %q", got)
			}
			continue
		}
		l := ls.About(tc.about, tc.s)
		if got := l.Render(tc.about); got != tc.s {
			t.Errorf("%q about %s renders as %q", tc.s, tc.about, got)
		}
		if kept := l != "" && l[0] == afterName[0]; kept != tc.shared {
			t.Errorf("%q about %s: kept as a rest %v, want %v", tc.s, tc.about, kept, tc.shared)
		}
	}
	a, b := ls.About(pod("web-1"), "pod/web-1: started web; ready"), ls.About(pod("web-2"), "pod/web-2: started web; ready")
	if unsafe.StringData(string(a)) != unsafe.StringData(string(b)) {
		t.Error("two pods' lines with the same rest keep two copies of it")
	}
	if got := b.Render(pod("web-2")); got != "pod/web-2: started web; ready" {
		t.Errorf("renders %q", got)
	}
	text := []byte("started web; ready")
	if l := ls.AboutSubject(pod("web-3"), "pod/web-3", text); l != a || l.Render(pod("web-3")) != "pod/web-3: started web; ready" {
		t.Errorf("in pieces: %q", l)
	}
	if n := testing.AllocsPerRun(100, func() { ls.AboutSubject(pod("web-3"), "pod/web-3", text) }); n != 0 {
		t.Errorf("a line in pieces whose rest is kept allocates %v times", n)
	}
	if l := ls.AboutSubject(pod("web-3"), "deploy/web", text); l.Render(pod("web-3")) != "deploy/web: started web; ready" {
		t.Errorf("another subject: %q", l)
	}
}

// The cache holds at most maxLines rests: a run that says many different
// things starts it over instead of growing it, and every line still reads
// back as it was said.
func TestLinesAreBounded(t *testing.T) {
	ls := NewLines()
	k := api.Key{Kind: api.KindReplicaSet, Namespace: "default", Name: "web"}
	var kept []Line
	for i := range maxLines + 10 {
		kept = append(kept, ls.About(k, fmt.Sprintf("rs/web: saw %d pods", i)))
		if len(ls.rests) > maxLines {
			t.Fatalf("%d rests kept", len(ls.rests))
		}
	}
	for i, l := range kept {
		if got, want := l.Render(k), fmt.Sprintf("rs/web: saw %d pods", i); got != want {
			t.Fatalf("line %d reads %q, want %q", i, got, want)
		}
	}
}
