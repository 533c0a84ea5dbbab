package e2e

import (
	"strings"
	"testing"
)

// A learner steps the pdb-drain example: the budget sits beside its
// Deployment and allows 1; at the drain, the first eviction takes that
// disruption and the second is refused: the budget's box is marked 429,
// its accessible name says so, and the story shows kubectl's refusal
// line (the API server's reason with it). In the console, kubectl drain
// on the other node runs through and prints kubectl's lines.
func TestPDBDrainOnPage(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.chooseExample("pdb-drain")
	allowed := false
	for i := 0; i < 100 && !allowed; i++ {
		tb.click("step")
		allowed = strings.Contains(flowBox(tb, "PodDisruptionBudget", "web-pdb", "textContent"), "allows 1 disruption")
	}
	if !allowed {
		t.Fatalf("100 steps and pdb/web-pdb never allowed a disruption; it reads %q", flowBox(tb, "PodDisruptionBudget", "web-pdb", "textContent"))
	}
	refused := false
	for i := 0; i < 100 && !refused; i++ {
		tb.click("step")
		refused = strings.Contains(flowBox(tb, "PodDisruptionBudget", "web-pdb", "getAttribute('class')"), "refused")
	}
	if !refused {
		t.Fatal("100 more steps and the budget never refused an eviction")
	}
	if name := flowBox(tb, "PodDisruptionBudget", "web-pdb", "querySelector('title').textContent"); !strings.Contains(name, "refused an eviction this tick") || !strings.Contains(name, "allows 0") {
		t.Errorf("the refusing budget's accessible name: %q", name)
	}
	if log := tb.text("tick-log"); !strings.Contains(log, "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.") {
		t.Errorf("the story does not show the refusal:\n%s", log)
	}
	tb.click("run")
	tb.waitFor(sel("run")+`.getAttribute('aria-pressed') === 'false'`, "the run to end")
	tb.click("tab-console")
	tb.setValue("console-input", "kubectl drain node-2 --ignore-daemonsets")
	eval[bool](tb, `document.querySelector('.prompt-line').requestSubmit(), true`)
	tb.waitFor(sel("console-output")+".textContent.includes('node/node-2 drained')", "kubectl drain node-2 to finish")
	out := tb.text("console-output")
	if !strings.Contains(out, "node/node-2 cordoned") || !strings.Contains(out, "evicting pod default/web-") {
		t.Errorf("kubectl drain node-2:\n%s", out)
	}
}
