package api

import (
	"sort"

	"github.com/stateflow/stateflow/engine/api/labels"
)

// Matcher is a selector converted once for testing many label sets, as a
// controller does over every pod of its namespace at each sync.
//
// A selector of matchLabels only (every Deployment, ReplicaSet, Job and
// DaemonSet the examples write) is tested by one map lookup per label:
// apimachinery's Equals requirement asks Has and then Get, two lookups,
// and walks its requirements through an interface. The test is the same
// (the key present and its value equal); TestMatcherAgreesWithApimachinery
// checks it against labels.Selector on random selectors and label sets.
// Anything else goes through apimachinery.
type Matcher struct {
	pairs []labelPair // sorted by key; used when sel is nil
	sel   labels.Selector
}

type labelPair struct{ key, value string }

// Matcher converts the selector: a nil selector matches nothing, an empty
// one everything, an invalid one nothing (as AsSelector).
func (s *LabelSelector) Matcher() Matcher {
	sel, err := s.asSelector()
	if err != nil || s == nil || len(s.MatchExpressions) > 0 || len(s.MatchLabels) == 0 {
		if err != nil {
			sel = labels.Nothing()
		}
		return Matcher{sel: sel}
	}
	return Matcher{pairs: pairsOf(s.MatchLabels)}
}

// EqualityMatcher matches label sets that hold every label of want (the
// ReplicaSet controller's test of a pod against its template's labels,
// labels.Set(want).AsSelectorPreValidated()).
func EqualityMatcher(want map[string]string) Matcher {
	if len(want) == 0 {
		return Matcher{sel: labels.Everything()}
	}
	return Matcher{pairs: pairsOf(want)}
}

func pairsOf(m map[string]string) []labelPair {
	ps := make([]labelPair, 0, len(m))
	for k, v := range m {
		ps = append(ps, labelPair{k, v})
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].key < ps[j].key })
	return ps
}

// Matches reports whether the label set satisfies the selector. The zero
// Matcher, like a nil selector, matches nothing.
func (m Matcher) Matches(l map[string]string) bool {
	if m.sel != nil {
		return m.sel.Matches(labels.Set(l))
	}
	if len(m.pairs) == 0 {
		return false
	}
	for _, p := range m.pairs {
		if v, ok := l[p.key]; !ok || v != p.value {
			return false
		}
	}
	return true
}
