package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
)

// A learner runs the default example, asks in the inspector why the
// Deployment has 3 available replicas, reads the story (newest cause
// first, back to kubectl apply), sees the objects numbered on the
// diagram, and follows a step's link to its tick. On a laptop and a
// phone: nothing overlaps, nothing is under 12 px, axe-core is clean.
func TestWhyInTheInspector(t *testing.T) {
	src := axeSource(t)
	for _, s := range []screen{screens[0], screens[2]} {
		t.Run(s.name, func(t *testing.T) {
			tb := newTab(t)
			tb.resize(s)
			tb.open(shared.url)
			tb.chooseExample("codartium-api") // an earlier test may have left another
			tb.click("run")
			tb.waitFor(sel("run")+".getAttribute('aria-pressed') === 'false'", "the run to settle")
			settled := atoi(t, tb.tick())
			// A click on the Deployment's box opens it in the inspector (on
			// a phone, in the details pane).
			tb.clickElement(`document.querySelector('[data-testid=flow-node][data-kind=Deployment]')`)
			if got := eval[string](tb, sel("inspect-object")+".value"); got != "Deployment/codartium-team/codartium-api" {
				t.Fatalf("the inspector shows %q", got)
			}
			tb.setValue("why-field", "status.availableReplicas")
			tb.click("why-ask")
			tb.waitFor(`!!`+sel("why"), "the answer")
			if !eval[bool](tb, sel("why")+".offsetParent !== null") {
				t.Fatal("the answer is not shown")
			}
			if h := eval[string](tb, sel("why")+".querySelector('h3').textContent"); h != "Why is status.availableReplicas = 3?" {
				t.Errorf("the answer's heading reads %q", h)
			}
			steps := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=why-step]')].map(s => s.querySelector('.why-actor').textContent + ' | ' + s.querySelector('.why-text').textContent)`)
			want := []string{"↑ deployment-controller | deploy/codartium-api: summarised its ReplicaSets: 3/3 ready",
				"↑ replicaset-controller | rs/codartium-api-", "● kubelet(3 nodes) | pod/codartium-api-",
				"● kubelet(3 nodes) |", "● kubelet(3 nodes) |", "● kubelet(3 nodes) |", "⇣ scheduler(", "↓ replicaset-controller |",
				"↓ deployment-controller |", "↓ kubectl | kubectl apply -f: deployment.apps/codartium-api created"}
			if len(steps) != len(want) {
				t.Fatalf("%d steps, want %d:\n%s", len(steps), len(want), strings.Join(steps, "\n"))
			}
			for i, w := range want {
				if !strings.HasPrefix(steps[i], w) && !strings.HasPrefix(steps[i], strings.TrimSuffix(w, "(")) {
					t.Errorf("step %d reads %q, want it to begin %q", i+1, steps[i], w)
				}
			}
			if eval[string](tb, `document.querySelector('[data-testid=why-step]:last-child').dataset.user`) != "true" {
				t.Error("the last step is not marked as the user's action")
			}
			// The diagram numbers the chain's objects: the Deployment 1,
			// its ReplicaSet 2, each pod 3 (its newest step).
			marks := eval[map[string]string](tb, `Object.fromEntries([...document.querySelectorAll('[data-testid=flow-node]')].filter(g => g.dataset.why !== '0').map(g => [g.dataset.kind + '/' + g.dataset.name, g.dataset.why]))`)
			byKind := map[string][]string{}
			for k, n := range marks {
				kind := strings.SplitN(k, "/", 2)[0]
				byKind[kind] = append(byKind[kind], n)
			}
			if strings.Join(byKind["Deployment"], ",") != "1" || strings.Join(byKind["ReplicaSet"], ",") != "2" || strings.Join(byKind["Pod"], ",") != "3,3,3" {
				t.Errorf("the diagram numbers %v", marks)
			}
			// The box says its step: the component that acted, for a screen
			// reader and a tooltip.
			if title := eval[string](tb, `document.querySelector('[data-testid=flow-node][data-kind=Deployment] title').textContent`); !strings.Contains(title, "step 1 of the why chain: #") || !strings.Contains(title, "↑ deployment-controller: deploy/codartium-api: summarised") {
				t.Errorf("the Deployment's box is named %q", title)
			}
			// The diagram draws the path: a leg into each step from its
			// causes, named by the step's number and component (1 and 9
			// between the Deployment and its ReplicaSet, up and down), and
			// the user's apply coming in from above.
			// (On a phone the diagram is a pane of its own.)
			if s.phone {
				tb.click("view-flow")
			}
			legs := eval[[]string](tb, `[...new Set([...document.querySelectorAll('[data-testid=why-link]')].map(g => g.dataset.step + ' ' + g.dataset.component))]`)
			if strings.Join(legs, ",") != "1 deployment-controller,2 replicaset-controller,8 replicaset-controller,9 deployment-controller,10 kubectl" {
				t.Errorf("the path's legs: %v", legs)
			}
			if eval[int](tb, `[...document.querySelectorAll('[data-testid=why-link] .why-link-label')].filter(l => l.getBoundingClientRect().width > 0).length`) == 0 {
				t.Error("no leg of the path is labelled")
			}
			if probs := append(eval[[]string](tb, layoutProblems), eval[[]string](tb, legibility(12))...); len(probs) > 0 {
				t.Errorf("the diagram with the answer open: %v", probs)
			}
			if s.phone {
				tb.artifact("why-phone-diagram.png")
				tb.click("view-details")
				tb.click("tab-inspector")
			}
			if probs := eval[[]string](tb, layoutProblems); len(probs) > 0 {
				t.Errorf("layout with the answer open: %v", probs)
			}
			small := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=why] *')].filter(e => e.childElementCount === 0 && e.textContent.trim() && e.offsetParent !== null && parseFloat(getComputedStyle(e).fontSize) < 12).map(e => e.textContent.trim().slice(0, 30))`)
			if len(small) > 0 {
				t.Errorf("answer text under 12 px: %v", small)
			}
			if v := tb.axe(src); len(v) > 0 {
				t.Errorf("axe-core with the answer open: %v", v)
			}
			tb.artifact("why-" + s.name + ".png")
			// Another field of the menu: the button asks about it, even
			// clicked before the page has redrawn it.
			eval[bool](tb, `(() => { const s = `+sel("why-field")+`; s.value = 'status.updatedReplicas'; s.dispatchEvent(new Event('change', {bubbles: true})); `+sel("why-ask")+`.click(); return true })()`)
			tb.settle()
			heading := sel("why") + ".querySelector('h3').textContent"
			if !tb.poll(heading + " === 'Why is status.updatedReplicas = 3?'") {
				t.Errorf("after choosing status.updatedReplicas the answer's heading reads %q", eval[string](tb, heading))
			}
			// A step's link goes to its tick; the answer stays.
			link := `document.querySelectorAll('[data-testid=why-tick]')[2]`
			tick := eval[string](tb, link+".dataset.tick")
			tb.clickElement(link)
			tb.waitFor(sel("tick")+".textContent.trim() === "+js(tick), "the step's tick")
			if n, _ := strconv.Atoi(tick); n >= settled || n < 1 {
				t.Errorf("the third step's tick %d is not before the settled tick %d", n, settled)
			}
			if !eval[bool](tb, `!!`+sel("why")) {
				t.Error("the answer closed when its step's tick was shown")
			}
			tb.click("why-close")
			if eval[bool](tb, `!!`+sel("why")) || eval[int](tb, `document.querySelectorAll('[data-testid=flow-node]:not([data-why="0"]), [data-testid=why-link]').length`) != 0 {
				t.Error("closing the answer leaves it, its numbers or its path")
			}
			// The caption over the diagram asks why its tick did what it
			// says: the inspector shows the object the tick wrote, with
			// the chain from that tick back to the user's action.
			if s.phone {
				tb.click("view-flow")
			}
			tb.click("tick-caption-why")
			tb.waitFor(`!!`+sel("why"), "the caption's answer")
			if h := eval[string](tb, sel("why")+".querySelector('h3').textContent"); !strings.HasPrefix(h, "Why did tick "+tick+" write ") {
				t.Errorf("the caption's answer is headed %q", h)
			}
			if eval[string](tb, `document.querySelector('[data-testid=why-step]:last-child').dataset.user`) != "true" || eval[string](tb, `document.querySelector('[data-testid=why-tick]').dataset.tick`) != tick {
				t.Error("the caption's answer does not run from its tick to the user's action")
			}
		})
	}
}

// A reader of an embedded scenario asks the caption why its tick did
// what it says: the answer opens under the caption (the embed has no
// inspector), the diagram numbers the objects and draws the path, a
// step's link goes to its tick, and Close gives the room back. In an
// 800×520 and a 360×600 frame: nothing overlaps or leaves the frame,
// nothing is under 11 px, axe-core is clean.
func TestWhyInTheEmbedCaption(t *testing.T) {
	src := axeSource(t)
	ex, _ := examples.Get(examples.Default)
	for _, size := range [][2]int{{800, 520}, {360, 600}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			host, f := openFrame(t, hostPage(t, iframe(embedURL(share.State{Scenario: ex.Source, Tick: 8, EveryTick: true}), size[0], size[1])))
			f.click("embed-caption-why")
			f.waitFor(`!!`+sel("why"), "the answer")
			if h := eval[string](f, sel("why")+".querySelector('h3').textContent"); !strings.HasPrefix(h, "Why did tick 8 write ") {
				t.Errorf("the answer is headed %q", h)
			}
			steps := eval[[]string](f, `[...document.querySelectorAll('[data-testid=why-step] .why-actor')].map(a => a.textContent)`)
			if strings.Join(steps, ",") != "↓ replicaset-controller,↓ deployment-controller,↓ kubectl" {
				t.Errorf("the steps: %v", steps)
			}
			legs := eval[[]string](f, `[...new Set([...document.querySelectorAll('[data-testid=why-link]')].map(g => g.dataset.step + ' ' + g.dataset.component))]`)
			if strings.Join(legs, ",") != "1 replicaset-controller,2 deployment-controller,3 kubectl" {
				t.Errorf("the path's legs: %v", legs)
			}
			check := func(state string) {
				t.Helper()
				f.settle()
				if p := append(append(eval[[]string](f, layoutProblems), eval[[]string](f, embedProblems)...), eval[[]string](f, legibility(11))...); len(p) > 0 {
					t.Errorf("%s: %s", state, strings.Join(p, "\n  "))
				}
				if v := f.axe(src); len(v) > 0 {
					t.Errorf("%s: axe-core reports %v", state, v)
				}
			}
			// A wide frame shows the answer beside the diagram; a narrow
			// one in its place, with a tab back to the diagram.
			narrow := size[0] < 600
			if shown := eval[bool](f, sel("flow-pane")+".offsetParent !== null"); shown == narrow {
				t.Errorf("the diagram is shown %v beside the answer", shown)
			}
			check("the answer open")
			host.artifact(fmt.Sprintf("why-embed-%dx%d.png", size[0], size[1]))
			if narrow {
				f.click("embed-view-flow")
				check("the diagram with the answer open")
				host.artifact(fmt.Sprintf("why-embed-%dx%d-diagram.png", size[0], size[1]))
				f.click("embed-view-why")
			}
			link := `document.querySelectorAll('[data-testid=why-tick]')[1]`
			tick := eval[string](f, link+".dataset.tick")
			f.clickElement(link)
			f.waitFor(sel("tick")+".textContent.trim() === "+js(tick), "the step's tick")
			if !eval[bool](f, `!!`+sel("why")) {
				t.Error("the answer closed when its step's tick was shown")
			}
			f.click("why-close")
			if eval[bool](f, `!!`+sel("why")+` || !!document.querySelector('[data-testid=why-link]')`) {
				t.Error("closing the answer leaves it or its path")
			}
		})
	}
}

// artifact saves a screenshot of the page in testdata/artifacts, for a
// person to look at.
func (tb *tab) artifact(name string) {
	tb.t.Helper()
	img, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Fatal(err)
	}
	dir := filepath.Join(repoRoot(), "testdata", "artifacts")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), img, 0o644); err != nil {
		tb.t.Fatal(err)
	}
}

// A lesson step asks why a field has its value: the learner answers and
// the feedback shows the chain, newest cause first; Show me goes back to
// the write, before the step.
func TestWhyInALesson(t *testing.T) {
	o := newOracle(t, "node-failure")
	tb := newTab(t)
	tb.resize(screens[0])
	tb.forgetLessons()
	tb.open(shared.url)
	tb.openLesson("node-failure")
	n := -1
	for i, st := range o.steps {
		if st.Question != nil && st.Question.Chain != nil {
			n = i
			break
		}
	}
	if n < 0 {
		t.Fatal("the node-failure lesson asks no why-writer question")
	}
	for i := 0; i < n; i++ {
		tb.click("lesson-next")
		tb.lessonAt(i + 2)
	}
	q := o.steps[n].Question
	wrong := (q.Answer + 1) % len(q.Choices)
	tb.choose(wrong)
	lines := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=lesson-why] li')].map(l => l.textContent)`)
	if len(lines) != len(q.Chain.Steps) || len(lines) == 0 || !strings.Contains(lines[0], q.Choices[q.Answer]) {
		t.Fatalf("the feedback's chain %q; the answer is %s", lines, q.Choices[q.Answer])
	}
	if !eval[bool](tb, inView(`[data-testid=lesson-why]`)) {
		t.Error("the chain is not in view after answering")
	}
	tb.click("lesson-show-me")
	tb.waitTick(q.Proof)
	if q.Proof > o.steps[n].Tick {
		t.Errorf("Show me went to tick %d, after the step's tick %d", q.Proof, o.steps[n].Tick)
	}
}
