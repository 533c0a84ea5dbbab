package kubectl

import (
	"reflect"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func intOrString(v api.IntOrString) *api.IntOrString { return &v }

// printPodDisruptionBudget prints each budget as IntOrString.String()
// writes it (a percentage as written), "N/A" for one that is unset, and
// has no wide columns.
func TestPDBRow(t *testing.T) {
	created := api.At(0)
	for _, tc := range []struct {
		name     string
		min, max *api.IntOrString
		allowed  int32
		want     []string
	}{
		{"min-int", intOrString(api.FromInt(2)), nil, 1, []string{"min-int", "2", "N/A", "1", "90s"}},
		{"min-percent", intOrString(api.FromString("50%")), nil, 0, []string{"min-percent", "50%", "N/A", "0", "90s"}},
		{"max-int", nil, intOrString(api.FromInt(1)), 3, []string{"max-int", "N/A", "1", "3", "90s"}},
		{"max-percent", nil, intOrString(api.FromString("25%")), 1, []string{"max-percent", "N/A", "25%", "1", "90s"}},
		{"max-zero", nil, intOrString(api.FromInt(0)), 0, []string{"max-zero", "N/A", "0", "0", "90s"}},
		{"min-100", intOrString(api.FromString("100%")), nil, 0, []string{"min-100", "100%", "N/A", "0", "90s"}},
		{"unset", nil, nil, 4, []string{"unset", "N/A", "N/A", "4", "90s"}},
		// Validation refuses both; the printer would show both.
		{"both", intOrString(api.FromInt(1)), intOrString(api.FromString("10%")), 0, []string{"both", "1", "10%", "0", "90s"}},
	} {
		p := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: tc.name, CreationTimestamp: created},
			Spec: api.PodDisruptionBudgetSpec{MinAvailable: tc.min, MaxUnavailable: tc.max}, Status: api.PodDisruptionBudgetStatus{DisruptionsAllowed: tc.allowed}}
		for _, wide := range []bool{false, true} {
			if got := row(p, p.Name, wide, 90_000); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%s (wide %v): %q, want %q", tc.name, wide, got, tc.want)
			}
		}
	}
	if got, want := columns(api.KindPodDisruptionBudget, true), []string{"NAME", "MIN AVAILABLE", "MAX UNAVAILABLE", "ALLOWED DISRUPTIONS", "AGE"}; !reflect.DeepEqual(got, want) {
		t.Errorf("columns: %q, want %q", got, want)
	}
}

// describePodDisruptionBudgetV1: minAvailable wins over maxUnavailable,
// neither prints no line; a nil selector is "<unset>", an empty one
// "<none>"; the status lines are one tabwriter block of their own, two
// levels in.
func TestDescribePDB(t *testing.T) {
	status := api.PodDisruptionBudgetStatus{DisruptionsAllowed: 1, CurrentHealthy: 4, DesiredHealthy: 3, ExpectedPods: 4}
	for _, tc := range []struct {
		spec api.PodDisruptionBudgetSpec
		want string
	}{
		{api.PodDisruptionBudgetSpec{MaxUnavailable: intOrString(api.FromString("25%")),
			Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "api"}, MatchExpressions: []api.LabelSelectorRequirement{{Key: "tier", Operator: "NotIn", Values: []string{"cache"}}}}},
			"Name:             p\n" +
				"Namespace:        ns\n" +
				"Max unavailable:  25%\n" +
				"Selector:         app=api,tier notin (cache)\n" +
				"Status:\n" +
				"    Allowed disruptions:  1\n" +
				"    Current:              4\n" +
				"    Desired:              3\n" +
				"    Total:                4\n"},
		{api.PodDisruptionBudgetSpec{MinAvailable: intOrString(api.FromInt(3)), MaxUnavailable: intOrString(api.FromInt(1)), Selector: &api.LabelSelector{}},
			"Name:           p\n" +
				"Namespace:      ns\n" +
				"Min available:  3\n" +
				"Selector:       <none>\n" +
				"Status:\n" +
				"    Allowed disruptions:  1\n" +
				"    Current:              4\n" +
				"    Desired:              3\n" +
				"    Total:                4\n"},
		{api.PodDisruptionBudgetSpec{},
			"Name:       p\n" +
				"Namespace:  ns\n" +
				"Selector:   <unset>\n" +
				"Status:\n" +
				"    Allowed disruptions:  1\n" +
				"    Current:              4\n" +
				"    Desired:              3\n" +
				"    Total:                4\n"},
	} {
		w := newPrefixWriter()
		describePDB(w, &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "ns", Labels: map[string]string{"a": "b"}}, Spec: tc.spec, Status: status})
		if got := w.String(); got != tc.want {
			t.Errorf("describe:\n%s\nwant\n%s", got, tc.want)
		}
	}
}

// intstr.Parse, as create pdb reads --min-available and
// --max-unavailable: an int32, or the string as it is.
func TestParseIntOrString(t *testing.T) {
	for in, want := range map[string]api.IntOrString{
		"0": api.FromInt(0), "2": api.FromInt(2), "007": api.FromInt(7), "2147483647": api.FromInt(2147483647),
		"2147483648": api.FromString("2147483648"), "50%": api.FromString("50%"), "100%": api.FromString("100%"),
	} {
		if got := parseIntOrString(in); *got != want {
			t.Errorf("%s: %+v, want %+v", in, *got, want)
		}
	}
}

// policy/v1's spec.selector is patchStrategy=replace: a strategic merge
// patch replaces it whole, nulls and all, where a plain object field is
// merged; status.conditions merge by type.
func TestPDBStrategicMerge(t *testing.T) {
	orig := map[string]any{
		"spec": map[string]any{"minAvailable": 1, "selector": map[string]any{
			"matchLabels":      map[string]any{"app": "web"},
			"matchExpressions": []any{map[string]any{"key": "tier", "operator": "Exists"}},
		}},
		"status": map[string]any{"conditions": []any{
			map[string]any{"type": "DisruptionAllowed", "status": "True", "reason": "SufficientPods"},
			map[string]any{"type": "Other", "status": "False"},
		}},
	}
	patch := map[string]any{
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "api", "gone": nil}}},
		"status": map[string]any{"conditions": []any{
			map[string]any{"type": "DisruptionAllowed", "status": "False", "reason": "InsufficientPods"},
		}},
	}
	got, err := strategicMerge(orig, patch, schemaFor(api.KindPodDisruptionBudget))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"spec": map[string]any{"minAvailable": 1, "selector": map[string]any{"matchLabels": map[string]any{"app": "api", "gone": nil}}},
		"status": map[string]any{"conditions": []any{
			map[string]any{"type": "DisruptionAllowed", "status": "False", "reason": "InsufficientPods"},
			map[string]any{"type": "Other", "status": "False"},
		}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("strategic merge:\n%v\nwant\n%v", got, want)
	}
	// Without a selector, the patch's is added as it is added anywhere:
	// its nulls dropped.
	got, err = strategicMerge(map[string]any{"spec": map[string]any{}}, map[string]any{"spec": map[string]any{"selector": map[string]any{
		"matchLabels": map[string]any{"app": "api", "gone": nil}}}}, schemaFor(api.KindPodDisruptionBudget))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "api"}}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("new selector: %v, want %v", got, want)
	}
}
