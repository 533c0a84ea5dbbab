package main

import (
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/examples"
)

// element is an element of the served page, as its HTML says it.
type element struct {
	name  string
	attrs map[string]string
	text  string // its text, when it has no child elements
}

// pageElements parses the served page loosely (as HTML, not XML) into
// its elements, in document order.
func pageElements(t *testing.T, body string) []*element {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(body))
	d.Strict, d.AutoClose, d.Entity = false, xml.HTMLAutoClose, xml.HTMLEntity
	var out, open []*element
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("the page does not parse: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			e := &element{name: tok.Name.Local, attrs: map[string]string{}}
			for _, a := range tok.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			out, open = append(out, e), append(open, e)
		case xml.EndElement:
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case xml.CharData:
			if len(open) > 0 {
				open[len(open)-1].text += string(tok)
			}
		}
	}
}

// The page the server sends, before any wasm runs, is the default
// example: its name chosen in the list (one option selected, not the
// last one that says selected="false"), its manifest in the editor's
// textarea as text (a textarea shows no value attribute), its diagram
// drawn for a laptop's pane and a phone's, and no boolean attribute
// written as "false", which HTML reads as true.
func TestPrerenderedPage(t *testing.T) {
	web := fakeWeb(t)
	h, err := handler(web, filepath.Join(web, "app.wasm"), app.LocalDir(""))
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	els := pageElements(t, rec.Body.String())
	ex, _ := examples.Get(examples.Default)

	var selected []string
	inExamples := false
	diagrams := map[string]int{}
	inDiagram := ""
	for _, e := range els {
		for _, b := range []string{"selected", "disabled", "hidden", "readonly", "checked", "open", "defer", "async"} {
			if v, ok := e.attrs[b]; ok && v == "false" {
				t.Errorf("<%s %s=\"false\">: HTML reads it as %s", e.name, b, b)
			}
		}
		switch {
		case e.name == "select":
			inExamples = e.attrs["id"] == "examples"
		case e.name == "option" && inExamples:
			if _, ok := e.attrs["selected"]; ok {
				selected = append(selected, e.attrs["value"])
			}
		case e.name == "textarea" && e.attrs["id"] == "editor":
			if _, ok := e.attrs["value"]; ok {
				t.Error("the textarea carries a value attribute, which HTML ignores")
			}
			if got := strings.TrimPrefix(e.text, "\n"); got != ex.Source {
				t.Errorf("the editor's textarea holds %d bytes, want the default example's %d", len(got), len(ex.Source))
			}
		case e.name == "div" && e.attrs["class"] == "page":
			if _, ok := e.attrs["inert"]; !ok {
				t.Error("the prerendered page is not inert: it would take focus and typing before the wasm runs")
			}
		case e.name == "svg" && strings.HasPrefix(e.attrs["data-testid"], "flow"):
			inDiagram = e.attrs["data-testid"]
		case e.name == "g" && e.attrs["data-testid"] == "flow-node" && inDiagram != "":
			diagrams[inDiagram]++
		}
	}
	if len(selected) != 1 || selected[0] != examples.Default {
		t.Errorf("the example list has %q selected, want only %q", selected, examples.Default)
	}
	if diagrams["flow"] < 3 || diagrams["flow-narrow"] < 3 {
		t.Errorf("boxes in the prerendered diagrams: %v, want the 3 nodes in both the laptop's (flow) and the phone's (flow-narrow)", diagrams)
	}
}

// A site built with --domain links its previews (og:url, og:image) to
// absolute addresses under its --base, as link unfurlers need; a domain
// given as an address is refused, naming the flag.
func TestBuildDomainForLinkPreviews(t *testing.T) {
	web := fakeWeb(t)
	out := t.TempDir()
	if err := buildCommand([]string{"--out", out, "--web", web, "--base", "/stateflow", "--domain", "owner.github.io"}, &strings.Builder{}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	og := map[string]string{}
	for _, e := range pageElements(t, string(b)) {
		if e.name == "meta" && strings.HasPrefix(e.attrs["property"], "og:") {
			og[e.attrs["property"]] = e.attrs["content"]
		}
	}
	if og["og:url"] != "https://owner.github.io/stateflow" || og["og:image"] != "https://owner.github.io/stateflow/web/icon-512.png" {
		t.Errorf("og:url %q, og:image %q", og["og:url"], og["og:image"])
	}
	err = buildCommand([]string{"--out", t.TempDir(), "--web", web, "--domain", "https://owner.github.io"}, &strings.Builder{})
	if err == nil || !strings.Contains(err.Error(), "--domain") {
		t.Errorf("--domain https://owner.github.io: %v", err)
	}
}
