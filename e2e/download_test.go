package e2e

import (
	"testing"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/examples"
)

// resourcesNamed is a script counting the files the page downloaded whose
// address contains part.
func resourcesNamed(part string) string {
	return `performance.getEntriesByType('resource').filter(e => e.name.includes(` + js(part) + `)).length`
}

// The page's <head> does not wait for the editor's script: the wasm's
// download starts at once, and the Editor adds the script when it
// mounts; CodeMirror then starts, downloaded once.
func TestEditorScriptLoadsWithTheEditor(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.waitFor(`document.querySelector('.cm-editor[data-testid=editor] .cm-content')`, "CodeMirror to start")
	if n := eval[int](tb, `document.querySelectorAll('script[src*="codemirror"]:not([data-stateflow-editor])').length`); n != 0 {
		t.Errorf("the page lists the editor's script in its HTML (%d script elements): it holds up the wasm", n)
	}
	if n := eval[int](tb, resourcesNamed("codemirror.js")); n != 1 {
		t.Errorf("the editor's script was downloaded %d times, want once", n)
	}
}

// An embed has no editor, so it downloads no editor.
func TestEmbedDownloadsNoEditor(t *testing.T) {
	ex, ok := examples.Get("rolling-update")
	if !ok {
		t.Fatal("no rolling-update example")
	}
	tb := newTab(t)
	tb.openEmbed(embedURL(share.State{Scenario: ex.Source, Tick: 5}))
	tb.settle()
	if n := eval[int](tb, resourcesNamed("codemirror")); n != 0 {
		t.Errorf("the embed downloaded the editor's script (%d requests)", n)
	}
	if n := eval[int](tb, resourcesNamed("app.wasm")); n != 1 {
		t.Errorf("the embed downloaded app.wasm %d times, want once", n)
	}
}
