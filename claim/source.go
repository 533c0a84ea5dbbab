package claim

// This file finds a scenario file's claims: the "# expect:" lines of its
// opening (or closing) comment, and its Lesson document's claims (the lesson's own and
// each step's), each with its place in the file.

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/stateflow/stateflow/scenario"
)

// Pos is a place in a file: its name, line and column (1-based; Col 0
// when only the line is known).
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	if p.Col > 0 {
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d", p.File, p.Line)
}

// Written is a claim as a file writes it.
type Written struct {
	// Pos is where its text begins, Text its words.
	Pos  Pos
	Text string
	// Step is the lesson step it belongs to (0-based), -1 when it is a
	// header's or the lesson's own.
	Step int
	// Claim is the claim read.
	Claim *Claim
	// exact says Pos.Col is the column of Text's first character on its
	// line, so a column inside the claim can be told.
	exact bool
}

// at is the place of the claim's column col (1-based): exact when the
// text stands on its line as written, else the claim's own place.
func (w *Written) at(col int) Pos {
	if !w.exact || col < 1 {
		return w.Pos
	}
	p := w.Pos
	p.Col += col - 1
	return p
}

// Error is a place and what is wrong there.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Errors are every error found in a file, in file order.
type Errors []*Error

func (es Errors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

// expectRE is an edge comment's line that states a claim.
var expectRE = regexp.MustCompile(`^#[ \t]*expect:[ \t]*`)

// strayRE is an expect line inside the file, which would not be read.
var strayRE = regexp.MustCompile(`^[ \t]*#[ \t]*expect:`)

// headerClaims reads the "# expect: CLAIM" lines of the file's opening
// comment (the lines before the first that is neither blank nor a
// comment), and of its closing comment (after the last such line), where
// a file whose opening lines must not move can state them. An expect
// line anywhere else is an error: it would not be checked.
func headerClaims(file string, src []byte) ([]*Written, Errors) {
	lines := strings.Split(string(src), "\n")
	first, last := contentSpan(lines)
	var out []*Written
	var errs Errors
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r")
		pos := Pos{File: file, Line: i + 1, Col: 1}
		if i >= first && i <= last {
			if strayRE.MatchString(line) {
				errs = append(errs, &Error{pos, "an expect line inside the file is not checked: move it into the opening comment (or the closing one)"})
			}
			continue
		}
		if m := expectRE.FindString(line); m != "" {
			pos.Col = len(m) + 1
			out = append(out, &Written{Pos: pos, Text: strings.TrimRight(line[len(m):], " \t"), Step: -1, exact: true})
		}
	}
	return out, errs
}

// contentSpan is the index of the first and of the last line that is
// neither blank nor a comment (first > last when there is none).
func contentSpan(lines []string) (first, last int) {
	first, last = len(lines), -1
	for i, line := range lines {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			first, last = min(first, i), i
		}
	}
	return first, last
}

// lessonClaims lists the Lesson document's claims: the lesson's own,
// then each step's.
func lessonClaims(file string, src []byte, l *scenario.Lesson) []*Written {
	if l == nil {
		return nil
	}
	lines := strings.Split(string(src), "\n")
	var out []*Written
	add := func(c scenario.Claim, step int) {
		w := &Written{Pos: Pos{File: file, Line: c.Line, Col: c.Column}, Text: c.Text, Step: step}
		// The column is exact when the text stands there on its line.
		if c.Column > 0 && c.Line <= len(lines) {
			line := lines[c.Line-1]
			w.exact = c.Column-1 <= len(line) && strings.HasPrefix(line[c.Column-1:], c.Text)
		}
		out = append(out, w)
	}
	for _, c := range l.Claims {
		add(c, -1)
	}
	for i, s := range l.Steps {
		for _, c := range s.Claims {
			add(c, i)
		}
	}
	return out
}

// parseAll reads every written claim, collecting the errors at their
// places.
func parseAll(ws []*Written) Errors {
	var errs Errors
	for _, w := range ws {
		c, err := Parse(w.Text, w.Step >= 0)
		var se *SyntaxError
		switch {
		case errors.As(err, &se):
			errs = append(errs, &Error{w.at(se.Col), se.Msg})
		case err != nil:
			errs = append(errs, &Error{w.Pos, err.Error()})
		default:
			w.Claim = c
		}
	}
	return errs
}
