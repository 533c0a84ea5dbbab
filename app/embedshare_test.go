package app

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/app/model"
)

// After Share the banner offers the embed snippet beside the link: an
// iframe of the link in embed mode, titled after the lesson or scenario.
// Where the clipboard fails, Copy says so (and selects the field).
func TestShareOffersTheEmbedSnippet(t *testing.T) {
	l := load(t, NewPlayground())
	h := l.do(func(ctx app.Context) { l.p.shareScenario(ctx) })
	link, title := l.p.shareLink, l.p.embedTitle()
	want := model.EmbedSnippet(link, title)
	if !strings.HasPrefix(link, "http://localhost/#s=") || !strings.Contains(want, `src="http://localhost/?embed=1#s=`) ||
		!strings.HasPrefix(title, "Stateflow: A Deployment of 3 replicas") || len([]rune(title)) > 112 {
		t.Fatalf("link %q, snippet %q", link, want)
	}
	// A textarea's value is written as its text, HTML-escaped.
	m := regexp.MustCompile(`(?s)<textarea[^>]*data-testid="embed-snippet"[^>]*>(.*?)</textarea>`).FindStringSubmatch(h)
	if m == nil {
		t.Fatal("no snippet field")
	}
	if got := strings.TrimPrefix(html.UnescapeString(m[1]), "\n"); got != want {
		t.Fatalf("the snippet field: %q, want %q", got, want)
	}
	if testid(h, "embed-copy") == "" || !strings.Contains(h, `<label for="embed-snippet"`) {
		t.Error("the snippet has no Copy button or no label")
	}

	c := &EmbedShare{Link: link, Title: title, bridge: l.p.bridge}
	x := app.NewTestEngine()
	if err := x.Load(c); err != nil {
		t.Fatal(err)
	}
	x.ConsumeAll()
	shareCtx.Dispatch(func(ctx app.Context) { c.copy(ctx) })
	x.ConsumeAll()
	if notice := testid(app.HTMLString(c), "embed-copy-notice"); !strings.Contains(app.HTMLString(c), "The clipboard is not available") || !strings.Contains(notice, `role="status"`) {
		t.Errorf("Copy without a clipboard: %s", app.HTMLString(c))
	}
}

var shareCtx app.Context

func (c *EmbedShare) OnPreRender(ctx app.Context) { shareCtx = ctx }
