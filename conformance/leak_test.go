package conformance

import (
	"runtime"
	"testing"

	"github.com/stateflow/stateflow/examples"
)

// Replaying must not leave goroutines behind (work queues, event
// broadcasters): a long run would grow without bound.
func TestNoGoroutineLeak(t *testing.T) {
	sources := map[string]string{
		"job":     jobScenario("  completions: 3\n  parallelism: 2\n  ttlSecondsAfterFinished: 5\n", "Never", "example/pi:v1", "    []\n"),
		"cronjob": cronJobScenario("*/1 * * * *", "", "example/pi:v1", "    []\n"),
		"pdb":     pdbCase{replicas: 3, pdb: "  minAvailable: 2\n", actions: drain("20s", "node-1")}.scenario(),
	}
	for _, name := range []string{"rolling-update", "service-endpoints", "daemonset", "statefulset"} {
		ex, _ := examples.Get(name)
		sources[name] = ex.Source
	}
	for name, src := range sources {
		run(t, []byte(src), 60_000)
		runtime.GC()
		before := runtime.NumGoroutine()
		run(t, []byte(src), 60_000)
		runtime.GC()
		if after := runtime.NumGoroutine(); after > before+20 {
			t.Fatalf("%s: %d goroutines before the second run, %d after", name, before, after)
		}
	}
}
