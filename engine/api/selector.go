package api

import (
	"fmt"
	"sort"

	"github.com/stateflow/stateflow/engine/api/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// LabelSelectorRequirement is one matchExpressions entry.
type LabelSelectorRequirement struct {
	Key      string   `json:"key" yaml:"key"`
	Operator string   `json:"operator" yaml:"operator"`
	Values   []string `json:"values,omitempty" yaml:"values,omitempty"`
}

// LabelSelector is metav1.LabelSelector. Parsing, matching and printing go
// through apimachinery's labels package (AsSelector), as in Kubernetes;
// the one exception is Matcher's test of an equality-only selector, one
// map lookup per label, which a test checks against apimachinery.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty" yaml:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty" yaml:"matchExpressions,omitempty"`
}

// Empty reports whether the selector selects everything ({}).
func (s *LabelSelector) Empty() bool {
	return s == nil || len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0
}

// AsSelector is metav1.LabelSelectorAsSelector: a nil selector selects
// nothing, an empty one everything. The API server refuses an invalid
// selector (a bad operator, key or value), so a stored object's always
// converts; an invalid one selects nothing.
func (s *LabelSelector) AsSelector() labels.Selector {
	sel, err := s.asSelector()
	if err != nil {
		return labels.Nothing()
	}
	return sel
}

func (s *LabelSelector) asSelector() (labels.Selector, error) {
	if s == nil {
		return labels.Nothing(), nil
	}
	if s.Empty() {
		return labels.Everything(), nil
	}
	reqs := make([]labels.Requirement, 0, len(s.MatchLabels)+len(s.MatchExpressions))
	for k, v := range s.MatchLabels {
		r, err := labels.NewRequirement(k, selection.Equals, []string{v})
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	for _, e := range s.MatchExpressions {
		op, ok := selectorOp(e.Operator)
		if !ok {
			return nil, fmt.Errorf("%q is not a valid label selector operator", e.Operator)
		}
		r, err := labels.NewRequirement(e.Key, op, append([]string(nil), e.Values...))
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, *r)
	}
	return labels.NewSelector().Add(reqs...), nil
}

// selectorOp maps a metav1.LabelSelectorOperator to apimachinery's
// selection operator.
func selectorOp(op string) (selection.Operator, bool) {
	switch op {
	case "In":
		return selection.In, true
	case "NotIn":
		return selection.NotIn, true
	case "Exists":
		return selection.Exists, true
	case "DoesNotExist":
		return selection.DoesNotExist, true
	}
	return "", false
}

// Matches reports whether labels satisfy the selector. Callers that test
// many objects against one selector convert it once with AsSelector, as
// the controllers do.
func (s *LabelSelector) Matches(l map[string]string) bool {
	return s.AsSelector().Matches(labels.Set(l))
}

// Validate checks operators and values as the API server does
// (ValidateLabelSelectorRequirement in apimachinery's meta/v1/validation).
func (r LabelSelectorRequirement) Validate() error {
	switch r.Operator {
	case "In", "NotIn":
		if len(r.Values) == 0 {
			return fmt.Errorf("values: Required value: must be specified when `operator` is 'In' or 'NotIn'")
		}
	case "Exists", "DoesNotExist":
		if len(r.Values) > 0 {
			return fmt.Errorf("values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
		}
	default:
		return fmt.Errorf("operator: Invalid value: %q: not a valid selector operator", r.Operator)
	}
	return nil
}

// String renders the selector as kubectl does (metav1.FormatLabelSelector):
// "app=web,tier in (a,b)", requirements sorted by key, "<none>" for none,
// "<error>" for one that does not convert.
func (s *LabelSelector) String() string {
	if s == nil {
		return "<none>"
	}
	sel, err := s.asSelector()
	if err != nil {
		return "<error>"
	}
	if out := sel.String(); out != "" {
		return out
	}
	return "<none>"
}

// SortedKeys returns the keys of m in ascending order.
func SortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// FormatLabels renders labels as kubectl does (labels.FormatLabels):
// "a=b,c=d" sorted by key, or "<none>".
func FormatLabels(m map[string]string) string {
	return labels.FormatLabels(m)
}
