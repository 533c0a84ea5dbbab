package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A visitor loads the page, picks an example, steps five ticks and sees
// the tick counter, the highlighted effect and the diagram follow.
func TestStepThroughAnExample(t *testing.T) {
	tb := newTab(t)
	cold := tb.open(shared.url)
	t.Logf("navigation to first interaction (cold): %v", cold)
	if got := tb.tick(); got != "0" {
		t.Fatalf("tick %q at load", got)
	}
	tb.chooseExample("rolling-update")
	if got := eval[string](tb, sel("story")+".getAttribute('aria-pressed')"); got != "true" {
		t.Fatalf("the page opens in the story view (aria-pressed %s)", got)
	}
	// In the story view each press of Step shows one change: the tick it
	// lands on wrote to the API server (it draws an effect), and the ticks
	// it passed over are folded into one quiet row.
	last := 0
	for i := 0; i < 5; i++ {
		tb.click("step")
		tick := atoi(t, tb.tick())
		if tick <= last {
			t.Fatalf("step %d went from tick %d to %d", i+1, last, tick)
		}
		if !strings.HasPrefix(tb.text("tick-caption"), fmt.Sprintf("Tick %d:", tick)) {
			t.Errorf("caption %q at tick %d", tb.text("tick-caption"), tick)
		}
		if n := eval[int](tb, `document.querySelectorAll('[data-testid=effect]').length`); n == 0 {
			t.Errorf("story step %d landed on tick %d, which draws no effect", i+1, tick)
		}
		last = tick
	}
	rows := eval[int](tb, `document.querySelectorAll('[data-testid=tick-log] > li:not(.fold)').length`)
	folds := eval[int](tb, `document.querySelectorAll('[data-testid=tick-log] > li.fold').length`)
	if rows != 5 || last > 5 && folds == 0 {
		t.Errorf("after five story steps to tick %d the log shows %d rows and %d folds", last, rows, folds)
	}
	tb.click("story")
	tb.click("step")
	if got := atoi(t, tb.tick()); got != last+1 {
		t.Fatalf("with every tick shown, Step went from tick %d to %d", last, got)
	}
	if clock := tb.text("clock"); !strings.HasSuffix(clock, "s") {
		t.Errorf("clock %q", clock)
	}
	tb.click("reset")
	tb.click("next-translate")
	for tb.text("tick-caption") == "" || !strings.Contains(tb.text("tick-caption"), "replicaset-controller") {
		tb.click("next-translate")
	}
	kinds := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=flow] [data-testid=flow-node]')].map(n => n.dataset.kind)`)
	count := map[string]int{}
	for _, k := range kinds {
		count[k]++
	}
	if count["Deployment"] != 1 || count["ReplicaSet"] != 1 || count["Pod"] != 4 || count["Node"] != 3 {
		t.Errorf("diagram nodes %v after the ReplicaSet controller created the pods", count)
	}
	highlighted := eval[int](tb, `document.querySelectorAll('[data-testid=flow-node][data-highlight]:not([data-highlight=""])').length`)
	effects := eval[int](tb, `document.querySelectorAll('[data-testid=effect]').length`)
	if highlighted < 4 || effects < 4 {
		t.Errorf("the pods created by this tick are not highlighted: %d nodes, %d arrows", highlighted, effects)
	}
	if got := eval[int](tb, `document.querySelectorAll('[data-testid=effect][data-class=translate]').length`); got != 4 {
		t.Errorf("%d translate arrows, want 4 (one per created pod)", got)
	}
	before := tb.tick()
	tb.click("step-back")
	want := fmt.Sprint(atoi(t, before) - 1)
	tb.waitFor(sel("tick")+".textContent.trim() === "+js(want), "step back to tick "+want)
	warm := tb.open(shared.url)
	t.Logf("navigation to first interaction (warm): %v", warm)
}

// Play runs on its own; pause stops it.
func TestAutoplayAndPause(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("codartium-api")
	tb.setValue("speed", "30")
	tb.click("play")
	if pressed := eval[string](tb, sel("play")+".getAttribute('aria-pressed')"); pressed != "true" {
		t.Fatalf("aria-pressed %q while playing", pressed)
	}
	tb.waitFor(sel("tick")+".textContent.trim() >= 10 || +"+sel("tick")+".textContent >= 10", "autoplay to advance")
	tb.click("play")
	// Autoplay renders the page too, so the render click waits for may be
	// a step's: wait for the pause itself.
	if !tb.poll(sel("play") + ".getAttribute('aria-pressed') === 'false'") {
		t.Fatalf("aria-pressed %q after pause", eval[string](tb, sel("play")+".getAttribute('aria-pressed')"))
	}
	stopped := tb.tick()
	time.Sleep(400 * time.Millisecond)
	tb.settle()
	if got := tb.tick(); got != stopped {
		t.Fatalf("paused at %s but the tick moved to %s", stopped, got)
	}
}

// An invalid edit shows its error at its line and the old simulation
// keeps running.
func TestInvalidEditKeepsTheSimulation(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("codartium-api")
	tb.click("step")
	tb.click("step")
	src := eval[string](tb, sel("editor")+".value")
	tb.setValue("editor", strings.Replace(src, "replicas: 3", "replicas: -3", 1))
	tb.click("apply")
	problems := tb.text("problems")
	if !strings.Contains(problems, "line 22:13: spec.replicas: Invalid value: -3: must be greater than or equal to 0") || !strings.Contains(problems, "previous scenario keeps running") {
		t.Fatalf("problems: %q", problems)
	}
	if marked := eval[string](tb, `document.querySelector('.cm-lineNumbers .cm-ln-error') && document.querySelector('.cm-lineNumbers .cm-ln-error').textContent`); marked != "22" {
		t.Errorf("line-number mark on line %q, want 22", marked)
	}
	if got := tb.tick(); got != "2" {
		t.Fatalf("the old simulation must keep its tick: %q", got)
	}
	// The story view's Step passes over the retries that change nothing,
	// to the next tick that does.
	tb.click("step")
	if !tb.poll("+" + sel("tick") + ".textContent > 2") {
		t.Fatalf("the old simulation keeps running: %q", tb.tick())
	}
}

// The console runs kubectl against the cluster at the current tick.
func TestConsole(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("codartium-api")
	tb.click("step") // tick 1 applies the manifest
	tb.click("tab-console")
	tb.setValue("console-input", "kubectl rollout status deployment/codartium-api --timeout=90s")
	eval[bool](tb, `document.querySelector('.prompt-line').requestSubmit(), true`)
	tb.waitFor(sel("console-output")+".textContent.includes('deployment \"codartium-api\" successfully rolled out')", "rollout status to finish")
	if out := tb.text("console-output"); !strings.Contains(out, "Waiting for deployment \"codartium-api\" rollout to finish: 0 of 3 updated replicas are available...") {
		t.Errorf("rollout status prints the §9.1 lines as the simulation advances:\n%s", out)
	}
	if tick := tb.tick(); tick == "1" {
		t.Error("rollout status advances the simulation")
	}
	tb.setValue("console-input", "kubectl get deployment codartium-api -o jsonpath='{.status.availableReplicas}'")
	eval[bool](tb, `document.querySelector('.prompt-line').requestSubmit(), true`)
	tb.waitFor(sel("console-output")+".textContent.includes(\"jsonpath='{.status.availableReplicas}'\\n3\")", "the jsonpath answer")
}

// Share puts the scenario and the tick in the link; another tab opening it
// finds the same scenario at the same tick.
func TestShareLink(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("recreate")
	for i := 0; i < 7; i++ {
		tb.click("step")
	}
	tb.click("story") // every tick from now on: the link carries it too
	tb.click("step")
	at := tb.tick()
	tb.click("share")
	tb.waitFor(`location.hash.startsWith('#s=')`, "the link in the address bar")
	link := eval[string](tb, `location.href`)
	tb.waitFor(sel("share-notice"), "the share notice")
	src := eval[string](tb, sel("editor")+".value")
	other := newTab(t)
	other.open(link)
	if got := other.tick(); got != at {
		t.Fatalf("the shared link opens at tick %q, want %s", got, at)
	}
	if got := eval[string](other, sel("story")+".getAttribute('aria-pressed')"); got != "false" {
		t.Fatalf("the link was shared showing every tick; it opens with the story view pressed=%s", got)
	}
	if got := eval[string](other, sel("editor")+".value"); got != src {
		t.Fatal("the shared link carries the scenario")
	}
	broken := newTab(t)
	broken.open(shared.url + "#s=" + strings.Repeat("A", 20))
	if banner := eval[string](broken, `document.querySelector('.banner.warn') ? document.querySelector('.banner.warn').textContent : ''`); !strings.Contains(banner, "could not be opened") {
		t.Fatalf("a broken link shows a message: %q", banner)
	}
	if got := eval[string](broken, sel("examples")+".value"); got != "codartium-api" {
		t.Errorf("a broken link opens the default example, got %q", got)
	}
}

// The editor's content survives a reload.
func TestReloadKeepsTheEditor(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("scale-up-down")
	edited := eval[string](tb, sel("editor")+".value") + "\n# my note\n"
	tb.setValue("editor", edited)
	tb.open(shared.url)
	if got := eval[string](tb, sel("editor")+".value"); got != edited {
		t.Fatalf("after a reload the editor holds %.80q…", got)
	}
	eval[bool](tb, `localStorage.removeItem('stateflow.editor'), true`)
}

// Clicking a problem puts the caret on its line, also after the problems
// changed (a handler must not act on what its element showed before).
func TestProblemLinksFollowTheirLine(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("codartium-api")
	src := eval[string](tb, sel("editor")+".value")
	caretLine := func() int {
		return eval[int](tb, `(() => { const e = `+sel("editor")+`; return e.value.slice(0, e.selectionStart).split('\n').length })()`)
	}
	clickProblem := func() {
		eval[bool](tb, `document.querySelector('.problems li.error button').click(), true`)
		tb.settle()
	}
	tb.setValue("editor", strings.Replace(src, "replicas: 3", "replicas: -3", 1))
	tb.click("apply")
	clickProblem()
	if got := caretLine(); got != 22 {
		t.Fatalf("first problem: caret on line %d, want 22", got)
	}
	lines := strings.Split(src, "\n")
	target := 0
	for i, l := range lines {
		if strings.Contains(l, "containerPort: 8080") {
			target = i + 1
			lines[i] = strings.Replace(l, "8080", "80800", 1)
			break
		}
	}
	tb.setValue("editor", strings.Join(lines, "\n"))
	tb.click("apply")
	if problems := tb.text("problems"); !strings.Contains(problems, fmt.Sprintf("line %d:", target)) {
		t.Fatalf("problems %q do not name line %d", problems, target)
	}
	clickProblem()
	if got := caretLine(); got != target {
		t.Fatalf("second problem: caret on line %d, want %d", got, target)
	}
}

// Clicking a box in the diagram inspects the object it shows now, also
// when the box first showed another pod (a rolling update replaced it).
func TestFlowBoxSelectsWhatItShows(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("rolling-update")
	firstPod := func() string {
		return eval[string](tb, `(() => { const g = document.querySelector('[data-testid=flow-node][data-kind=Pod]'); return g ? g.dataset.name : '' })()`)
	}
	for i := 0; i < 200 && firstPod() == ""; i++ {
		tb.click("step")
	}
	before := firstPod()
	for i := 0; i < 400 && firstPod() == before; i++ {
		tb.click("step")
	}
	now := firstPod()
	if now == before {
		t.Fatalf("the first pod box still shows %s", before)
	}
	eval[bool](tb, `document.querySelector('[data-testid=flow-node][data-kind=Pod]').dispatchEvent(new MouseEvent('click', {bubbles: true}))`)
	shown := `document.querySelector('[data-testid=inspect-object]').selectedOptions[0].textContent`
	if !tb.poll(shown + ".endsWith(" + js(now) + ")") {
		t.Fatalf("clicked the box of %s (it showed %s before), the inspector shows %q", now, before, eval[string](tb, shown))
	}
}

// Clicking a row of the tick log goes to the tick the row shows, also
// after a filter changed which rows are shown.
func TestLogRowGoesToItsTick(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("codartium-api")
	for range 25 {
		tb.click("step")
	}
	firstRow := `document.querySelector('[data-testid=tick-log] li')`
	before := eval[string](tb, firstRow+".dataset.tick") // the row's handler was set for this tick
	tb.setValue("log-component", "scheduler")
	want := eval[string](tb, firstRow+".dataset.tick")
	eval[bool](tb, firstRow+".click(), true")
	tb.poll(sel("tick") + ".textContent.trim() === " + js(want))
	if got := tb.tick(); got != want || want == before {
		t.Fatalf("clicked the row of tick %s (it showed tick %s before the filter), the page is at tick %s", want, before, got)
	}
}
