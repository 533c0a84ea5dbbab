package claim

// This file splits a claim into tokens: words, quoted values, JSONPath
// templates and the comma after the time, each with its column.

import (
	"fmt"
	"strconv"
	"strings"
)

// tokenKind tells tokens apart.
type tokenKind int

const (
	tWord   tokenKind = iota // a run of characters up to a space
	tString                  // "a quoted value" or 'a quoted value'
	tPath                    // a JSONPath template: {…}, spaces allowed inside the braces
	tComma                   // a comma that ends a word or stands alone
)

// token is one token and the column it starts at (1-based, in bytes).
type token struct {
	kind tokenKind
	text string // the word, the template, or the quoted value unquoted
	col  int
}

// SyntaxError is a claim that does not read: what is wrong, and the
// column (1-based, counted in bytes from the claim's first character)
// where it is.
type SyntaxError struct {
	Col int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

func errAt(col int, format string, args ...any) *SyntaxError {
	return &SyntaxError{Col: col, Msg: fmt.Sprintf(format, args...)}
}

// lex splits text into tokens.
func lex(text string) ([]token, error) {
	var out []token
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '"' || c == '\'':
			t, n, err := quoted(text, i)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
			i = n
		case c == '{':
			t, n, err := template(text, i)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
			i = n
		case c == ',':
			out = append(out, token{tComma, ",", i + 1})
			i++
		default:
			n := i
			for n < len(text) && text[n] != ' ' && text[n] != '\t' {
				n++
			}
			w := text[i:n]
			if len(w) > 1 && strings.HasSuffix(w, ",") {
				out = append(out, token{tWord, w[:len(w)-1], i + 1}, token{tComma, ",", n})
			} else {
				out = append(out, token{tWord, w, i + 1})
			}
			i = n
		}
	}
	return out, nil
}

// quoted reads a quoted value from text[i]: Go's escapes inside double
// quotes, none inside single quotes. A quote must end its token.
func quoted(text string, i int) (token, int, error) {
	q := text[i]
	n := i + 1
	for n < len(text) && text[n] != q {
		if q == '"' && text[n] == '\\' {
			n++
		}
		n++
	}
	if n >= len(text) {
		return token{}, 0, errAt(i+1, "the value quoted here has no closing %c", q)
	}
	raw := text[i : n+1]
	v := raw[1 : len(raw)-1]
	if q == '"' {
		var err error
		if v, err = strconv.Unquote(raw); err != nil {
			return token{}, 0, errAt(i+1, "the quoted value %s does not read: %v", raw, err)
		}
	}
	n++
	if n < len(text) && text[n] != ' ' && text[n] != '\t' && text[n] != ',' {
		return token{}, 0, errAt(n+1, "put a space after the quoted value %s", raw)
	}
	return token{tString, v, i + 1}, n, nil
}

// template reads a JSONPath template from text[i] (a '{'): braces
// balance, quoted text inside them may hold any character, and the
// template ends at a space outside the braces.
func template(text string, i int) (token, int, error) {
	depth := 0
	var inQuote byte
	n := i
	for ; n < len(text); n++ {
		c := text[n]
		switch {
		case inQuote != 0:
			if c == '\\' && inQuote == '"' {
				n++
			} else if c == inQuote {
				inQuote = 0
			}
		case c == '"' || c == '\'':
			inQuote = c
		case c == '{':
			depth++
		case c == '}':
			depth--
			if depth < 0 {
				return token{}, 0, errAt(n+1, "this } closes no {")
			}
		case depth == 0 && (c == ' ' || c == '\t'):
			return token{tPath, text[i:n], i + 1}, n, nil
		}
	}
	if depth > 0 || inQuote != 0 {
		return token{}, 0, errAt(i+1, "the JSONPath template that starts here has no closing }")
	}
	return token{tPath, text[i:n], i + 1}, n, nil
}
