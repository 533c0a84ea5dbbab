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

// limitMemory sets the limit and exposes the runtime's figures to the
// page's benchmarks as stateflowMemory(): [bytes obtained from the
// browser (the tab's WebAssembly memory, nearly), bytes of the heap's
// objects, live or not yet collected].
func limitMemory() {
	debug.SetMemoryLimit(memoryLimit)
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
