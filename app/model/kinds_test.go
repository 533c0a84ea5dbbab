package model

import "testing"

// Each kind has at most one view, and viewOf finds it.
func TestKindViews(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range kindViews {
		if seen[v.kind] || v.kind == "" {
			t.Errorf("view for %q: twice, or unnamed", v.kind)
		}
		seen[v.kind] = true
		if viewOf(v.kind).kind != v.kind {
			t.Errorf("viewOf(%q) does not find its entry", v.kind)
		}
	}
	if viewOf("Ingress") != &noView {
		t.Error("a kind without a view has one")
	}
}
