package api

import "testing"

func TestParseQuantity(t *testing.T) {
	// The canonical texts are resource.MustParse(in).String()'s
	// (conformance's TestQuantityCanonicalForm checks them against it).
	for _, tc := range []struct {
		in    string
		milli int64
		text  string
	}{
		{"500m", 500, "500m"}, {"1", 1000, "1"}, {"2", 2000, "2"}, {"1.5", 1500, "1500m"}, {"128Mi", 128 << 20 * 1000, "128Mi"},
		{"1Gi", 1 << 30 * 1000, "1Gi"}, {"1.5Gi", 1536 << 20 * 1000, "1536Mi"}, {"1024Mi", 1 << 30 * 1000, "1Gi"},
		{"1k", 1_000_000, "1k"}, {"1000", 1_000_000, "1k"}, {"1000m", 1000, "1"}, {"1e3", 1_000_000, "1e3"},
		{"0.1", 100, "100m"}, {"100n", 1, "100n"}, {"+3", 3000, "+3"}, {"3.000", 3000, "3"}, {"12Mi", 12 << 20 * 1000, "12Mi"}, {"1e-3", 1, "1e-3"}, {"0.5Ki", 512_000, "512"},
	} {
		q, err := ParseQuantity(tc.in)
		if err != nil || q.MilliValue() != tc.milli || q.String() != tc.text {
			t.Errorf("ParseQuantity(%q) = %d %q %v, want %d %q", tc.in, q.MilliValue(), q.String(), err, tc.milli, tc.text)
		}
	}
	for _, bad := range []string{"", "5 cores", "abc", "1.2.3", "1Qi", "e3", "-"} {
		if _, err := ParseQuantity(bad); err == nil {
			t.Errorf("ParseQuantity(%q) should fail", bad)
		}
	}
}

func TestScaledValue(t *testing.T) {
	for _, tc := range []struct {
		v     IntOrString
		total int
		up    bool
		want  int
	}{
		{FromString("25%"), 10, true, 3}, {FromString("25%"), 10, false, 2}, {FromInt(4), 10, false, 4}, {FromString("100%"), 5, false, 5},
	} {
		if got, err := tc.v.ScaledValue(tc.total, tc.up); err != nil || got != tc.want {
			t.Errorf("%v of %d (up %v) = %d %v, want %d", tc.v, tc.total, tc.up, got, err, tc.want)
		}
	}
	if _, err := FromString("25").ScaledValue(10, true); err == nil {
		t.Error("a string without % must be refused")
	}
}

func TestLabelSelector(t *testing.T) {
	sel := &LabelSelector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []LabelSelectorRequirement{
		{Key: "tier", Operator: "In", Values: []string{"a", "b"}}, {Key: "canary", Operator: "DoesNotExist"}}}
	for _, tc := range []struct {
		labels map[string]string
		want   bool
	}{
		{map[string]string{"app": "web", "tier": "a"}, true},
		{map[string]string{"app": "web", "tier": "c"}, false},
		{map[string]string{"app": "web", "tier": "a", "canary": "1"}, false},
		{map[string]string{"tier": "a"}, false},
	} {
		if got := sel.Matches(tc.labels); got != tc.want {
			t.Errorf("Matches(%v) = %v", tc.labels, got)
		}
	}
	// metav1.FormatLabelSelector sorts requirements by key.
	if got := sel.String(); got != "app=web,!canary,tier in (a,b)" {
		t.Errorf("String() = %q", got)
	}
	var none *LabelSelector
	if none.Matches(map[string]string{}) {
		t.Error("a nil selector matches nothing")
	}
	if !(&LabelSelector{}).Matches(map[string]string{"x": "y"}) {
		t.Error("an empty selector matches everything")
	}
}

func TestTimeTruncatesToSeconds(t *testing.T) {
	if At(12_345).MS != 12_000 {
		t.Error("API timestamps have one-second precision")
	}
	if b, _ := (Time{}).MarshalJSON(); string(b) != "null" {
		t.Errorf("zero time marshals as %s", b)
	}
	if At(0).String() != "2025-01-01T00:00:00Z" {
		t.Errorf("epoch renders as %s", At(0))
	}
}
