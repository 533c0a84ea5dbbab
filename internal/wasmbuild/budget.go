package wasmbuild

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

// Budget is the most app.wasm may weigh, compressed.
type Budget struct {
	Gzip, Brotli int
}

// budgetLine is how BENCHMARKS.md writes the budget, in its targets
// table: "app.wasm size budget: gzip ≤ 3,900,000 B, brotli ≤ 2,600,000 B".
var budgetLine = regexp.MustCompile(`app\.wasm size budget: gzip ≤ ([0-9,]+) B, brotli ≤ ([0-9,]+) B`)

// ReadBudget finds the budget in the file at path (BENCHMARKS.md).
func ReadBudget(path string) (Budget, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Budget{}, err
	}
	return parseBudget(string(b), path)
}

func parseBudget(text, path string) (Budget, error) {
	all := budgetLine.FindAllStringSubmatch(text, -1)
	switch len(all) {
	case 0:
		return Budget{}, fmt.Errorf("%s: no line %q", path, "app.wasm size budget: gzip ≤ N B, brotli ≤ N B")
	case 1:
	default:
		return Budget{}, fmt.Errorf("%s: %d size budgets; keep one", path, len(all))
	}
	gz, err := strconv.Atoi(strings.ReplaceAll(all[0][1], ",", ""))
	if err != nil {
		return Budget{}, fmt.Errorf("%s: the gzip budget: %w", path, err)
	}
	br, err := strconv.Atoi(strings.ReplaceAll(all[0][2], ",", ""))
	if err != nil {
		return Budget{}, fmt.Errorf("%s: the brotli budget: %w", path, err)
	}
	return Budget{Gzip: gz, Brotli: br}, nil
}

// Check says how s exceeds the budget, or nil.
func (b Budget) Check(s Sizes) error {
	var over []string
	if s.Gzip > b.Gzip {
		over = append(over, fmt.Sprintf("gzip %d B is %d over its budget of %d", s.Gzip, s.Gzip-b.Gzip, b.Gzip))
	}
	if s.Brotli > b.Brotli {
		over = append(over, fmt.Sprintf("brotli %d B is %d over its budget of %d", s.Brotli, s.Brotli-b.Brotli, b.Brotli))
	}
	if over == nil {
		return nil
	}
	return fmt.Errorf("app.wasm: %s; cut bytes (make size says where they go) or raise the budget in BENCHMARKS.md saying what the growth buys", strings.Join(over, "; "))
}
