package model

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
)

func settledModel(t *testing.T, name string) *Model {
	t.Helper()
	m := example(t, name)
	m.RunUntilSettled()
	return m
}

// The story covers every tick exactly once, in order: a tick that wrote
// to the API server (but a metrics-server scrape), reprogrammed a node's
// rules, reports failed requests or printed a command's output (kubectl
// drain) is a row of its own; the ticks
// between two of them, and only those, are folded. The oracle is the
// trace itself.
func TestStoryCoversEveryTickOnce(t *testing.T) {
	for _, ex := range examples.All() {
		m := settledModel(t, ex.Name)
		tr := m.Engine().Trace()
		spans := m.Story(LogFilter{}, false)
		next := 0
		for _, s := range spans {
			if s.From != next || s.To < s.From {
				t.Fatalf("%s: span %+v after tick index %d", ex.Name, s, next-1)
			}
			for i := s.From; i <= s.To; i++ {
				changed := len(tr[i].Effects) > 0 && tr[i].Component != "metrics-server" || len(tr[i].Rules()) > 0 || tr[i].Traffic() != nil && tr[i].Traffic().Failed > 0 || tr[i].Output() != ""
				if changed == s.Folded {
					t.Fatalf("%s: tick %d (effects %d) in a span folded=%v", ex.Name, tr[i].Seq, len(tr[i].Effects), s.Folded)
				}
			}
			if !s.Folded && s.To != s.From {
				t.Fatalf("%s: an unfolded span holds %d ticks", ex.Name, s.To-s.From+1)
			}
			next = s.To + 1
		}
		if next != len(tr) {
			t.Fatalf("%s: the story ends at tick index %d of %d", ex.Name, next, len(tr))
		}
		if every := m.Story(LogFilter{}, true); len(every) != len(tr) {
			t.Fatalf("%s: every tick shows %d rows for %d ticks", ex.Name, len(every), len(tr))
		}
	}
}

// The default example's happy path is not red: no row of its rollout is an
// alert, and its retries are folded into rows that say why.
func TestHappyPathIsNotRed(t *testing.T) {
	m := settledModel(t, "codartium-api")
	spans := m.Story(LogFilter{}, false)
	retries := 0
	for _, s := range spans {
		e := m.Entry(s, LogFilter{})
		if e.Fold == nil {
			if e.Row.Tone == ToneAlert {
				t.Errorf("tick %d is red: %s", e.Row.Seq, e.Row.Explanation)
			}
			continue
		}
		if e.Fold.Retries > 0 {
			retries++
			if !strings.Contains(e.Fold.Text, "deployment-controller retried") || !strings.Contains(e.Fold.Text, "eventual consistency") ||
				!strings.Contains(e.Fold.Text, "100 ms late") {
				t.Errorf("fold of ticks %d–%d: %q", e.Fold.First, e.Fold.Last, e.Fold.Text)
			}
		}
		if len(e.Fold.Rows) != e.Fold.Ticks || e.Fold.Last-e.Fold.First+1 != e.Fold.Ticks {
			t.Errorf("fold %d–%d holds %d rows for %d ticks", e.Fold.First, e.Fold.Last, len(e.Fold.Rows), e.Fold.Ticks)
		}
	}
	if retries == 0 {
		t.Fatal("the default example's conflict retries are not folded")
	}
}

// What a user must act on is red: a pull that fails, a crash loop, a pod
// that cannot be scheduled, a rollout past its deadline.
func TestAlertsAreRed(t *testing.T) {
	for name, want := range map[string]string{"image-pull-failure": "Failed", "crash-loop": "BackOff", "insufficient-cpu": "FailedScheduling", "progress-deadline": "ProgressDeadlineExceeded"} {
		m := settledModel(t, name)
		found := false
		for _, tk := range m.Engine().Trace() {
			if ToneOf(tk) != ToneAlert {
				continue
			}
			for _, e := range tk.Effects {
				if strings.Contains(e.Text(), want) || e.After != nil && strings.Contains(compact(e.After), want) {
					found = true
				}
			}
		}
		if !found {
			t.Errorf("%s: no red row for %s", name, want)
		}
	}
}

// One story step takes the visible change after the current tick: the
// same tick stepping one at a time reaches first with an effect.
func TestStepVisibleStopsAtTheNextChange(t *testing.T) {
	story, oracle := example(t, "rolling-update"), example(t, "rolling-update")
	for range 40 {
		if !story.StepVisible() {
			break
		}
		var want *trace.Tick
		for oracle.Step() {
			if tk := oracle.Current(); len(tk.Effects) > 0 {
				want = tk
				break
			}
		}
		got := story.Current()
		if want == nil || got.Seq != want.Seq {
			t.Fatalf("story step reached tick %d, the first change after the last is %v", got.Seq, want)
		}
		if story.Status().Tick != got.Seq {
			t.Fatal("the tick counter counts every tick")
		}
		if prev := story.PrevVisible(); prev >= got.Seq {
			t.Fatalf("step back from %d goes to %d", got.Seq, prev)
		}
	}
}

// At the end a story step takes no tick and says so, so autoplay stops.
func TestStepVisibleAtTheEnd(t *testing.T) {
	m := settledModel(t, "codartium-api")
	tick := m.Status().Tick
	if m.StepVisible() || m.Status().Tick != tick {
		t.Fatalf("a story step on a settled cluster reports a step (tick %d → %d)", tick, m.Status().Tick)
	}
	if !strings.HasPrefix(m.Notice, "Settled: nothing is left to do") {
		t.Fatalf("notice %q", m.Notice)
	}
}
