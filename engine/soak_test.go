package engine_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples/manifest"
	"github.com/stateflow/stateflow/internal/testkit"
)

// soakScenario never settles: readiness flaps, a container crash-loops, and
// node-2 goes NotReady for a minute every five minutes, for hours.
func soakScenario(hours int) []byte {
	var actions strings.Builder
	for t := 5; t < hours*60; t += 5 {
		fmt.Fprintf(&actions, "    - {at: %dm, node: node-2, condition: NotReady}\n    - {at: %dm, node: node-2, condition: Ready}\n", t, t+1)
	}
	flappy := manifest.Deployment{Name: "flappy", Replicas: 6, Container: "web", Image: "flappy:1", Lines: manifest.ReadinessEvery5s}
	crashy := manifest.Deployment{Name: "crashy", Replicas: 2, Container: "worker", Image: "crashy:1"}
	return []byte(flappy.YAML() + "---\n" + crashy.YAML() + `---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  nodes: {count: 3}
  images:
    "flappy:1": {pull: 1s, start: 1s, ready: 2s, flap: {up: 40s, down: 15s}}
    "crashy:1": {pull: 1s, start: 1s, exitAfter: 20s, exitCode: 1}
  actions:
` + actions.String())
}

// TestSoak runs 48 hours of virtual time of a scenario that never settles
// and reports the heap and the cost per tick every 12 hours. It is slow,
// so it runs only with STATEFLOW_SOAK=1 (make bench). It checks that
// Events expire and the trace stays bounded; the figures go to
// BENCHMARKS.md and docs/benchmarks-history.md.
func TestSoak(t *testing.T) {
	if os.Getenv("STATEFLOW_SOAK") == "" {
		t.Skip("set STATEFLOW_SOAK=1 (make bench) to run 48 hours of virtual time")
	}
	e, _ := testkit.Load(t, soakScenario(48))
	const hour = int64(3_600_000)
	var firstHour time.Duration
	var firstTicks int
	for h := int64(1); h <= 48; h++ {
		ticks := e.Tick()
		start := time.Now()
		e.RunUntil(h * hour)
		took := time.Since(start)
		if h == 1 {
			firstHour, firstTicks = took, e.Tick()-ticks
		}
		if h == 1 || h%12 == 0 {
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			events := len(e.Store().List(api.KindEvent, ""))
			t.Logf("hour %2d: tick %7d, %6d ticks this hour, %5.1f µs/tick, heap in use %4d MiB, %4d Events stored, trace %7d ticks from tick %d",
				h, e.Tick(), e.Tick()-ticks, float64(took.Microseconds())/float64(max(1, e.Tick()-ticks)), ms.HeapInuse>>20, events, len(e.Trace()), e.FirstTick())
			if events > 5000 {
				t.Errorf("hour %d: %d Events stored; they should expire after an hour", h, events)
			}
			if n := len(e.Trace()); n > engine.DefaultMaxTraceTicks*5/4 {
				t.Errorf("hour %d: the trace holds %d ticks; it should be bounded", h, n)
			}
		}
	}
	t.Logf("first hour %v for %d ticks", firstHour, firstTicks)
}
