package model

import (
	"reflect"
	"testing"
)

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Paragraph
	}{
		{"plain text", []Paragraph{{{Text: "plain text"}}}},
		{"`kubectl apply` stores **desired\n  state**; *one layer down*.", []Paragraph{{
			{Style: Code, Text: "kubectl apply"}, {Text: " stores "}, {Style: Strong, Text: "desired state"}, {Text: "; "}, {Style: Em, Text: "one layer down"}, {Text: "."}}}},
		{"one\n\ntwo", []Paragraph{{{Text: "one"}}, {{Text: "two"}}}},
		{"see [the docs](https://kubernetes.io/docs/) now", []Paragraph{{{Text: "see "}, {Style: Link, Text: "the docs", Href: "https://kubernetes.io/docs/"}, {Text: " now"}}}},
		{"[wiki](https://en.wikipedia.org/wiki/Kubernetes_(software))", []Paragraph{{{Style: Link, Text: "wiki", Href: "https://en.wikipedia.org/wiki/Kubernetes_(software)"}}}},
		{"[HTTP](HTTP://example.com/a?b=1&c=%20)", []Paragraph{{{Style: Link, Text: "HTTP", Href: "http://example.com/a?b=1&c=%20"}}}},
		// Only http and https become links; the rest is the label alone.
		{"[x](javascript:alert(1))", []Paragraph{{{Text: "x"}}}},
		{"[x](data:text/html,<b>)", []Paragraph{{{Text: "x"}}}},
		{"[x](/relative) [y](//host/path) [z](https://user:pw@host/)", []Paragraph{{{Text: "x y z"}}}},
		{`[x](https://a.b/"onmouseover=alert(1))`, []Paragraph{{{Text: "x"}}}},
		// HTML is text.
		{"<script>alert(1)</script> <b>bold</b>", []Paragraph{{{Text: "<script>alert(1)</script> <b>bold</b>"}}}},
		// Markers that open nothing are themselves.
		{"2 * 3 * 4, a ** b, `open, [open, [a] (b)", []Paragraph{{{Text: "2 * 3 * 4, a ** b, `open, [open, [a] (b)"}}}},
		{`\*not emphasis\*, \[not a link\](x)`, []Paragraph{{{Text: "*not emphasis*, [not a link](x)"}}}},
		{"**strong** and *em **with strong** inside*", []Paragraph{{{Style: Strong, Text: "strong"}, {Text: " and "}, {Style: Em, Text: "em **with strong** inside"}}}},
		{"", nil},
	} {
		if got := Markdown(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q:\n got %#v\nwant %#v", tc.in, got, tc.want)
		}
	}
	if got := PlainText(Markdown("a **b**\n\n`c`")); got != "a b\n\nc" {
		t.Errorf("plain text %q", got)
	}
}

// FuzzMarkdown: no text panics, no link is anything but http(s), and no
// text is lost but markers.
func FuzzMarkdown(f *testing.F) {
	for _, s := range []string{"*a* **b** `c` [d](https://e)", "[x](javascript:1)", "\\*", "**", "[a](b(c)", "*\\*"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range Markdown(s) {
			for _, in := range p {
				if in.Style == Link {
					if _, ok := safeURL(in.Href); !ok || len(in.Href) < 8 || (in.Href[:7] != "http://" && in.Href[:8] != "https://") {
						t.Fatalf("link %q from %q", in.Href, s)
					}
				} else if in.Href != "" {
					t.Fatalf("an address on %+v", in)
				}
			}
		}
	})
}
