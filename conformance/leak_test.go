package conformance

import (
	"runtime"
	"testing"

	"github.com/stateflow/stateflow/examples"
)

// Replaying must not leave goroutines behind (work queues, event
// broadcasters): a long run would grow without bound.
func TestNoGoroutineLeak(t *testing.T) {
	ex, _ := examples.Get("rolling-update")
	run(t, []byte(ex.Source), 60_000)
	runtime.GC()
	before := runtime.NumGoroutine()
	run(t, []byte(ex.Source), 60_000)
	runtime.GC()
	if after := runtime.NumGoroutine(); after > before+20 {
		t.Fatalf("%d goroutines before the second run, %d after", before, after)
	}
}
