package model

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/examples"
)

func example(t *testing.T, name string) *Model {
	t.Helper()
	ex, ok := examples.Get(name)
	if !ok {
		t.Fatalf("no example %s", name)
	}
	m, err := New(ex.Source)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A run until settled says the cluster settled at its last change, and
// names the later work that changed nothing; the status bar carries the
// clock of that change.
func TestSettledMeansTheLastChange(t *testing.T) {
	m := seed(t)
	m.RunUntilSettled()
	want := "Settled at 10.650 s (tick 39). Later work, like the deployment controller's progress-deadline re-check of deploy/codartium-api at 601.000 s, changes nothing."
	if m.Notice != want {
		t.Fatalf("notice %q\nwant   %q", m.Notice, want)
	}
	st := m.Status()
	if !st.Settled || st.SettledAt != "10.650s" || st.SettledTick != 39 || st.Clock != "601.000s" || st.NeverSettles != "" {
		t.Fatalf("status %+v", st)
	}
	if m.Step() || m.Notice != "Settled: nothing is left to do; the last change was at 10.650 s (tick 39)." {
		t.Fatalf("a step at the end: %q", m.Notice)
	}
	m.Seek(39)
	if st := m.Status(); st.Settled || st.SettledAt != "" || m.Notice != "" {
		t.Fatalf("at tick 39 work is still scheduled: %+v %q", st, m.Notice)
	}
	// Run from the last change: nothing changes after it, so there is
	// later work but the settle time is the same.
	m.RunUntilSettled()
	if m.Notice != want {
		t.Fatalf("from tick 39: %q", m.Notice)
	}
}

// A run that never settles leads with a sentence naming what keeps the
// cluster busy, and the status bar carries it until the next tick.
func TestNeverSettlesNamesTheCause(t *testing.T) {
	for name, want := range map[string]string{
		"crash-loop":         "Never settles: pod api-7755f686bf-rkh4q crashes and restarts (CrashLoopBackOff, back-off 5m0s, 16 restarts)",
		"image-pull-failure": "Never settles: pod web-fddbd9fd-4b7q2 cannot pull example/web:v2 (ImagePullBackOff); deploy/web's rollout stopped at its progress deadline (ProgressDeadlineExceeded)",
	} {
		m := example(t, name)
		m.RunUntilSettled()
		if !strings.HasPrefix(m.Notice, want+". Not settled after ") {
			t.Errorf("%s: notice %q\nwant it to begin %q", name, m.Notice, want)
		}
		if st := m.Status(); st.NeverSettles != want || st.Settled || st.SettledAt != "" {
			t.Errorf("%s: status %+v", name, st)
		}
		m.Step()
		if st := m.Status(); st.NeverSettles != "" || m.Notice != "" {
			t.Errorf("%s: after a step the sentence is gone until the next run: %+v %q", name, st, m.Notice)
		}
	}
}

// A console command clears a Notice that may no longer hold.
func TestConsoleClearsAStaleNotice(t *testing.T) {
	m := seed(t)
	m.RunUntilSettled()
	if !strings.HasPrefix(m.Notice, "Settled at ") {
		t.Fatalf("notice %q", m.Notice)
	}
	m.Run("kubectl scale deployment codartium-api --replicas=5")
	if m.Notice != "" {
		t.Fatalf("after scaling, the notice still says %q", m.Notice)
	}
	m.RunUntilSettled()
	m.Run("kubectl get pods")
	if m.Notice != "" {
		t.Fatalf("after a get, the notice still says %q", m.Notice)
	}
	m.RunUntilSettled()
	m.SeekSome(3, 1)
	if m.Notice != "" {
		t.Fatalf("after a seek in slices, the notice still says %q", m.Notice)
	}
}

// A large cluster's run until settled is not cut at MaxRunTicks: its
// bound grows with the objects it holds. The rolling update of 8,000 pods
// takes more ticks than MaxRunTicks and settles in one run, as the page's
// large examples need; a small cluster that never settles still stops
// (TestNeverSettlesNamesTheCause).
func TestALargeClustersRunIsNotCutShort(t *testing.T) {
	t.Parallel()
	m, err := New(examples.Scale(8000))
	if err != nil {
		t.Fatal(err)
	}
	m.Step()
	m.RunUntilSettled()
	if !strings.HasPrefix(m.Notice, "Settled at ") {
		t.Fatalf("creating 8,000 pods: %q", m.Notice)
	}
	if e := m.Run("kubectl set image deployment/web web=web:2"); e.Failed {
		t.Fatalf("set image: %+v", e)
	}
	from := m.Status().Tick
	m.RunUntilSettled()
	ticks := m.Status().Tick - from
	if !strings.HasPrefix(m.Notice, "Settled at ") || ticks <= MaxRunTicks {
		t.Fatalf("the rolling update ran %d ticks (MaxRunTicks %d) and says %q", ticks, MaxRunTicks, m.Notice)
	}
}
