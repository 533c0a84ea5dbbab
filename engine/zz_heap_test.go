package engine_test

import (
	"os"
	"runtime"
	"runtime/pprof"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
)

func TestZZHeap(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	e, _ := testkit.Load(t, []byte(examples.Scale(10000)))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	f, _ := os.Create("/tmp/heap.out")
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	t.Logf("ticks %d heap %d MiB, checkpoints?", e.Tick(), ms.HeapAlloc>>20)
	runtime.KeepAlive(e)
}
