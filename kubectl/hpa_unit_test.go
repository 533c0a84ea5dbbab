package kubectl

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// Quantities print as apimachinery's resource.Quantity prints them once
// parsed (the pairs were checked against k8s.io/apimachinery v0.34.4).
func TestQuantityString(t *testing.T) {
	for in, want := range map[string]string{
		"8192Ki": "8Mi", "123456Ki": "123456Ki", "8388608000": "8388608k", "1000m": "1", "1500m": "1500m", "0.5": "500m",
		"512Mi": "512Mi", "1024": "1024", "1Ki": "1Ki", "2e3": "2e3", "1536Mi": "1536Mi", "1.5Gi": "1536Mi", "0.5Ki": "512",
		"109051904": "109051904", "557056Ki": "544Mi", "1": "1", "100m": "100m", "2000": "2k", "1E6": "1E6", "12e-1": "1200e-3",
		"-2Ki": "-2Ki", "1023Ki": "1023Ki", "2048": "2048", "0": "0", "0Mi": "0",
	} {
		q := api.MustQuantity(in)
		if got := quantityString(&q); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	if got := quantityString(nil); got != "<nil>" {
		t.Errorf("nil: %s", got)
	}
	// Add keeps the format of the first addend added to zero.
	for _, tc := range []struct {
		in   []string
		want string
	}{{[]string{"98304Ki", "8192Ki"}, "104Mi"}, {[]string{"150m", "1m"}, "151m"}, {[]string{"0", "2048Ki"}, "2Mi"}, {nil, "0"}} {
		var qs []api.Quantity
		for _, s := range tc.in {
			qs = append(qs, api.MustQuantity(s))
		}
		if got := quantitySum(qs); got != tc.want {
			t.Errorf("sum %v: %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TARGETS shows each Resource metric's current value over its target,
// "<unknown>" before the status has one, at most two then "+ N more...".
func TestFormatHPAMetrics(t *testing.T) {
	util := func(res string, pct int32) api.MetricSpec {
		return api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: res,
			Target: api.MetricTarget{Type: api.UtilizationMetricType, AverageUtilization: api.Int32(pct)}}}
	}
	avg := func(res, v string) api.MetricSpec {
		q := api.MustQuantity(v)
		return api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: res,
			Target: api.MetricTarget{Type: api.AverageValueMetricType, AverageValue: &q}}}
	}
	cur := func(res string, pct int32, v string) api.MetricStatus {
		q := api.MustQuantity(v)
		st := api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: res, Current: api.MetricValueStatus{AverageValue: &q}}}
		if pct >= 0 {
			st.Resource.Current.AverageUtilization = api.Int32(pct)
		}
		return st
	}
	auto := util("cpu", 0)
	auto.Resource.Target.AverageUtilization = nil
	for _, tc := range []struct {
		specs    []api.MetricSpec
		statuses []api.MetricStatus
		want     string
	}{
		{nil, nil, "<none>"},
		{[]api.MetricSpec{util("cpu", 50)}, nil, "cpu: <unknown>/50%"},
		{[]api.MetricSpec{util("cpu", 50)}, []api.MetricStatus{{}}, "cpu: <unknown>/50%"},
		{[]api.MetricSpec{util("cpu", 50)}, []api.MetricStatus{cur("cpu", 90, "450m")}, "cpu: 90%/50%"},
		{[]api.MetricSpec{avg("memory", "200Mi")}, []api.MetricStatus{cur("memory", -1, "125829120")}, "memory: 125829120/200Mi"},
		{[]api.MetricSpec{avg("memory", "0.2Gi")}, []api.MetricStatus{cur("memory", -1, "8192Ki")}, "memory: 8Mi/214748364800m"},
		{[]api.MetricSpec{auto}, nil, "cpu: <unknown>/<auto>"},
		{[]api.MetricSpec{{Type: "Pods"}}, nil, "<unknown type>"},
		{[]api.MetricSpec{util("cpu", 50), avg("memory", "200Mi"), util("memory", 70)},
			[]api.MetricStatus{cur("cpu", 90, "450m")}, "cpu: 90%/50%, memory: <unknown>/200Mi + 1 more..."},
	} {
		if got := formatHPAMetrics(tc.specs, tc.statuses); got != tc.want {
			t.Errorf("%s: got %s", tc.want, got)
		}
	}
}

// top's tabwriter pads every column, the last too, to its widest cell
// plus three spaces, and at least six.
func TestTopTable(t *testing.T) {
	got := topTable([][]string{{"NAME", "A"}, {"x", "1m"}})
	if want := "NAME   A     \nx      1m    \n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if strings.Count(got, "\n") != 2 {
		t.Errorf("lines: %q", got)
	}
}
