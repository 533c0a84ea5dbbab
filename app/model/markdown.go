package model

import (
	"net/url"
	"regexp"
	"strings"
	"unicode"
)

// Style is how a run of a lesson step's text is shown.
type Style string

// The styles of the Markdown subset a lesson step is written in.
const (
	Plain  Style = ""
	Em     Style = "em"     // *emphasis*
	Strong Style = "strong" // **strong**
	Code   Style = "code"   // `code`
	Link   Style = "link"   // [text](https://…)
)

// Inline is a run of text in one style; a link has its address.
type Inline struct {
	Style Style
	Text  string
	// Href is a link's address: always http or https (a link to anything
	// else is shown as its text alone).
	Href string
}

// Paragraph is a paragraph of a step's text.
type Paragraph []Inline

// blankLine separates paragraphs.
var blankLine = regexp.MustCompile(`\n[ \t]*\n`)

// Markdown reads a lesson step's text in the subset lessons are written
// in: *emphasis*, **strong**, `code` and [links](https://…), paragraphs
// separated by blank lines, and a backslash before a marker to write it
// as itself. Everything else is text: the page renders every run as a
// text node, so HTML in a lesson is shown, never interpreted, and only
// http and https addresses become links.
func Markdown(text string) []Paragraph {
	var out []Paragraph
	for _, p := range blankLine.Split(strings.TrimSpace(text), -1) {
		p = strings.Join(strings.Fields(p), " ")
		if p != "" {
			out = append(out, inlines(p))
		}
	}
	return out
}

// escapable are the characters a backslash writes as themselves.
const escapable = "\\`*_[]()!#"

func inlines(p string) Paragraph {
	var out Paragraph
	var buf strings.Builder
	flush := func() {
		if buf.Len() > 0 {
			out = append(out, Inline{Text: buf.String()})
			buf.Reset()
		}
	}
	emit := func(in Inline) {
		flush()
		out = append(out, in)
	}
	for i := 0; i < len(p); {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p) && strings.IndexByte(escapable, p[i+1]) >= 0:
			buf.WriteByte(p[i+1])
			i += 2
			continue
		case c == '`':
			if j := strings.IndexByte(p[i+1:], '`'); j > 0 {
				emit(Inline{Style: Code, Text: p[i+1 : i+1+j]})
				i += j + 2
				continue
			}
		case strings.HasPrefix(p[i:], "**"):
			if inner, n, ok := delimited(p[i:], "**"); ok {
				emit(Inline{Style: Strong, Text: unescape(inner)})
				i += n
				continue
			}
			buf.WriteString("**")
			i += 2
			continue
		case c == '*':
			if inner, n, ok := delimited(p[i:], "*"); ok {
				emit(Inline{Style: Em, Text: unescape(inner)})
				i += n
				continue
			}
		case c == '[':
			if label, href, n, ok := link(p[i:]); ok {
				if safe, ok := safeURL(href); ok {
					emit(Inline{Style: Link, Text: unescape(label), Href: safe})
				} else {
					buf.WriteString(unescape(label))
				}
				i += n
				continue
			}
		}
		buf.WriteByte(c)
		i++
	}
	flush()
	return out
}

// delimited reads a run that starts with the marker d at s[0] and ends at
// the next d, as Markdown's emphasis does: the text inside neither starts
// nor ends with a space. It returns the text inside and the length read.
func delimited(s, d string) (string, int, bool) {
	rest := s[len(d):]
	if rest == "" || isSpace(rest[0]) {
		return "", 0, false
	}
	for j := 1; j < len(rest); j++ {
		if rest[j-1] == '\\' && !strings.HasSuffix(rest[:j-1], "\\") {
			continue // an escaped marker never closes
		}
		if !strings.HasPrefix(rest[j:], d) || isSpace(rest[j-1]) {
			continue
		}
		if d == "*" && (rest[j-1] == '*' || j+1 < len(rest) && rest[j+1] == '*') {
			continue // part of a "**"
		}
		return rest[:j], len(d) + j + len(d), true
	}
	return "", 0, false
}

// link reads "[label](address)" at s[0]; the address may hold balanced
// parentheses (https://en.wikipedia.org/wiki/Kubernetes_(software)).
func link(s string) (label, href string, n int, ok bool) {
	end := -1
	for j := 1; j < len(s); j++ {
		if s[j] == '\\' {
			j++
			continue
		}
		if s[j] == '[' {
			return "", "", 0, false
		}
		if s[j] == ']' {
			end = j
			break
		}
	}
	if end < 2 || end+1 >= len(s) || s[end+1] != '(' {
		return "", "", 0, false
	}
	depth := 0
	for j := end + 2; j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			if depth == 0 {
				return s[1:end], strings.TrimSpace(s[end+2 : j]), j + 1, true
			}
			depth--
		}
	}
	return "", "", 0, false
}

// safeURL accepts an absolute http or https address with a host and
// nothing a browser would read as the end of an attribute or a script.
func safeURL(s string) (string, bool) {
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || strings.ContainsRune(`"'<>\`+"`", r) {
			return "", false
		}
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", false
	}
	return u.String(), true
}

func unescape(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte(escapable, s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// PlainText is a step's text without its markers, for a title or a
// screen reader's summary.
func PlainText(ps []Paragraph) string {
	var b strings.Builder
	for i, p := range ps {
		if i > 0 {
			b.WriteString("\n\n")
		}
		for _, in := range p {
			b.WriteString(in.Text)
		}
	}
	return b.String()
}
