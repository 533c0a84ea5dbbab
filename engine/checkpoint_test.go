package engine_test

import (
	"bytes"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
)

// TestStepBacksAfterASeekAreCheap goes back, in a settled 300-pod run, to
// the tick farthest after a checkpoint (the slowest seek the run allows)
// and steps back once, then checks what a learner stepping
// back from there relies on: going back k more ticks replays at most
// max(2·CheckpointEvery, k) ticks, not the whole distance to the old
// checkpoint again. The first seek back plans nothing (it costs what it
// did). The oracle is
// ReplayTicks's count from the checkpoints the engine keeps, against that
// bound; stepping back then lands where a run that never went back lands.
func TestStepBacksAfterASeekAreCheap(t *testing.T) {
	const every = 32
	e, _ := testkit.Load(t, []byte(examples.Scale(300)), testkit.CheckpointEvery(every))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	ref, _ := testkit.Load(t, []byte(examples.Scale(300)), testkit.CheckpointEvery(every), testkit.MaxTraceTicks(-1))
	if err := ref.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	n := worstSeek(e)
	d := e.ReplayTicks(n)
	if d < 8*every {
		t.Fatalf("the slowest seek replays only %d ticks: too few to show the plan", d)
	}
	e.Seek(n)
	if got := e.ReplayTicks(n - 1); got != d-1 {
		t.Fatalf("a first seek back planned checkpoints: a step back replays %d ticks, want %d", got, d-1)
	}
	e.StepBack() // the second seek back from the same checkpoint plans them
	n--
	for k := 1; k < d-1; k++ {
		if got, bound := e.ReplayTicks(n-k), max(2*every, k); got > bound {
			t.Fatalf("after stepping back to tick %d (%d ticks after a checkpoint), going back %d more replays %d ticks, more than %d", n, d-1, k, got, bound)
		}
	}
	for range 3 {
		e.StepBack()
	}
	if e.Tick() != n-3 {
		t.Fatalf("three step backs from %d land on %d", n, e.Tick())
	}
	if got, want := e.Trace()[len(e.Trace())-1].Text(), ref.Trace()[n-4].Text(); got != want {
		t.Fatalf("tick %d after stepping back:\n%s\nin a run that never went back:\n%s", n-3, got, want)
	}
	if e.Store().ResourceVersion() != storeRVAt(t, ref, n-3) {
		t.Fatalf("resourceVersion %d after stepping back to %d differs from the run that never went back", e.Store().ResourceVersion(), n-3)
	}
}

// storeRVAt is the store's resourceVersion just after tick n of e.
func storeRVAt(t *testing.T, e *engine.Engine, n int) int64 {
	t.Helper()
	end := e.Tick()
	e.Seek(n)
	rv := e.Store().ResourceVersion()
	e.Seek(end)
	return rv
}

// TestStepBacksLeaveTheTraceAlone: the checkpoints planned on the way back
// must not move the regular ones, where the trace is trimmed, so a run
// that went back and stepped back, then ran on to the end, keeps exactly
// the ticks a run that never went back keeps.
func TestStepBacksLeaveTheTraceAlone(t *testing.T) {
	opts := []func(*engine.Config){testkit.CheckpointEvery(32), testkit.MaxTraceTicks(1000)}
	straight, _ := testkit.Load(t, []byte(examples.Scale(300)), opts...)
	walked, _ := testkit.Load(t, []byte(examples.Scale(300)), opts...)
	for _, e := range []*engine.Engine{straight, walked} {
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
	}
	end := walked.Tick()
	n := worstSeek(walked)
	walked.Seek(n)
	walked.StepBack()
	walked.StepBack()
	if len(walked.CheckpointTicks()) <= len(straight.CheckpointTicks()) {
		t.Fatalf("stepping back planned no checkpoint: %v", walked.CheckpointTicks())
	}
	setImage(straight, "default", "web", "web:2")
	walked.Seek(end)
	setImage(walked, "default", "web", "web:2")
	for _, e := range []*engine.Engine{straight, walked} {
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
	}
	if walked.Tick() != straight.Tick() || walked.FirstTick() != straight.FirstTick() || len(walked.Trace()) != len(straight.Trace()) {
		t.Fatalf("after stepping back, the run ends at tick %d keeping %d ticks from %d; without, at %d keeping %d from %d",
			walked.Tick(), len(walked.Trace()), walked.FirstTick(), straight.Tick(), len(straight.Trace()), straight.FirstTick())
	}
}

// A checkpoint keeps its pending watch events without the Versions after
// them and rebuilds those when it is restored: the components that
// receive them after a seek back must see exactly what they saw the
// first time. Every example, with checkpoints every few ticks (so many
// are taken with deliveries on their way, slow watches included), seeks
// back to several ticks and runs on: the trace and the final state are
// those of a straight run.
func TestRestoredDeliveriesSeeWhatTheySaw(t *testing.T) {
	for _, path := range testkit.Examples(t, "../examples") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			straight, _ := testkit.LoadFile(t, path)
			if err := straight.RunUntilSettled(engine.SettleLimits{}); err != nil && !errors.As(err, new(*engine.NotSettledError)) {
				t.Fatal(err)
			}
			want, n := traceJSON(t, straight.Trace()), straight.Tick()
			// The same ticks by Seek, which stops at tick n where the run
			// until settled may have moved the clock on.
			straight, _ = testkit.LoadFile(t, path)
			straight.Seek(n)
			for _, back := range []int{n / 4, n / 2, 3 * n / 4, n - 2} {
				e, _ := testkit.LoadFile(t, path, testkit.CheckpointEvery(3))
				e.Seek(n)
				e.Seek(back)
				e.Seek(n)
				if got := traceJSON(t, e.Trace()); !bytes.Equal(got, want) {
					t.Fatalf("seek back to %d of %d: the replayed trace differs", back, n)
				}
				if fingerprint(t, e) != fingerprint(t, straight) {
					t.Fatalf("seek back to %d of %d: the final state differs", back, n)
				}
			}
		})
	}
}
