package e2e

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/app/share"
	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/scenario"
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

// firstJobTick is the tick at which the scenario's first Job exists, as
// the engine runs it natively.
func firstJobTick(t *testing.T, src string) int {
	t.Helper()
	sc, err := scenario.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.New(sc.Config)
	if err != nil {
		t.Fatal(err)
	}
	for e.Store().Count(api.KindJob) == 0 {
		if e.Step() == nil {
			t.Fatal("the scenario settled with no Job")
		}
	}
	return e.Tick()
}

// app.wasm carries no time zone database: the page downloads
// web/zoneinfo.zip the first time a scenario names a zone, and only
// then. Opened from a link at a tick past the first run, the CronJob's
// Job carries its scheduled time on the CronJob's clock, as the
// command line computes it; a zone that does not exist is refused with
// the API server's message, at its line.
func TestTimeZonesDownloadWhenAScenarioNamesOne(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.settle()
	if n := eval[int](tb, resourcesNamed("zoneinfo")); n != 0 {
		t.Errorf("the default example downloaded the zone database (%d requests)", n)
	}

	src := testkit.ZonedCronJob("report", "Asia/Kolkata")
	at := firstJobTick(t, src)
	linked := newTab(t)
	linked.open(shared.url + "?zones=1#" + share.EncodeState(share.State{Scenario: src, Tick: at}))
	linked.waitTick(at)
	linked.click("tab-console")
	linked.setValue("console-input", `kubectl get jobs -o 'jsonpath={.items[0].metadata.annotations.batch\.kubernetes\.io/cronjob-scheduled-timestamp}'`)
	eval[bool](linked, `document.querySelector('[data-testid=console-input]').form.requestSubmit(), true`)
	linked.waitFor(`document.querySelector('[data-testid=console-output]').lastElementChild?.textContent.includes('2025-01-01T')`, "the console's answer")
	if got := eval[string](linked, `document.querySelector('[data-testid=console-output]').lastElementChild.textContent`); !strings.Contains(got, "2025-01-01T05:31:00+05:30") {
		t.Errorf("the Job's scheduled time reads %q, want 2025-01-01T05:31:00+05:30 (Asia/Kolkata)", got)
	}
	if n := eval[int](linked, resourcesNamed("zoneinfo.zip")); n != 1 {
		t.Errorf("the zone database was downloaded %d times, want once", n)
	}

	linked.setValue("editor", testkit.ZonedCronJob("report", "Mars/Olympus"))
	linked.click("apply")
	linked.waitFor(sel("problems")+`?.textContent.includes('Mars/Olympus')`, "the problems to name the zone")
	if got, want := linked.text("problems"), `line 7:13: spec.timeZone: Invalid value: "Mars/Olympus": unknown time zone Mars/Olympus`; !strings.Contains(got, want) {
		t.Errorf("problems %q, want %q", got, want)
	}
	if n := eval[int](linked, resourcesNamed("zoneinfo.zip")); n != 1 {
		t.Errorf("the zone database was downloaded %d times, want once", n)
	}
}
