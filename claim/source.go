package claim

// This file finds a scenario file's claims: the "# expect:" lines of its
// opening comment, and its Lesson document's claims (the lesson's own and
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

// expectRE is a header line that states a claim.
var expectRE = regexp.MustCompile(`^#[ \t]*expect:[ \t]*`)

// stray is an expect line outside the opening comment, which would not
// be read.
var strayRE = regexp.MustCompile(`^[ \t]*#[ \t]*expect:`)

// headerClaims reads the "# expect: CLAIM" lines of the file's opening
// comment (the lines before the first that is neither blank nor a
// comment). An expect line anywhere else is an error: it would not be
// checked.
func headerClaims(file string, src []byte) ([]*Written, Errors) {
	var out []*Written
	var errs Errors
	header := true
	for i, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSuffix(line, "\r")
		trimmed := strings.TrimSpace(line)
		if header && trimmed != "" && !strings.HasPrefix(trimmed, "#") {
			header = false
		}
		pos := Pos{File: file, Line: i + 1, Col: 1}
		if !header {
			if strayRE.MatchString(line) {
				errs = append(errs, &Error{pos, "an expect line outside the file's opening comment is not checked: move it up into the header"})
			}
			continue
		}
		m := expectRE.FindString(line)
		if m == "" {
			continue
		}
		pos.Col = len(m) + 1
		text := strings.TrimRight(line[len(m):], " \t")
		w := &Written{Pos: pos, Text: text, Step: -1, exact: true}
		out = append(out, w)
	}
	return out, errs
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
