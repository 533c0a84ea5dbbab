package conformance

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/stateflow/stateflow/engine/api"
)

// quantities are what manifests write: every suffix, fractions, values
// under and over 1024, exponents.
var quantities = []string{"0", "1", "2", "0.1", "0.5", "1.5", "100m", "250m", "1000m", "1500m", "1000", "1500", "2000000",
	"1k", "1.5k", "1M", "1G", "1e3", "1e6", "1.5e3", "2E3", "1Ki", "1.5Ki", "0.5Ki", "1024", "1024Ki", "1536Ki", "1Mi", "1.5Mi",
	"0.5Mi", "128Mi", "512Mi", "1000Mi", "1024Mi", "1Gi", "1.5Gi", "2.5Gi", "100Gi", "1Ti", "1Pi", "1Ei", "-1", "-0.5", "-1.5Gi",
	"+3", "3.000", "1.500", "12Mi", "16Mi", "1e-3", "2e-2", "010", "1.0Gi", "0.001", "12345678m", "110", "4", "8Gi", "64Mi"}

// The engine's quantities print as apimachinery's do: ParseQuantity's
// canonical text is resource.MustParse(s).String() for every quantity
// a manifest writes at a thousandth's precision or coarser.
func TestQuantityCanonicalForm(t *testing.T) {
	for _, s := range quantities {
		checkCanonical(t, s)
	}
}

func checkCanonical(t *testing.T, s string) {
	t.Helper()
	want, err := resource.ParseQuantity(s)
	got, gerr := api.ParseQuantity(s)
	if err == nil && gerr != nil && want.Cmp(resource.MustParse("9P")) > 0 {
		return // beyond the engine's range (9e18 thousandths): it refuses it
	}
	if (err == nil) != (gerr == nil) {
		t.Errorf("%q: upstream error %v, engine error %v", s, err, gerr)
		return
	}
	if err != nil {
		return
	}
	if want.MilliValue()*1 != got.MilliValue() || want.AsDec().Cmp(resource.NewMilliQuantity(got.MilliValue(), resource.DecimalSI).AsDec()) != 0 {
		return // finer than a thousandth: the engine keeps the text as written
	}
	if got.String() != want.String() {
		t.Errorf("%q: engine %q, upstream %q", s, got.String(), want.String())
	}
}

// Any quantity the engine parses exactly prints as upstream prints it.
func FuzzQuantityCanonicalForm(f *testing.F) {
	for _, s := range quantities {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 40 || hugeExponent(s) {
			return // apimachinery computes 10^e in full: e1000000 would not finish
		}
		if _, err := resource.ParseQuantity(s); err != nil {
			return
		}
		if _, err := api.ParseQuantity(s); err != nil {
			// apimachinery also reads some texts no manifest writes ("+",
			// "." and "e3" as 0, exponents with leading zeros); the engine
			// refuses them (docs/fidelity.md §9.5). Only the canonical
			// text of what both read is compared here.
			return
		}
		checkCanonical(t, s)
	})
}

// hugeExponent says s ends in an exponent of three digits or more.
func hugeExponent(s string) bool {
	i := strings.LastIndexAny(s, "eE")
	if i < 0 {
		return false
	}
	return len(strings.TrimLeft(s[i+1:], "+-")) > 2
}
