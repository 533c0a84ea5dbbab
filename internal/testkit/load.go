package testkit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/scenario"
)

// Load parses a scenario and builds its engine, with opts applied to the
// scenario's engine configuration first (sc.Config is what the engine was
// built from). It fails the test if the scenario does not parse or the
// engine cannot be built. The engine keeps every tick's pod versions,
// which tests read back from the trace, unless PrunePodVersions says
// otherwise.
func Load(t testing.TB, src []byte, opts ...func(*engine.Config)) (*engine.Engine, *scenario.Scenario) {
	t.Helper()
	sc, err := scenario.Parse(src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	sc.Config.KeepPodVersions = true
	for _, opt := range opts {
		opt(&sc.Config)
	}
	e, err := engine.New(sc.Config)
	if err != nil {
		t.Fatalf("engine: %v", err)
	}
	return e, sc
}

// LoadFile is Load of the scenario file at path.
func LoadFile(t testing.TB, path string, opts ...func(*engine.Config)) (*engine.Engine, *scenario.Scenario) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Load(t, src, opts...)
}

// CheckpointEvery is an option of Load that sets the checkpoint spacing.
func CheckpointEvery(n int) func(*engine.Config) {
	return func(c *engine.Config) { c.CheckpointEvery = n }
}

// MaxTraceTicks is an option of Load that bounds the trace (negative:
// keep every tick).
func MaxTraceTicks(n int) func(*engine.Config) {
	return func(c *engine.Config) { c.MaxTraceTicks = n }
}

// PrunePodVersions is an option of Load that lets old ticks drop their
// pod versions, as the playground's engine does (engine.Config's
// KeepPodVersions).
func PrunePodVersions(c *engine.Config) { c.KeepPodVersions = false }

// Examples lists the scenario files (*.yaml) in dir, and fails the test
// if there are none.
func Examples(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	return files
}
