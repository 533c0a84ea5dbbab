package engine_test

import (
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/internal/testkit"
)

// With MaxTraceTicks set, a long run keeps between MaxTraceTicks and one
// checkpoint spacing more ticks (here CheckpointEvery, 256), starting at
// a checkpoint; seeking before the first
// kept tick lands on it; and every kept tick replays exactly as in a run
// that kept everything.
func TestTraceIsBounded(t *testing.T) {
	const limit = 1000
	b, _ := testkit.Load(t, soakScenario(2), testkit.MaxTraceTicks(limit))
	f, _ := testkit.Load(t, soakScenario(2), testkit.MaxTraceTicks(-1))
	b.RunUntil(2 * 3_600_000)
	f.RunUntil(2 * 3_600_000)
	tr := b.Trace()
	if b.FirstTick() == 0 || len(tr) < limit || len(tr) > limit+engine.DefaultCheckpointEvery {
		t.Fatalf("%d ticks kept from tick %d of %d", len(tr), b.FirstTick(), b.Tick())
	}
	if tr[0].Seq != b.FirstTick()+1 || tr[len(tr)-1].Seq != b.Tick() {
		t.Fatalf("the trace holds ticks %d…%d, want %d…%d", tr[0].Seq, tr[len(tr)-1].Seq, b.FirstTick()+1, b.Tick())
	}
	if len(f.Trace()) != f.Tick() || f.FirstTick() != 0 {
		t.Fatalf("a negative limit keeps everything: %d of %d", len(f.Trace()), f.Tick())
	}
	end := b.Tick()
	b.Seek(0)
	if b.Tick() != b.FirstTick() {
		t.Fatalf("seeking to 0 lands on tick %d, want the first kept tick %d", b.Tick(), b.FirstTick())
	}
	mid := b.FirstTick() + limit/2
	b.Seek(mid)
	f.Seek(mid)
	if got, want := b.Trace()[len(b.Trace())-1].Text(), f.Trace()[mid-1].Text(); got != want {
		t.Fatalf("tick %d differs after trimming:\n%s\n%s", mid, got, want)
	}
	if b.Store().ResourceVersion() != f.Store().ResourceVersion() {
		t.Fatalf("resourceVersion %d vs %d at tick %d", b.Store().ResourceVersion(), f.Store().ResourceVersion(), mid)
	}
	b.Seek(end)
	if b.Tick() != end {
		t.Fatalf("back to the end: tick %d, want %d", b.Tick(), end)
	}
}
