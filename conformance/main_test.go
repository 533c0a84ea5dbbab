package conformance

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// TestMain silences upstream's logging (each replayed ReplicaSet
// controller re-registers its metrics and says so).
func TestMain(m *testing.M) {
	klog.SetLogger(logr.Discard())
	code := m.Run()
	fmt.Println(totals.summary())
	os.Exit(code)
}

// tally adds up the reports of a test run, for the closing summary.
type tally struct {
	scenarios   int
	checked     map[string]int
	allowed     map[string]int
	unexplained int
}

var totals = &tally{checked: map[string]int{}, allowed: map[string]int{}}

func (t *tally) add(r *Report) {
	t.scenarios++
	for c, n := range r.Checked {
		t.checked[c] += n
	}
	for _, d := range r.Differences {
		if d.Allowance == "" {
			t.unexplained++
			continue
		}
		for _, a := range strings.Split(d.Allowance, ", ") {
			t.allowed[a]++
		}
	}
}

func (t *tally) summary() string {
	return fmt.Sprintf("conformance: %d scenarios; ticks re-decided upstream: %v; allowed differences: %v; unexplained: %d",
		t.scenarios, t.checked, t.allowed, t.unexplained)
}
