package engine_test

import (
	"reflect"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
)

// pruneRun is a 1,000-pod Deployment created and rolled out to settled
// (about 10,000 ticks, so most of them end more than PodVersionTicks
// before the end), by an engine that prunes its pod versions and by one
// that keeps them all: the oracle.
func pruneRun(t *testing.T) (pruned, ref *engine.Engine) {
	t.Helper()
	src := []byte(examples.Scale(1000))
	pruned, _ = testkit.Load(t, src, testkit.PrunePodVersions)
	ref, _ = testkit.Load(t, src)
	for _, e := range []*engine.Engine{pruned, ref} {
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
		setImage(e, "default", "web", "web:2")
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
	}
	if pruned.Tick() != ref.Tick() || pruned.Tick() < 2*engine.PodVersionTicks {
		t.Fatalf("the runs took %d and %d ticks; want the same, at least %d", pruned.Tick(), ref.Tick(), 2*engine.PodVersionTicks)
	}
	return pruned, ref
}

// TestPrunedTicksKeepAllButPodVersions checks which ticks drop their pod
// versions and what they keep: every tick that ended more than
// PodVersionTicks ago and wrote a pod, except a checkpoint's, is Pruned;
// the latest PodVersionTicks are whole; a pruned tick differs from the
// same tick of a run that keeps everything only in its pods' objects.
func TestPrunedTicksKeepAllButPodVersions(t *testing.T) {
	e, ref := pruneRun(t)
	checkpoint := map[int]bool{}
	for _, n := range e.CheckpointTicks() {
		checkpoint[n] = true
	}
	end, pruned := e.Tick(), 0
	for i, tk := range e.Trace() {
		want := ref.Trace()[i]
		old := tk.Seq <= end-engine.PodVersionTicks && !checkpoint[tk.Seq]
		if wantPruned := old && writesPod(want); tk.Pruned != wantPruned {
			t.Fatalf("tick %d (%d before the end, checkpoint %v) Pruned %v, want %v", tk.Seq, end-tk.Seq, checkpoint[tk.Seq], tk.Pruned, wantPruned)
		}
		if !tk.Pruned {
			if !reflect.DeepEqual(tk, want) {
				t.Fatalf("tick %d is not pruned but differs from the run that keeps every version", tk.Seq)
			}
			continue
		}
		pruned++
		if got, want := withoutPods(want), tk; !reflect.DeepEqual(got, want) {
			t.Fatalf("pruned tick %d differs from the kept one in more than its pods' objects", tk.Seq)
		}
		for j := range tk.Effects {
			if got, want := tk.Effects[j].Text(), want.Effects[j].Text(); got != want {
				t.Fatalf("pruned tick %d effect %d reads %q, want %q", tk.Seq, j, got, want)
			}
		}
	}
	if pruned < end/2 {
		t.Fatalf("only %d of %d ticks were pruned", pruned, end)
	}
}

// TestFullTickRebuildsAPrunedTick rebuilds pruned ticks by replay (the
// first and last pruned ones, those right after a checkpoint and a sample
// between) and compares each with the same tick of the run that keeps
// every version; the engine does not move, and its run goes on exactly as
// the reference's after a seek back.
func TestFullTickRebuildsAPrunedTick(t *testing.T) {
	e, ref := pruneRun(t)
	var picks []int
	for i, tk := range e.Trace() {
		if tk.Pruned && (len(picks) == 0 || i%397 == 0 || !e.Trace()[i-1].Pruned) {
			picks = append(picks, tk.Seq)
		}
	}
	for i := len(e.Trace()) - 1; i >= 0; i-- {
		if e.Trace()[i].Pruned {
			picks = append(picks, e.Trace()[i].Seq)
			break
		}
	}
	if len(picks) < 10 {
		t.Fatalf("only %d pruned ticks to rebuild", len(picks))
	}
	end, rv := e.Tick(), e.Store().ResourceVersion()
	for _, n := range picks {
		got, want := e.FullTick(n), ref.Trace()[n-1]
		if got == nil || got.Pruned || !reflect.DeepEqual(got, want) {
			t.Fatalf("FullTick(%d) differs from the tick a run that keeps every version took:\n%+v\nwant\n%+v", n, got, want)
		}
	}
	if e.Tick() != end || e.Store().ResourceVersion() != rv {
		t.Fatalf("FullTick moved the engine from tick %d (rv %d) to %d (rv %d)", end, rv, e.Tick(), e.Store().ResourceVersion())
	}
	if e.FullTick(end+1) != nil || e.FullTick(0) != nil {
		t.Fatal("FullTick of a tick not taken is not nil")
	}
	// A seek back into the pruned ticks makes the tick it lands on whole.
	n := picks[len(picks)/2]
	e.Seek(n)
	if cur := e.Trace()[len(e.Trace())-1]; cur.Seq != n || !reflect.DeepEqual(cur, ref.Trace()[n-1]) {
		t.Fatalf("after a seek back to tick %d the current tick is not the whole tick", n)
	}
	e.Seek(end)
	if fingerprint(t, e) != fingerprint(t, ref) {
		t.Fatal("after rebuilding ticks and seeking back, the run ends elsewhere than the reference")
	}
}

// writesPod reports whether a tick has an effect on a Pod.
func writesPod(t *trace.Tick) bool {
	for _, ef := range t.Effects {
		if ef.Object.Kind == api.KindPod {
			return true
		}
	}
	return false
}

// withoutPods is a copy of t as pruning leaves it: its effects on Pods
// without their objects, marked Pruned.
func withoutPods(t *trace.Tick) *trace.Tick {
	c := *t
	c.Effects = append([]trace.Effect(nil), t.Effects...)
	for i := range c.Effects {
		if c.Effects[i].Object.Kind == api.KindPod {
			c.Effects[i].Before, c.Effects[i].After = nil, nil
			c.Pruned = true
		}
	}
	return &c
}
