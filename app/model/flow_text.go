package model

import (
	"strings"
	"unicode/utf8"
)

// The diagram's text is FontPx of a monospace font, so a line's width
// follows from its length. A character's advance is taken as 7.25 px,
// 0.604 em: the widest of the usual monospace fonts (DejaVu Sans Mono and
// Menlo 0.602 em, Liberation Mono, Courier New and JetBrains Mono 0.6,
// Consolas 0.55), so a line measured here fits where any of them draws it.
const (
	// FontPx is the size of the diagram's text in CSS pixels, at Fit.
	FontPx = 12
	// charQ is a character's advance in quarters of a pixel.
	charQ = 29
	// TextPad is the room left and right of a box's text.
	TextPad = 8
	// LineH is the distance between two lines of a box.
	LineH = 15
	// TitleY is the first baseline under a box's top edge.
	TitleY = 16
	// BadgeW is the room a badge (an effect's symbol, ◔, 429) takes at
	// the right of a box's title.
	BadgeW = 10
)

// TextPx is the width of a line of n characters.
func TextPx(n int) int { return (n*charQ + 3) / 4 }

// TextWidth is the width a box needs for a line of n characters.
func TextWidth(n int) int { return 2*TextPad + TextPx(n) }

// BoxHeight is the height of a box of n lines, its title included.
func BoxHeight(n int) int { return 8 + LineH*n }

// runes is a line's length in characters.
func runes(s string) int { return utf8.RuneCountInString(s) }

// CharsIn is how many characters a box of width w shows on a line.
func CharsIn(w int) int { return max(0, (w-2*TextPad)*4/charQ) }

// Clip cuts a line to what a box of width w shows, with an ellipsis.
func Clip(s string, w int) string {
	n := CharsIn(w)
	if runes(s) <= n || n < 2 {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// clauseSep separates the clauses of a box's line: a line too long for
// its box wraps after one.
const clauseSep = " · "

// wrap breaks lines longer than n characters after a clause, keeping
// as many clauses on a line as fit; a clause longer than n breaks
// between words (a word longer than n stays whole: Clip cuts it where
// it is drawn).
func wrap(lines []string, n int) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if runes(l) <= n {
			out = append(out, l)
			continue
		}
		cur := ""
		for _, c := range strings.Split(l, clauseSep) {
			switch {
			case cur == "":
				cur = c
			case runes(cur)+runes(clauseSep)+runes(c) <= n:
				cur += clauseSep + c
			default:
				out = append(out, breakWords(cur, n)...)
				cur = c
			}
		}
		out = append(out, breakWords(cur, n)...)
	}
	return out
}

// breakWords breaks a clause longer than n characters between words.
func breakWords(c string, n int) []string {
	if runes(c) <= n {
		return []string{c}
	}
	var out []string
	cur := ""
	for _, w := range strings.Fields(c) {
		switch {
		case cur == "":
			cur = w
		case runes(cur)+1+runes(w) <= n:
			cur += " " + w
		default:
			out = append(out, cur)
			cur = w
		}
	}
	return append(out, cur)
}

// longest is the length of the longest line.
func longest(lines []string) int {
	n := 0
	for _, l := range lines {
		n = max(n, runes(l))
	}
	return n
}

// longestWord is the length of the longest word of any line: the
// narrowest a box can wrap them to.
func longestWord(lines []string) int {
	n := 0
	for _, l := range lines {
		for _, w := range strings.Fields(l) {
			n = max(n, runes(w))
		}
	}
	return n
}
