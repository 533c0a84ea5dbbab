package wasmbuild

import (
	"strings"
	"testing"
)

func TestParseBudget(t *testing.T) {
	for _, tc := range []struct {
		text    string
		want    Budget
		wantErr string
	}{
		{"| x | app.wasm size budget: gzip ≤ 3,900,000 B, brotli ≤ 2,700,000 B | no |", Budget{3900000, 2700000}, ""},
		{"no budget here", Budget{}, "no line"},
		{"app.wasm size budget: gzip ≤ 1 B, brotli ≤ 2 B\napp.wasm size budget: gzip ≤ 1 B, brotli ≤ 2 B", Budget{}, "2 size budgets"},
	} {
		got, err := parseBudget(tc.text, "BENCHMARKS.md")
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("parseBudget(%q) error %v, want one saying %q", tc.text, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("parseBudget(%q) = %+v, %v; want %+v", tc.text, got, err, tc.want)
		}
	}
}

func TestBudgetCheck(t *testing.T) {
	b := Budget{Gzip: 100, Brotli: 80}
	if err := b.Check(Sizes{Raw: 500, Gzip: 100, Brotli: 80}); err != nil {
		t.Errorf("sizes at the budget: %v", err)
	}
	err := b.Check(Sizes{Raw: 500, Gzip: 101, Brotli: 90})
	if err == nil || !strings.Contains(err.Error(), "gzip 101 B is 1 over") || !strings.Contains(err.Error(), "brotli 90 B is 10 over") {
		t.Errorf("sizes over the budget: %v", err)
	}
}
