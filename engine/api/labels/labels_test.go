package labels

import (
	"math/rand/v2"
	"strings"
	"testing"

	upstream "k8s.io/apimachinery/pkg/labels"
)

// The copy must parse, print and match exactly as apimachinery's package
// does; these inputs and the fuzz target compare the two on the same
// selectors and label sets. The test fails when, say, the copy's
// validation of values differs (without the isLabelValue check a 64-byte
// value parses here and not upstream).
var selectorCases = []string{
	"", "app=web", "app==web", "app!=web", "app", "!app", "app in (web,api)",
	"app notin (web)", "tier in ()", "x>1", "x<10", "x>a", "x>1,x<5",
	"app=web,tier!=db", "app=web, tier in (a, b)", "a=b c", "=web", "app=",
	"app in (web", "app=we b", "k8s.io/app=web", "bad//key=x", "a,,b",
	"app=" + strings.Repeat("v", 64), strings.Repeat("k", 64) + "=v",
	"example.com/", "a in (b),!c,d notin (e,f),g", "x > 1", "x>-1",
}

func TestParseIsUpstreams(t *testing.T) {
	sets := []map[string]string{
		{}, {"app": "web"}, {"app": "api", "tier": "db"}, {"x": "3"}, {"x": "a"},
		{"k8s.io/app": "web", "a": "", "g": "h"}, {"c": "1", "d": "f"},
	}
	for _, in := range selectorCases {
		compareParse(t, in, sets)
	}
}

func compareParse(t *testing.T, in string, sets []map[string]string) {
	t.Helper()
	got, gotErr := Parse(in)
	want, wantErr := upstream.Parse(in)
	if (gotErr == nil) != (wantErr == nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
		t.Fatalf("Parse(%q) error %v, upstream %v", in, gotErr, wantErr)
	}
	if gotErr != nil {
		return
	}
	if got.String() != want.String() || got.Empty() != want.Empty() {
		t.Fatalf("Parse(%q) = %q (empty %v), upstream %q (empty %v)", in, got, got.Empty(), want, want.Empty())
	}
	for _, s := range sets {
		if g, w := got.Matches(Set(s)), want.Matches(upstream.Set(s)); g != w {
			t.Fatalf("Parse(%q).Matches(%v) = %v, upstream %v", in, s, g, w)
		}
	}
}

func TestRandomSelectorsAreUpstreams(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"app", "web", "x", "1", "-2", "in", "notin", "(", ")", ",", "=", "==", "!=", "!", ">", "<", " ", "a.b/c", "_", "v1"}
	sets := []map[string]string{{}, {"app": "web"}, {"x": "1"}, {"a.b/c": "v1", "web": ""}}
	for range 5000 {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(words[r.IntN(len(words))])
		}
		compareParse(t, b.String(), sets)
	}
}

func TestSetsAndRequirementsAreUpstreams(t *testing.T) {
	s := map[string]string{"b": "2", "a": "1"}
	if got, want := FormatLabels(s), upstream.FormatLabels(s); got != want {
		t.Errorf("FormatLabels = %q, upstream %q", got, want)
	}
	if got, want := SelectorFromSet(Set(s)).String(), upstream.SelectorFromSet(upstream.Set(s)).String(); got != want {
		t.Errorf("SelectorFromSet = %q, upstream %q", got, want)
	}
	if got, want := Everything().String(), upstream.Everything().String(); got != want {
		t.Errorf("Everything = %q, upstream %q", got, want)
	}
	if Nothing().Matches(Set(s)) != upstream.Nothing().Matches(upstream.Set(s)) {
		t.Error("Nothing matches differently")
	}
}

func FuzzParseIsUpstreams(f *testing.F) {
	for _, in := range selectorCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		compareParse(t, in, []map[string]string{{}, {"app": "web"}, {"x": "2"}})
	})
}
