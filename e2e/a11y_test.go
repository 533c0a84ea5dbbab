package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeSource is axe-core's browser bundle, installed by make test from
// e2e/package-lock.json.
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(), "e2e", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatalf("axe-core is not installed (make test runs npm ci in e2e/): %v", err)
	}
	return string(b)
}

// axe runs axe-core on the page as it is now and returns its serious and
// critical violations, one line each with the elements they concern. The
// experimental rule label-content-name-mismatch runs too: a control's
// accessible name must contain the text it shows.
func (tb *tab) axe(src string) []string {
	tb.t.Helper()
	if !eval[bool](tb, `typeof window.axe === 'object'`) {
		eval[bool](tb, src+"\n;true")
	}
	return eval[[]string](tb, `axe.run(document, {resultTypes: ['violations'], rules: {'label-content-name-mismatch': {enabled: true}}}).then(r =>
	  r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v =>
	    v.id + ' (' + v.impact + '): ' + v.help + ' — ' + v.nodes.slice(0, 4).map(n => n.target.join(' ') + (n.failureSummary ? ' [' + n.failureSummary.replace(/\s+/g, ' ').slice(0, 160) + ']' : '')).join('; ')))`)
}

// scheme switches the page between the light and the dark theme.
func (tb *tab) scheme(name string) {
	tb.t.Helper()
	_, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: name}}})
	if err != nil {
		tb.t.Fatalf("color scheme %s: %v", name, err)
	}
	tb.settle()
}

// TestAccessibility runs axe-core in every state a visitor meets — the
// page at load, mid-rollout with a fold open, each panel, an editor with
// errors, a failing scenario, and the phone's panes — in the light and the
// dark theme. Nothing serious or critical may be reported.
func TestAccessibility(t *testing.T) {
	src := axeSource(t)
	for _, s := range []screen{screens[0], screens[2]} {
		for _, theme := range []string{"light", "dark"} {
			t.Run(s.name+"/"+theme, func(t *testing.T) {
				tb := newTab(t)
				tb.resize(s)
				tb.scheme(theme)
				tb.open(shared.url)
				check := func(state string) {
					t.Helper()
					if v := tb.axe(src); len(v) > 0 {
						t.Errorf("%s: axe reports:\n  %s", state, strings.Join(v, "\n  "))
					}
				}
				check("at load")
				tb.show(s, "flow")
				for range 8 {
					tb.click("step")
				}
				check("mid-rollout, the diagram")
				tb.show(s, "details")
				eval[bool](tb, `(() => { const f = document.querySelector('.tick-log .fold-toggle'); if (f) f.click(); return true })()`)
				tb.settle()
				check("the tick log with a fold open")
				for _, panel := range []string{"inspector", "events", "console"} {
					tb.click("tab-" + panel)
					if panel == "console" {
						tb.setValue("console-input", "kubectl get pods -o wide")
						eval[bool](tb, `document.querySelector('[data-testid=console-input]').form.requestSubmit(), true`)
						tb.settle()
					}
					check("the " + panel + " panel")
				}
				tb.chooseExample("image-pull-failure")
				tb.click("run")
				tb.waitFor(sel("run")+`.getAttribute('aria-pressed') === 'false'`, "the run to end")
				tb.show(s, "details")
				tb.click("tab-log")
				check("a failing rollout, its log")
				tb.show(s, "scenario")
				tb.setValue("editor", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: many\n")
				tb.click("apply")
				if !strings.Contains(tb.text("problems"), "error") {
					t.Fatalf("the editor shows no error: %q", tb.text("problems"))
				}
				check("the editor with errors")
			})
		}
	}
}

// A flow box announces its kind, name and status, and the effect classes
// differ by the shape of their line as well as by colour.
func TestFlowBoxesSpeak(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	for range 6 {
		tb.click("step")
	}
	names := eval[[]string](tb, `[...document.querySelectorAll('[data-testid=flow-node][role=button]')].map(g => g.querySelector('title').textContent)`)
	if len(names) < 4 {
		t.Fatalf("%d focusable boxes", len(names))
	}
	for _, n := range names {
		if !strings.Contains(n, "(") || !(strings.Contains(n, "Deployment") || strings.Contains(n, "ReplicaSet") || strings.Contains(n, "Pod") || strings.Contains(n, "Node")) {
			t.Errorf("a box is announced as %q: its kind and status are missing", n)
		}
	}
	// A stale cache is a badge; its detail shows while the box has focus.
	tb.click("reset")
	for i := 0; i < 30 && !eval[bool](tb, `!!document.querySelector('[data-testid=flow-node][data-stale=true]')`); i++ {
		tb.click("step")
	}
	tip := eval[[]string](tb, `(() => {
		const g = document.querySelector('[data-testid=flow-node][data-stale=true]');
		if (!g) return ['', ''];
		const t = g.querySelector('.stale-tip');
		const hidden = getComputedStyle(t).display;
		g.focus();
		return [hidden, getComputedStyle(t).display, t.textContent];
	})()`)
	if len(tip) != 3 || tip[0] != "none" || tip[1] == "none" || !strings.Contains(tip[2], "◔") {
		t.Errorf("a stale box's detail (display before/after focus, text): %q", tip)
	}
	dashes := eval[[]string](tb, `[...document.querySelectorAll('.legend li[class^=cls-] line')].map(l => getComputedStyle(l).strokeDasharray)`)
	seen := map[string]bool{}
	for _, d := range dashes {
		seen[d] = true
	}
	if len(dashes) != 5 || len(seen) != 5 {
		t.Errorf("the five effect classes draw %d distinct line shapes: %v", len(seen), dashes)
	}

}
