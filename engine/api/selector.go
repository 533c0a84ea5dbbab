package api

import (
	"fmt"
	"sort"
	"strings"
)

// LabelSelectorRequirement is one matchExpressions entry.
type LabelSelectorRequirement struct {
	Key      string   `json:"key" yaml:"key"`
	Operator string   `json:"operator" yaml:"operator"`
	Values   []string `json:"values,omitempty" yaml:"values,omitempty"`
}

// LabelSelector is metav1.LabelSelector.
type LabelSelector struct {
	MatchLabels      map[string]string          `json:"matchLabels,omitempty" yaml:"matchLabels,omitempty"`
	MatchExpressions []LabelSelectorRequirement `json:"matchExpressions,omitempty" yaml:"matchExpressions,omitempty"`
}

// Empty reports whether the selector selects everything ({}).
func (s *LabelSelector) Empty() bool {
	return s == nil || len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0
}

// Matches reports whether labels satisfy the selector. A nil selector
// matches nothing, an empty one everything (metav1.LabelSelectorAsSelector).
func (s *LabelSelector) Matches(labels map[string]string) bool {
	if s == nil {
		return false
	}
	for k, v := range s.MatchLabels {
		if lv, ok := labels[k]; !ok || lv != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		if !r.matches(labels) {
			return false
		}
	}
	return true
}

func (r LabelSelectorRequirement) matches(labels map[string]string) bool {
	v, ok := labels[r.Key]
	switch r.Operator {
	case "In":
		return ok && contains(r.Values, v)
	case "NotIn":
		return !ok || !contains(r.Values, v)
	case "Exists":
		return ok
	case "DoesNotExist":
		return !ok
	}
	return false
}

// Validate checks operators and values as the API server does.
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

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// String renders the selector as kubectl does: "app=web,tier in (a,b)".
func (s *LabelSelector) String() string {
	if s == nil {
		return "<none>"
	}
	var parts []string
	for _, k := range sortedKeys(s.MatchLabels) {
		parts = append(parts, k+"="+s.MatchLabels[k])
	}
	for _, r := range s.MatchExpressions {
		switch r.Operator {
		case "In":
			parts = append(parts, fmt.Sprintf("%s in (%s)", r.Key, strings.Join(sortedCopy(r.Values), ",")))
		case "NotIn":
			parts = append(parts, fmt.Sprintf("%s notin (%s)", r.Key, strings.Join(sortedCopy(r.Values), ",")))
		case "Exists":
			parts = append(parts, r.Key)
		case "DoesNotExist":
			parts = append(parts, "!"+r.Key)
		}
	}
	if len(parts) == 0 {
		return "<none>"
	}
	return strings.Join(parts, ",")
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SortedKeys returns the keys of m in ascending order.
func SortedKeys(m map[string]string) []string { return sortedKeys(m) }

func sortedCopy(v []string) []string {
	c := append([]string(nil), v...)
	sort.Strings(c)
	return c
}

// FormatLabels renders labels as "a=b,c=d" (sorted), or "<none>".
func FormatLabels(m map[string]string) string {
	if len(m) == 0 {
		return "<none>"
	}
	var parts []string
	for _, k := range sortedKeys(m) {
		parts = append(parts, k+"="+m[k])
	}
	return strings.Join(parts, ",")
}
