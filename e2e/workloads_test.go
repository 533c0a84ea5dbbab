package e2e

import (
	"strings"
	"testing"
)

// A learner opens the Service example: the Service box beside the pods
// counts its ready endpoints, and the Service whose selector has a typo is
// marked as having none; after the run (whose patch fixes the typo at
// 60s) both count the same pods, and the console answers kubectl get
// endpoints as kubectl does (only ready addresses, the target port).
func TestServiceShowsItsEndpoints(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("service-endpoints")
	box := func(name string) string {
		return eval[string](tb, `(() => { const g = document.querySelector('[data-testid=flow-node][data-kind=Service][data-name=`+js(name)+`]'); return g ? g.textContent : '' })()`)
	}
	for i := 0; i < 60 && box("web-typo") == ""; i++ {
		tb.click("step")
	}
	if typo := box("web-typo"); !strings.Contains(typo, "no endpoints") {
		t.Errorf("svc/web-typo box reads %q, want it to say it has no endpoints", typo)
	}
	tb.click("run")
	tb.waitFor(sel("run")+`.getAttribute('aria-pressed') === 'false'`, "the run to end")
	for _, name := range []string{"web", "web-typo"} {
		if b := box(name); !strings.Contains(b, "endpoints 3/3 ready") {
			t.Errorf("svc/%s box reads %q after the run, want its 3 ready endpoints counted", name, b)
		}
	}
	tb.click("tab-console")
	tb.setValue("console-input", "kubectl get endpoints")
	eval[bool](tb, `document.querySelector('.prompt-line').requestSubmit(), true`)
	tb.waitFor(sel("console-output")+".textContent.includes('web-typo')", "the endpoints table")
	out := tb.text("console-output")
	if strings.Count(out, ":8080,") < 4 || strings.Contains(out, "<none>") {
		t.Errorf("kubectl get endpoints:\n%s\nwant web's and web-typo's ready addresses on port 8080", out)
	}
}

// The StatefulSet example shows its pods in ordinal order under the set
// (reading order: they wrap into rows),
// and the console's rollout status names the pod the rollout waits for.
func TestStatefulSetInTheFlow(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("statefulset")
	for i := 0; i < 400 && eval[string](tb, `(() => { const g = document.querySelector('[data-testid=flow-node][data-kind=Pod][data-name="web-2"]'); return g ? 'y' : '' })()`) == ""; i++ {
		tb.click("step")
	}
	names := eval[string](tb, `[...document.querySelectorAll('[data-testid=flow-node][data-kind=Pod]')].map(g => g.dataset.name + '@' + Math.round(g.getBoundingClientRect().left)).join(' ')`)
	var order []string
	for _, f := range strings.Fields(names) {
		order = append(order, f)
	}
	if len(order) != 3 {
		t.Fatalf("pods drawn: %q, want web-0, web-1 and web-2", names)
	}
	if set := eval[string](tb, `(() => { const g = document.querySelector('[data-testid=flow-node][data-kind=StatefulSet][data-name=web]'); return g ? g.textContent : '' })()`); !strings.Contains(set, "ready") {
		t.Errorf("the StatefulSet box reads %q", set)
	}
	// In reading order: left to right, a row at a time.
	at := func(name string) [2]int {
		p := eval[[]int](tb, `(r => [Math.round(r.top), Math.round(r.left)])(document.querySelector('[data-testid=flow-node][data-kind=Pod][data-name=`+js(name)+`]').getBoundingClientRect())`)
		return [2]int{p[0], p[1]}
	}
	before := func(a, b [2]int) bool { return a[0] < b[0] || a[0] == b[0] && a[1] < b[1] }
	if w0, w1, w2 := at("web-0"), at("web-1"), at("web-2"); !before(w0, w1) || !before(w1, w2) {
		t.Errorf("pods at %s (top, left: %v %v %v), want web-0, web-1, web-2 in reading order", names, w0, w1, w2)
	}
	tb.click("tab-console")
	tb.setValue("console-input", "kubectl get pvc")
	eval[bool](tb, `document.querySelector('.prompt-line').requestSubmit(), true`)
	tb.waitFor(sel("console-output")+".textContent.includes('www-web-2')", "the claims table")
	if out := tb.text("console-output"); !strings.Contains(out, "www-web-0   Bound") {
		t.Errorf("kubectl get pvc:\n%s\nwant www-web-0 Bound", out)
	}
}

// The traffic example, stepped in the story view: the steps stop at the
// kube-proxy syncs and at the intervals that lost requests; the Service
// without a preStop hook is drawn red with its failed requests counted
// and the tick log says why they failed, while the one with the hook
// serves everything; the inspector lists each node's rules; the
// console's describe svc says what of the network is simulated.
func TestTrafficFailsWithoutPreStop(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("rollout-traffic")
	box := func(name, what string) string {
		return eval[string](tb, `(() => { const g = document.querySelector('[data-testid=flow-node][data-kind=Service][data-name=`+js(name)+`]'); return g ? g.`+what+` : '' })()`)
	}
	failed := false
	for i := 0; i < 300 && !failed; i++ {
		tb.click("step")
		failed = strings.Contains(box("web", "textContent"), "failed")
	}
	if !failed {
		t.Fatalf("300 story steps and svc/web never lost a request; it reads %q", box("web", "textContent"))
	}
	if cls := box("web", "getAttribute('class')"); !strings.Contains(cls, "bad") {
		t.Errorf("svc/web loses requests but its box has class %q", cls)
	}
	if p := box("web-prestop", "textContent"); strings.Contains(p, "failed") || !strings.Contains(p, "ok") {
		t.Errorf("svc/web-prestop reads %q, want its traffic all served", p)
	}
	if log := tb.text("tick-log"); !strings.Contains(log, "had got SIGTERM but the rules still listed it") && !strings.Contains(log, "still listed a pod that was gone") {
		t.Errorf("the tick log does not say why requests failed:\n%s", log)
	}
	tb.clickElement(`document.querySelector('[data-testid=flow-node][data-kind=Service][data-name=web]')`)
	tb.click("tab-inspector")
	tb.waitFor(`!!document.querySelector('[data-testid=inspect-rules]')`, "the Service's rules in the inspector")
	if rules := eval[string](tb, `document.querySelector('[data-testid=inspect-rules]').textContent`); !strings.Contains(rules, "node-1") || !strings.Contains(rules, "web-") || !strings.Contains(rules, ":8080)") {
		t.Errorf("the inspector's rules for svc/web read %q, want each node with the pods it forwards to", rules)
	}
	tb.click("tab-console")
	tb.setValue("console-input", "kubectl describe svc web")
	eval[bool](tb, `document.querySelector('.prompt-line').requestSubmit(), true`)
	tb.waitFor(sel("console-output")+".textContent.includes('Endpoints:')", "the description")
	if out := tb.text("console-output"); !strings.Contains(out, "kube-proxy rules") || !strings.Contains(out, "no DNS") {
		t.Errorf("describe svc does not say what of the network is simulated:\n%s", out)
	}
}
