package model

import (
	"strings"
	"testing"
)

// The caption is the current tick's row of the tick log: at tick 0 what
// to do; on a tick that changed something its own row (actor, arrows,
// explanation); on a quiet tick in the story the fold of the quiet ticks
// it ends, in the fold's words; with every tick shown, the tick's row.
// The oracle is the log's own rows (Story and Entry).
func TestCaptionIsTheLogsRow(t *testing.T) {
	m := example(t, "codartium-api")
	if c := m.Caption(false); c.First != 0 || c.Last != 0 || !strings.Contains(c.Text, "Step (→)") || c.Clock == "" {
		t.Fatalf("at tick 0: %+v", c)
	}
	quiet, visible := 0, 0
	for range 80 {
		if !m.Step() {
			break
		}
		spans := m.Story(LogFilter{}, false)
		last := m.Entry(spans[len(spans)-1], LogFilter{})
		c := m.Caption(false)
		if last.Fold != nil {
			quiet++
			if c.First != last.Fold.First || c.Last != last.Fold.Last || c.Text != last.Fold.Text || c.Actor != "" || c.Tone != ToneQuiet {
				t.Fatalf("tick %d, folded: caption %+v, log's fold %d–%d %q", m.Status().Tick, c, last.Fold.First, last.Fold.Last, last.Fold.Text)
			}
		} else {
			visible++
			r := last.Row
			if c.First != r.Seq || c.Last != r.Seq || c.Text != r.Explanation || c.Actor != r.Actor || c.Arrows != r.Arrows || c.Tone != r.Tone || c.Clock != r.Clock {
				t.Fatalf("tick %d: caption %+v, log's row %+v", m.Status().Tick, c, r)
			}
		}
		every := m.Caption(true)
		if tick := m.Status().Tick; every.First != tick || every.Last != tick || every.Text != m.Current().Explanation() {
			t.Fatalf("tick %d, every tick: %+v", tick, every)
		}
	}
	if quiet == 0 || visible == 0 {
		t.Fatalf("the walk met %d quiet and %d visible ticks; it needs both", quiet, visible)
	}
}

func TestEmbedAddresses(t *testing.T) {
	for q, want := range map[string]bool{"embed=1": true, "embed": true, "a=b&embed=yes": true, "embed=0": false, "embed=false": false, "": false, "embedded=1": false, "%zz": false} {
		if got := EmbedRequested(q); got != want {
			t.Errorf("EmbedRequested(%q) = %v", q, got)
		}
	}
	for href, want := range map[string]string{
		"https://x.dev/stateflow/?embed=1#s=abc": "https://x.dev/stateflow/",
		"http://127.0.0.1:8080/#s=abc?d":         "http://127.0.0.1:8080/",
		"http://h/":                              "http://h/",
	} {
		if got := PageBase(href); got != want {
			t.Errorf("PageBase(%q) = %q", href, got)
		}
	}
	if got := EmbedSrc("https://x.dev/sf/?utm=1#s=abc"); got != "https://x.dev/sf/?embed=1#s=abc" {
		t.Errorf("EmbedSrc %q", got)
	}
	if got := EmbedSrc("https://x.dev/"); got != "https://x.dev/?embed=1" {
		t.Errorf("EmbedSrc without a fragment %q", got)
	}
	got := EmbedSnippet("https://x.dev/a&b/#s=abc", `Stateflow: "quotes" & <tags>`)
	want := `<iframe src="https://x.dev/a&amp;b/?embed=1#s=abc" width="800" height="520" title="Stateflow: &#34;quotes&#34; &amp; &lt;tags&gt;" loading="lazy" style="border:0"></iframe>`
	if got != want {
		t.Errorf("EmbedSnippet:\n got %s\nwant %s", got, want)
	}
	// The poster lives in web/ beside the page, whatever the page's address.
	for link, want := range map[string]string{
		"https://x.dev/stateflow/?utm=1#s=abc":  "https://x.dev/stateflow/web/poster.html?title=A+%26+B#s=abc",
		"https://x.dev/stateflow/index.html#s=": "https://x.dev/stateflow/web/poster.html?title=A+%26+B#s=",
		"https://x.dev":                         "https://x.dev/web/poster.html?title=A+%26+B",
	} {
		if got := PosterSrc(link, "A & B"); got != want {
			t.Errorf("PosterSrc(%q) = %q, want %q", link, got, want)
		}
	}
	if got := PosterSnippet("https://x.dev/#s=abc", "T"); got != `<iframe src="https://x.dev/web/poster.html?title=T#s=abc" width="800" height="520" title="T" loading="lazy" style="border:0"></iframe>` {
		t.Errorf("PosterSnippet %s", got)
	}
}
