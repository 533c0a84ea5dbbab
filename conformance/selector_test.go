package conformance

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metavalidation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	fieldpath "k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
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

// The API server refuses an invalid selector as apimachinery's
// ValidateLabelSelector does (the same paths and messages for operators,
// value counts, keys and values), and kubectl prints one as
// FormatLabelSelector does ("<error>" when it does not convert).
func TestSelectorValidationMatchesApimachinery(t *testing.T) {
	for _, sel := range []*api.LabelSelector{
		{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "env", Operator: "NotIn", Values: []string{"not valid!"}}}},
		{MatchLabels: map[string]string{"app": "web", "bad key!": "x"}},
		{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "-bad", Operator: "Exists"}}},
		{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: "In"}}},
		{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: "Sideways", Values: []string{"a"}}}},
		{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: "Exists", Values: []string{"a"}}}},
	} {
		rs := &api.ReplicaSet{ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default"}}
		rs.Spec.Selector = sel
		rs.Spec.Template.Labels = map[string]string{"app": "web"}
		rs.Spec.Template.Spec.Containers = []api.Container{{Name: "web", Image: "web:1"}}
		var got []string
		var ie *apiserver.InvalidError
		if err := apiserver.DryRun(rs, nil); errors.As(err, &ie) {
			for _, f := range ie.Fields {
				if strings.HasPrefix(f.Path, "spec.selector") {
					got = append(got, f.Error())
				}
			}
		}
		var want []string
		for _, e := range metavalidation.ValidateLabelSelector(toMetaSelector(sel), metavalidation.LabelSelectorValidationOptions{}, fieldpath.NewPath("spec", "selector")) {
			want = append(want, e.Error())
		}
		slices.Sort(got)
		slices.Sort(want)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("selector %+v:\n got %q\nwant %q", sel, got, want)
		}
		if got, want := sel.String(), metav1.FormatLabelSelector(toMetaSelector(sel)); got != want {
			t.Errorf("selector %+v prints %q, kubectl %q", sel, got, want)
		}
	}
}
