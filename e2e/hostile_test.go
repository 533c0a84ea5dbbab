package e2e

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/app/share"
)

// hostileManifest is valid Kubernetes whose text is markup: an image name
// that is a script, an annotation that is an image with an error handler,
// a javascript: URL, and a scenario description with markup.
const hostileManifest = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    note: "<img src=x onerror=\"window.__pwned=1\">"
    docs: "javascript:window.__pwned=2"
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: "<script>window.__pwned=3</script>"
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  description: "<b onmouseover=\"window.__pwned=4\">bold?</b>"
`

// A manifest full of markup is shown as text everywhere and runs nothing.
func TestHostileManifestIsText(t *testing.T) {
	tb := newTab(t)
	tb.open(shared.url)
	tb.loadScenario(hostileManifest)
	tb.click("tab-events")
	for i := 0; i < 60 && !strings.Contains(tb.text("events"), "Pulling"); i++ {
		tb.click("step")
	}
	if events := tb.text("events"); !strings.Contains(events, `Pulling image "<script>window.__pwned=3</script>"`) {
		t.Errorf("the event shows the image name as text:\n%s", events)
	}
	if desc := eval[string](tb, `document.querySelector('.scenario-description').textContent`); desc != `<b onmouseover="window.__pwned=4">bold?</b>` {
		t.Errorf("description %q", desc)
	}
	tb.click("tab-inspector")
	if yaml := tb.text("inspector"); !strings.Contains(yaml, `window.__pwned=1`) {
		t.Errorf("the inspector shows the annotation as text:\n%.400s", yaml)
	}
	injected := eval[int](tb, `document.querySelectorAll('img[src=x], b[onmouseover], [data-testid=inspector] script, [data-testid=events] script').length`)
	if injected != 0 {
		t.Errorf("%d elements were created from the manifest's text", injected)
	}
	if pwned := eval[bool](tb, `window.__pwned !== undefined`); pwned {
		t.Fatal("the manifest's text ran")
	}
}

// A link whose scenario is invalid YAML with markup opens the default
// example, shows the link's text in the editor with its error, runs
// nothing, and leaves the page working.
func TestHostileShareLink(t *testing.T) {
	frag := share.Encode("apiVersion: v1\nkind: [<script>window.__pwned=5</script>\n", 3)
	tb := newTab(t)
	tb.open(shared.url + "#" + frag)
	if banner := eval[string](tb, `document.querySelector('.banner.warn') ? document.querySelector('.banner.warn').textContent : ''`); !strings.Contains(banner, "The shared scenario has errors") {
		t.Fatalf("banner %q", banner)
	}
	if got := eval[string](tb, sel("editor")+".value"); !strings.Contains(got, "<script>window.__pwned=5</script>") {
		t.Errorf("the link's text is in the editor: %q", got)
	}
	if problems := tb.text("problems"); !strings.Contains(problems, "YAML syntax error") {
		t.Errorf("problems %q", problems)
	}
	if got := tb.tick(); got != "0" {
		t.Errorf("the default example starts at tick 0, not %q", got)
	}
	tb.click("step")
	if !tb.poll(sel("tick") + ".textContent.trim() === '1'") {
		t.Errorf("the page keeps working: tick %q after a step", tb.tick())
	}
	if pwned := eval[bool](tb, `window.__pwned !== undefined`); pwned {
		t.Fatal("the link's text ran")
	}
}
