package model

import (
	"html"
	"net/url"
	"strings"

	"github.com/stateflow/stateflow/engine/trace"
)

// This file is what the embed mode (?embed=1, a compact player in
// someone else's <iframe>) needs beyond the page's view-model: the
// caption that tells the current tick as the story log does, and the
// addresses and the HTML snippet that embed a scenario.

// Caption is the current tick told as the tick log tells it: in the
// story view the row it belongs to (its own, or the fold of quiet ticks
// it ends), with every tick shown its own row.
type Caption struct {
	// First and Last are the ticks told (equal for one tick, 0 at tick 0).
	First, Last int
	Clock       string
	// Actor is the component that acted and Arrows its effects' symbols
	// ("" for a fold and at tick 0).
	Actor, Arrows string
	Text          string
	Tone          Tone
	// Why says the tick wrote an object: the caption offers "Why?"
	// (AskWhyTick).
	Why bool
}

// captionStart is the caption before the first tick.
const captionStart = "Nothing has happened yet; the nodes are up. Step (→) applies the manifest, then each component takes its turn."

// Caption is the current tick's row of the tick log (every: as the log
// shows every tick; else as the story does).
func (m *Model) Caption(every bool) Caption {
	t := m.Current()
	if t == nil {
		return Caption{Clock: m.Status().Clock, Text: captionStart}
	}
	tr := m.eng.Trace()
	last := len(tr) - 1
	if every || Visible(t) {
		r := row(t, true)
		return Caption{First: r.Seq, Last: r.Seq, Clock: r.Clock, Actor: r.Actor, Arrows: r.Arrows, Text: r.Explanation, Tone: r.Tone, Why: writes(t)}
	}
	from := last
	for from > 0 && !Visible(tr[from-1]) {
		from--
	}
	f := m.Entry(Span{From: from, To: last, Folded: true}, LogFilter{}).Fold
	return Caption{First: f.First, Last: f.Last, Clock: trace.FormatTime(t.Time), Text: f.Text, Tone: ToneQuiet}
}

// EmbedRequested reports whether a page address's query asks for the
// embed mode: embed present, with any value but 0, false or no.
func EmbedRequested(rawQuery string) bool {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return false
	}
	v, ok := q["embed"]
	if !ok {
		return false
	}
	switch strings.ToLower(v[0]) {
	case "0", "false", "no":
		return false
	}
	return true
}

// PageBase is a page address without its query and fragment: where the
// full page lives, whatever mode and link it was opened with.
func PageBase(href string) string {
	href, _, _ = strings.Cut(href, "#")
	href, _, _ = strings.Cut(href, "?")
	return href
}

// fragment is the part of an address after "#" ("" when none).
func fragment(href string) string {
	_, f, _ := strings.Cut(href, "#")
	return f
}

// EmbedSrc is the address of the embed mode for a share link: the same
// page and fragment, with ?embed=1.
func EmbedSrc(link string) string {
	src := PageBase(link) + "?embed=1"
	if f := fragment(link); f != "" {
		src += "#" + f
	}
	return src
}

// EmbedSnippet is the HTML that embeds the scenario a share link opens:
// an iframe of EmbedSrc(link), 800×520, named title for screen readers,
// loaded when scrolled to, without a border.
func EmbedSnippet(link, title string) string { return iframeSnippet(EmbedSrc(link), title) }

// iframeSnippet is the frame of src that the Share banner offers.
func iframeSnippet(src, title string) string {
	return `<iframe src="` + html.EscapeString(src) + `" width="800" height="520" title="` + html.EscapeString(title) +
		`" loading="lazy" style="border:0"></iframe>`
}

// PosterSrc is the address of the embed's light poster for a share link:
// web/poster.html beside the page, with the title in its query and the
// link's fragment, which the poster reads (the kinds, the tick) and
// hands to the embed when its reader presses Load.
func PosterSrc(link, title string) string {
	dir := PageBase(link)
	if i := strings.LastIndexByte(dir, '/'); strings.HasSuffix(dir, ".html") && i >= 0 {
		dir = dir[:i+1]
	} else if !strings.HasSuffix(dir, "/") {
		dir += "/"
	}
	src := dir + "web/poster.html?title=" + url.QueryEscape(title)
	if f := fragment(link); f != "" {
		src += "#" + f
	}
	return src
}

// PosterSnippet is EmbedSnippet for the light poster: the same frame,
// which downloads the simulator only when its reader asks.
func PosterSnippet(link, title string) string { return iframeSnippet(PosterSrc(link, title), title) }

// writes reports whether a tick wrote an object (not only Events).
func writes(t *trace.Tick) bool {
	for _, e := range t.Effects {
		if e.Class != trace.Event {
			return true
		}
	}
	return false
}
