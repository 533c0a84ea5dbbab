package api

import (
	"math/rand/v2"
	"testing"

	upstream "k8s.io/apimachinery/pkg/labels"

	"github.com/stateflow/stateflow/engine/api/labels"
)

// upstreamMatches matches l with apimachinery's own selector of the same
// requirements: sel printed and parsed by k8s.io/apimachinery/pkg/labels
// (Nothing prints as "", like Everything, but is not empty).
func upstreamMatches(t *testing.T, sel labels.Selector, l map[string]string) bool {
	t.Helper()
	if sel.String() == "" && !sel.Empty() {
		return false
	}
	up, err := upstream.Parse(sel.String())
	if err != nil {
		t.Fatalf("apimachinery cannot parse %q: %v", sel.String(), err)
	}
	return up.Matches(upstream.Set(l))
}

// TestMatcherAgreesWithApimachinery compares Matcher with apimachinery's
// labels.Selector (the oracle: the selector's requirements parsed by
// k8s.io/apimachinery/pkg/labels itself) on random selectors and label sets drawn
// from a small alphabet, so that hits, misses, absent keys and empty
// values all occur.
func TestMatcherAgreesWithApimachinery(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"app", "tier", "pod-template-hash", "x"}
	values := []string{"", "web", "db", "1"}
	set := func(n int) map[string]string {
		m := map[string]string{}
		for range n {
			m[keys[rng.IntN(len(keys))]] = values[rng.IntN(len(values))]
		}
		return m
	}
	hits := 0
	for i := range 20000 {
		var sel *LabelSelector
		switch i % 10 {
		case 0: // nil: nothing
		case 1:
			sel = &LabelSelector{} // everything
		case 2:
			sel = &LabelSelector{MatchLabels: set(2), MatchExpressions: []LabelSelectorRequirement{{Key: "tier", Operator: "Exists"}}}
		case 3:
			sel = &LabelSelector{MatchLabels: map[string]string{"app": "-bad-"}} // invalid: nothing
		default:
			sel = &LabelSelector{MatchLabels: set(1 + rng.IntN(3))}
		}
		l := set(rng.IntN(4))
		want := upstreamMatches(t, sel.AsSelector(), l)
		if got := sel.Matcher().Matches(l); got != want {
			t.Fatalf("selector %v on %v: Matcher says %v, apimachinery %v", sel, l, got, want)
		}
		if sel != nil && len(sel.MatchExpressions) == 0 {
			tmpl := sel.MatchLabels
			want := upstream.SelectorFromValidatedSet(upstream.Set(tmpl)).Matches(upstream.Set(l))
			if got := EqualityMatcher(tmpl).Matches(l); got != want {
				t.Fatalf("template %v on %v: EqualityMatcher says %v, apimachinery %v", tmpl, l, got, want)
			}
		}
		if want {
			hits++
		}
	}
	if (Matcher{}).Matches(map[string]string{}) {
		t.Fatal("the zero Matcher matches: it must match nothing, as a nil selector")
	}
	if hits < 2000 {
		t.Fatalf("only %d of 20,000 cases matched: the test does not exercise matching", hits)
	}
}
