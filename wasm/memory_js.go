//go:build js && wasm

package main

import (
	"runtime"
	"runtime/debug"

	"github.com/hack-pad/safejs"
)

// memoryLimit is the heap the garbage collector keeps the page under. A
// WebAssembly tab addresses at most 4 GiB, and Go's collector lets the
// heap grow to twice what is live by default: a settled 150,000-pod
// cluster keeps about 1.7 GiB live, so without a limit its heap would ask
// for more memory than the tab has. Near the limit the collector runs
// more often instead: the run takes longer, and fails only if what is
// live passes the limit. Under 2,900 MiB that run's tab stayed at 2,709
// MiB (under 3,400 it reached 3,107; under 2,800 it stayed at 2,639 but
// its step backs took seconds of collection each).
const memoryLimit = 2900 << 20

// gcPercent is the page's GOGC: the heap may grow to five times what is
// live before the collector runs, not twice. In WebAssembly the collector
// runs on the one thread the simulation runs on, so its work is the
// page's: under Node the 10,000-pod create and rollout took 28 s with
// GOGC 100, 21 s with 200, 16.8 s with 400 and 13.5 s with none. In the
// page, the 1,000-pod scenario ran to settled in 1,110 ms (median of 8)
// with 100, 985 with 200 and 807 with 400, its tab holding 32, 34 and 37
// MiB. The memory limit still bounds a large cluster's heap: near it the
// collector runs as often as it must, whatever gcPercent says.
const gcPercent = 400

// limitMemory sets the limit and the GOGC and exposes the runtime's figures to the
// page's benchmarks as stateflowMemory(): [bytes obtained from the
// browser (the tab's WebAssembly memory, nearly), bytes of the heap's
// objects, live or not yet collected].
func limitMemory() {
	debug.SetMemoryLimit(memoryLimit)
	debug.SetGCPercent(gcPercent)
	fn, err := safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return []any{float64(ms.Sys), float64(ms.HeapAlloc)}
	})
	if err != nil {
		return
	}
	_ = safejs.Global().Set("stateflowMemory", fn.Value())
}
