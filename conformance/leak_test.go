package conformance

import (
	"runtime"
	"testing"

	"github.com/stateflow/stateflow/examples"
)

// Replaying must not leave goroutines behind (work queues, event
// broadcasters): a long run would grow without bound.
func TestNoGoroutineLeak(t *testing.T) {
	for _, name := range []string{"rolling-update", "service-endpoints", "daemonset", "statefulset"} {
		ex, _ := examples.Get(name)
		run(t, []byte(ex.Source), 60_000)
		runtime.GC()
		before := runtime.NumGoroutine()
		run(t, []byte(ex.Source), 60_000)
		runtime.GC()
		if after := runtime.NumGoroutine(); after > before+20 {
			t.Fatalf("%s: %d goroutines before the second run, %d after", name, before, after)
		}
	}
}
