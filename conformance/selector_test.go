package conformance

import (
	"math/rand/v2"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/stateflow/stateflow/engine/api"
)

// The engine's selectors must select and print exactly as metav1's:
// LabelSelectorAsSelector for matching, FormatLabelSelector for kubectl.
func TestSelectorsAgreeWithMetav1(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 13))
	keys := []string{"app", "tier", "canary", "example.com/track"}
	vals := []string{"web", "db", "a", "b"}
	ops := []string{"In", "NotIn", "Exists", "DoesNotExist"}
	pick := func(l []string) string { return l[r.IntN(len(l))] }
	for i := 0; i < 2000; i++ {
		sel := &api.LabelSelector{}
		for range r.IntN(3) {
			if sel.MatchLabels == nil {
				sel.MatchLabels = map[string]string{}
			}
			sel.MatchLabels[pick(keys)] = pick(vals)
		}
		for range r.IntN(3) {
			req := api.LabelSelectorRequirement{Key: pick(keys), Operator: pick(ops)}
			if req.Operator == "In" || req.Operator == "NotIn" {
				for range 1 + r.IntN(2) {
					req.Values = append(req.Values, pick(vals))
				}
			}
			sel.MatchExpressions = append(sel.MatchExpressions, req)
		}
		ref := toMetaSelector(sel)
		if got, want := sel.String(), metav1.FormatLabelSelector(ref); got != want {
			t.Fatalf("%+v: String() = %q, FormatLabelSelector = %q", sel, got, want)
		}
		want, err := metav1.LabelSelectorAsSelector(ref)
		if err != nil {
			t.Fatalf("%+v: %v", sel, err)
		}
		set := labels.Set{}
		for range r.IntN(4) {
			set[pick(keys)] = pick(vals)
		}
		if got := sel.Matches(set); got != want.Matches(set) {
			t.Fatalf("%+v on %v: Matches = %v, metav1 says %v", sel, set, got, !got)
		}
	}
}

func toMetaSelector(s *api.LabelSelector) *metav1.LabelSelector {
	out := &metav1.LabelSelector{MatchLabels: s.MatchLabels}
	for _, r := range s.MatchExpressions {
		out.MatchExpressions = append(out.MatchExpressions, metav1.LabelSelectorRequirement{
			Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: r.Values})
	}
	return out
}
