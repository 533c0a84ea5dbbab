package e2e

import (
	"strings"
	"testing"
)

// flowBox is the text of a flow node of kind and name ("" if not drawn).
func flowBox(tb *tab, kind, name, what string) string {
	return eval[string](tb, `(() => { const g = document.querySelector('[data-testid=flow-node][data-kind=`+kind+`][data-name=`+js(name)+`]'); return g ? g.`+what+` : '' })()`)
}

// A learner steps the job-backoff example: job/pi's box counts its
// failures, its failed pods read Error · exit 1, and at the end the box
// is red with BackoffLimitExceeded while job/ok is Complete; kubectl get
// jobs in the console agrees.
func TestJobBackoffOnPage(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("job-backoff")
	failed := false
	for i := 0; i < 200 && !failed; i++ {
		tb.click("step")
		failed = strings.Contains(flowBox(tb, "Job", "pi", "textContent"), "1 failed")
	}
	if !failed {
		t.Fatalf("200 steps and job/pi never counted a failure; it reads %q", flowBox(tb, "Job", "pi", "textContent"))
	}
	if n := eval[int](tb, `[...document.querySelectorAll('[data-testid=flow-node][data-kind=Pod]')].filter(g => g.textContent.includes('Error') && g.textContent.includes('exit 1')).length`); n < 1 {
		t.Error("no pod box reads Error · exit 1 after a failure")
	}
	tb.click("run")
	tb.waitFor(sel("run")+`.getAttribute('aria-pressed') === 'false'`, "the run to end")
	if pi := flowBox(tb, "Job", "pi", "textContent"); !strings.Contains(pi, "Failed: BackoffLimitExceeded") || !strings.Contains(flowBox(tb, "Job", "pi", "getAttribute('class')"), "bad") {
		t.Errorf("job/pi at the end reads %q (class %q)", pi, flowBox(tb, "Job", "pi", "getAttribute('class')"))
	}
	if ok := flowBox(tb, "Job", "ok", "textContent"); !strings.Contains(ok, "Complete") {
		t.Errorf("job/ok at the end reads %q", ok)
	}
	tb.click("tab-console")
	tb.setValue("console-input", "kubectl get jobs")
	eval[bool](tb, `document.querySelector('.prompt-line').requestSubmit(), true`)
	tb.waitFor(sel("console-output")+".textContent.includes('COMPLETIONS')", "kubectl get jobs")
	if out := tb.text("console-output"); !strings.Contains(out, "Failed") || !strings.Contains(out, "Complete") {
		t.Errorf("kubectl get jobs:\n%s", out)
	}
}

// A learner steps the hpa-load-spike example until the autoscaler acts:
// its box sits beside the Deployment with the metric against the target,
// its syncs draw the metrics it reads as arrows up into it (the story
// view folds the metrics-server's scrapes), and its first rescale asks
// for 4 replicas.
func TestHPALoopOnPage(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("hpa-load-spike")
	for i := 0; i < 10 && flowBox(tb, "HorizontalPodAutoscaler", "web", "textContent") == ""; i++ {
		tb.click("step")
	}
	if h := flowBox(tb, "HorizontalPodAutoscaler", "web", "textContent"); !strings.Contains(h, "cpu: <unknown>/50%") {
		t.Errorf("before any metrics the HPA reads %q", h)
	}
	metrics, rescaled := false, false
	for i := 0; i < 400 && !rescaled; i++ {
		tb.click("step")
		labels := eval[string](tb, `[...document.querySelectorAll('[data-testid=effect]')].map(a => a.textContent).join('|')`)
		metrics = metrics || strings.Contains(labels, "metrics")
		rescaled = strings.Contains(flowBox(tb, "HorizontalPodAutoscaler", "web", "textContent"), "→ 4")
	}
	if !rescaled {
		t.Fatalf("400 steps and hpa/web never asked for 4 replicas; it reads %q", flowBox(tb, "HorizontalPodAutoscaler", "web", "textContent"))
	}
	if !metrics {
		t.Error("no metrics arrow was drawn before the rescale")
	}
	if h := flowBox(tb, "HorizontalPodAutoscaler", "web", "textContent"); !strings.Contains(h, "cpu: 300%/50%") {
		t.Errorf("at the rescale the HPA reads %q, want cpu: 300%%/50%%", h)
	}
	if log := tb.text("tick-log"); !strings.Contains(log, "2 → 4 replicas") {
		t.Errorf("the tick log does not tell the rescale:\n%s", log)
	}
}
