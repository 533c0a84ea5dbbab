package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
)

// "Run until settled" on a scenario that never settles runs in slices: the
// page shows the ticks it passes, answers while it runs, and the same
// button stops it where it is. The scenario is large enough that its run
// lasts far longer than the test takes to stop it (130,000 ticks; the
// 60 pods of Flapping(60) reach the run's hour of virtual time in about
// a second in the page, so Stop could come after the run was over and
// start another).
func TestRunUntilSettledCanBeStopped(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.loadScenario(longRun)
	eval[bool](tb, sel("run")+".click(), true")
	seen := map[string]bool{}
	var slowest time.Duration
	for i := 0; i < 40 && len(seen) < 4; i++ {
		start := time.Now()
		state := eval[[]string](tb, `[`+sel("tick")+`.textContent.trim(), `+sel("run")+`.getAttribute('aria-pressed')]`)
		slowest = max(slowest, time.Since(start))
		if state[1] == "true" {
			seen[state[0]] = true
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("ticks seen while running: %d; slowest answer from the page: %v", len(seen), slowest)
	if len(seen) < 4 {
		t.Fatalf("the page showed %d distinct ticks while running, want it to show progress", len(seen))
	}
	tb.click("run")
	if !tb.poll(sel("run") + ".getAttribute('aria-pressed') === 'false'") {
		t.Fatalf("aria-pressed %q after Stop", eval[string](tb, sel("run")+".getAttribute('aria-pressed')"))
	}
	stopped := tb.tick()
	notice := eval[string](tb, `document.querySelector('[data-testid=notice]').textContent`)
	if want := fmt.Sprintf("Run stopped at tick %s ", stopped); !strings.HasPrefix(notice, want) {
		t.Errorf("notice %q, want it to start with %q", notice, want)
	}
	time.Sleep(300 * time.Millisecond)
	tb.settle()
	if got := tb.tick(); got != stopped {
		t.Fatalf("stopped at %s but the tick moved to %s", stopped, got)
	}
	tb.click("step")
	if got, want := atoi(t, tb.tick()), atoi(t, stopped)+1; got != want {
		t.Errorf("after Stop, Step went to tick %d, want %d", got, want)
	}
}

// longRun never settles and its run until settled lasts: 10,000 flapping
// pods on 100 nodes, a run bounded at 130,000 ticks (14 s in the page).
var longRun = examples.FlappingOn(10_000, 100)

// On a scenario that settles, the run ends by itself and says where.
func TestRunUntilSettledEnds(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("codartium-api")
	tb.click("run")
	tb.waitFor(sel("run")+".getAttribute('aria-pressed') === 'false' && "+sel("settled")+".textContent === 'settled'", "the run to settle")
	notice := eval[string](tb, `document.querySelector('[data-testid=notice]').textContent`)
	// Settled means the last tick that changed something (the pods were
	// ready at 10.450 s, the Deployment said so at 10.650 s), not the
	// progress-deadline re-check at 601 s that changes nothing.
	if want := "Settled at 10.650 s (tick 39). Later work, like the deployment controller's progress-deadline re-check"; !strings.HasPrefix(notice, want) ||
		!strings.HasSuffix(notice, "changes nothing.") {
		t.Errorf("notice %q, want it to start with %q", notice, want)
	}
}

// A link to tick 10,000,000 of a scenario that never settles opens at
// once, says it opens at the bound, shows the ticks it passes and can be
// stopped: a link cannot freeze the page.
func TestLinkToAFarTick(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url + "#" + share.Encode(longRun, 10_000_000))
	banner := eval[string](tb, `document.querySelector('.banner.warn') ? document.querySelector('.banner.warn').textContent : ''`)
	if !strings.Contains(banner, "This link asks for tick 10000000; a link opens at most at tick 50000, so it opens there.") {
		t.Errorf("banner %q", banner)
	}
	seen := map[string]bool{}
	for i := 0; i < 40 && len(seen) < 3; i++ {
		state := eval[[]string](tb, `[`+sel("tick")+`.textContent.trim(), `+sel("run")+`.getAttribute('aria-pressed')]`)
		if state[1] == "true" {
			seen[state[0]] = true
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(seen) < 3 {
		t.Fatalf("the page showed %d distinct ticks on its way to the link's tick", len(seen))
	}
	tb.click("run")
	tb.poll(sel("run") + ".getAttribute('aria-pressed') === 'false'")
	stopped := atoi(t, tb.tick())
	if stopped >= 50000 || eval[string](tb, sel("run")+".getAttribute('aria-pressed')") != "false" {
		t.Fatalf("stopped at tick %d", stopped)
	}
}

// Seeking back on a large cluster replays thousands of ticks from the
// nearest checkpoint; the page does it in slices (the run button shows
// it and could stop it) and lands exactly on the tick asked for. The
// target is found natively: the same scenario run the same way has its
// checkpoints at the same ticks.
func TestSeekBackOnALargeClusterRunsInSlices(t *testing.T) {
	const sliceAbove = 300 // app's syncReplayTicks
	m, err := model.New(examples.Scale(2100))
	if err != nil {
		t.Fatal(err)
	}
	m.Step()
	m.RunUntilSettled()
	settled := m.Status().Tick
	target := settled - 1
	if r := m.ReplayTicks(target); r <= sliceAbove {
		target -= r + 1 // just before the last checkpoint
	}
	if r := m.ReplayTicks(target); r <= sliceAbove {
		t.Fatalf("tick %d replays only %d ticks; the test needs more than %d", target, r, sliceAbove)
	}
	tb := newTab(t)
	tb.open(shared.url)
	tb.loadScenario(examples.Scale(2100))
	eval[[]float64](tb, runTimingJS)
	if got := atoi(t, tb.tick()); got != settled {
		t.Fatalf("the page settled at tick %d, natively at %d", got, settled)
	}
	sliced := eval[bool](tb, `new Promise(done => {
		const run = document.querySelector('[data-testid=run]');
		let seen = false;
		const o = new MutationObserver(() => { seen = seen || run.getAttribute('aria-pressed') === 'true' });
		o.observe(run, {attributes: true});
		const timeline = document.querySelector('[data-testid=timeline]');
		timeline.value = `+fmt.Sprint(target)+`;
		timeline.dispatchEvent(new Event('change', {bubbles: true}));
		const check = () => {
			if (run.getAttribute('aria-pressed') === 'false' && seen) { o.disconnect(); done(true); return }
			setTimeout(check, 20);
		};
		setTimeout(check, 20);
		setTimeout(() => { o.disconnect(); done(seen) }, 60000);
	})`)
	if !sliced {
		t.Errorf("seeking back from tick %d to %d (%d ticks to replay) did not run in slices", settled, target, m.ReplayTicks(target))
	}
	if got := atoi(t, tb.tick()); got != target {
		t.Fatalf("seek from %d to %d landed on %d", settled, target, got)
	}
}
