package kubectl_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// Every row has a cell per column, with -o wide and without, for every
// object of every printed kind in every example, at 30 s (before a
// story's last actions delete what it made) and once it has settled: the
// printers' column definitions and row functions agree.
func TestEveryRowFitsItsColumns(t *testing.T) {
	seen := map[string]int{}
	for _, path := range testkit.Examples(t, "../examples") {
		e, _ := testkit.LoadFile(t, path)
		e.RunUntil(30_000)
		checkRows(t, filepath.Base(path), e, seen)
		if err := e.RunUntilSettled(engine.SettleLimits{MaxTicks: 20_000}); err != nil && !errors.As(err, new(*engine.NotSettledError)) {
			t.Fatalf("%s: %v", filepath.Base(path), err)
		}
		checkRows(t, filepath.Base(path), e, seen)
	}
	for _, kind := range kubectl.PrintedKinds() {
		if seen[kind] == 0 {
			t.Errorf("no example has a %s: its printer is not checked", kind)
		}
	}
}

// checkRows checks every printed object of e, counting them by kind.
func checkRows(t *testing.T, name string, e *engine.Engine, seen map[string]int) {
	t.Helper()
	for _, kind := range kubectl.PrintedKinds() {
		for _, o := range e.Store().List(kind, "") {
			seen[kind]++
			for _, wide := range []bool{false, true} {
				h, r := kubectl.Columns(kind, wide), kubectl.Row(o, wide, e.Now())
				if len(h) != len(r) {
					t.Fatalf("%s: %s %s (wide %v): %d columns %q, %d cells %q", name, kind, o.Meta().Name, wide, len(h), h, len(r), r)
				}
			}
		}
	}
}
