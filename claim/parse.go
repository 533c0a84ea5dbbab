package claim

// This file reads a claim (the grammar is in doc.go). Every error is a
// *SyntaxError with the column where the claim stops reading.

import (
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/scenario"
)

// MaxLen bounds a claim's text.
const MaxLen = 2000

// Parse reads one claim. A claim without a time (at 30s, always, …) is
// read only when atStep is set: it then holds at a lesson step's tick.
func Parse(text string, atStep bool) (*Claim, error) {
	if len(text) > MaxLen {
		return nil, errAt(MaxLen, "a claim is at most %d characters", MaxLen)
	}
	for i, r := range text {
		if r == utf8.RuneError || r < ' ' && r != '\t' || r == 0x7f {
			return nil, errAt(i+1, "a claim is one line of text: %q does not belong in it", r)
		}
	}
	toks, err := lex(text)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks, end: len(text) + 1}
	c := &Claim{}
	if c.When, err = p.when(atStep); err != nil {
		return nil, err
	}
	if c.Facts, err = p.facts(); err != nil {
		return nil, err
	}
	if err := validate(c, p.startCol); err != nil {
		return nil, err
	}
	return c, nil
}

// parser walks the tokens.
type parser struct {
	toks []token
	i    int
	end  int // the column just past the text
	// startCol is where the facts begin.
	startCol int
}

// peek is the word at i+k ("" for a non-word or past the end).
func (p *parser) peek(k int) string {
	if p.i+k < len(p.toks) && p.toks[p.i+k].kind == tWord {
		return p.toks[p.i+k].text
	}
	return ""
}

// col is where the current token starts (the end when none is left).
func (p *parser) col() int {
	if p.i < len(p.toks) {
		return p.toks[p.i].col
	}
	return p.end
}

// done reports whether every token is read.
func (p *parser) done() bool { return p.i >= len(p.toks) }

// words consumes the words given if they come next.
func (p *parser) words(ws ...string) bool {
	for k, w := range ws {
		if p.peek(k) != w {
			return false
		}
	}
	p.i += len(ws)
	return true
}

// timings are the windowed timings and the words that begin them.
var timings = []struct {
	words  []string
	timing Timing
}{
	{[]string{"always"}, Always},
	{[]string{"never"}, Never},
	{[]string{"at", "some", "tick"}, Sometime},
	{[]string{"in", "the", "same", "tick"}, SameTick},
	{[]string{"in", "the", "same", "write"}, SameWrite},
}

const whenHelp = "begin with when it holds: at 30s, at tick 12, at the end, always, never, at some tick, in the same tick or in the same write"

// when reads the claim's time and the comma after it.
func (p *parser) when(atStep bool) (When, error) {
	var w When
	switch {
	case p.words("at", "the", "end"):
		w.Timing = AtEnd
	case p.peek(0) == "at" && p.peek(1) == "tick":
		p.i += 2
		n, err := strconv.Atoi(p.peek(0))
		if err != nil || n < 0 {
			return w, errAt(p.col(), "at tick needs a tick number (0 or more)")
		}
		p.i++
		w.Timing, w.Tick = AtTick, n
	case p.peek(0) == "at" && p.peek(1) != "some":
		p.i++
		ms, err := p.duration("at")
		if err != nil {
			return w, err
		}
		w.Timing, w.MS = AtTime, ms
	default:
		found := false
		for _, t := range timings {
			if p.words(t.words...) {
				w.Timing, found = t.timing, true
				break
			}
		}
		if !found {
			if !atStep {
				return w, errAt(p.col(), "%s", whenHelp)
			}
			w.Timing = AtStep
			p.startCol = p.col()
			return w, nil
		}
		if err := p.window(&w); err != nil {
			return w, err
		}
	}
	if !w.windowed() && (p.peek(0) == "from" || p.peek(0) == "to") {
		return w, errAt(p.col(), "only always, never, at some tick and in the same tick or write take from and to")
	}
	if p.i < len(p.toks) && p.toks[p.i].kind == tComma {
		p.i++
	}
	p.startCol = p.col()
	return w, nil
}

// window reads "from TIME" and "to TIME", each optional.
func (p *parser) window(w *When) error {
	if p.words("from") {
		ms, err := p.duration("from")
		if err != nil {
			return err
		}
		w.From, w.HasFrom = ms, true
	}
	if p.peek(0) == "to" {
		col := p.col()
		p.i++
		ms, err := p.duration("to")
		if err != nil {
			return err
		}
		if w.HasFrom && ms < w.From {
			return errAt(col, "the window ends (to %s) before it begins (from %s)", formatMS(ms), formatMS(w.From))
		}
		w.To, w.HasTo = ms, true
	}
	return nil
}

// duration reads a virtual time after the word before.
func (p *parser) duration(before string) (int64, error) {
	col := p.col()
	word := p.peek(0)
	if word == "" {
		return 0, errAt(col, "%s needs a time such as 30s, 1m30s or 250ms", before)
	}
	ms, err := scenario.ParseDuration(word)
	if err != nil {
		return 0, errAt(col, "%s needs a time: %v", before, err)
	}
	p.i++
	return ms, nil
}

// facts reads fact {"and" fact} to the end of the claim.
func (p *parser) facts() ([]Fact, error) {
	var out []Fact
	for {
		f, err := p.fact()
		if err != nil {
			return nil, err
		}
		out = append(out, f)
		if p.done() {
			return out, nil
		}
		if !p.words("and") {
			return nil, errAt(p.col(), "expected and (another fact) or the end of the claim")
		}
	}
}

// fact reads one fact: a component's write or output, or a subject, an
// operator and a value.
func (p *parser) fact() (Fact, error) {
	f := Fact{Col: p.col()}
	if p.done() {
		return f, errAt(p.col(), "a fact is missing: say what to read, such as deploy/web {.status.readyReplicas} = 3")
	}
	if c := p.peek(0); slices.Contains(engine.ComponentNames(), c) && slices.Contains(traceVerbs, p.peek(1)) {
		return p.traceFact(f)
	}
	if slices.Contains(requestKinds, p.peek(0)) && p.peek(1) == "requests" && p.peek(2) == "to" {
		return p.trafficFact(f)
	}
	s, err := p.subject()
	if err != nil {
		return f, err
	}
	f.Subject = s
	op := Op(p.peek(0))
	if !slices.Contains(ops, op) {
		return f, errAt(p.col(), "expected an operator (=, !=, <, <=, >, >=, contains or !contains, with spaces around it) after %s", s)
	}
	f.Op = op
	p.i++
	if f.Value, err = p.value(); err != nil {
		return f, err
	}
	return f, nil
}

// traceVerbs begin the facts about one tick of a component.
var traceVerbs = []string{"writes", "prints", "fails"}

// traceFact reads "COMPONENT writes TYPE/NAME", "COMPONENT prints VALUE"
// or "COMPONENT fails VALUE".
func (p *parser) traceFact(f Fact) (Fact, error) {
	f.Component = p.peek(0)
	verb := p.peek(1)
	p.i += 2
	if verb != "writes" {
		v, err := p.value()
		if err != nil {
			return f, err
		}
		if v == "" {
			return f, errAt(f.Col, "%s needs the text (a part of it) the tick %s", verb, map[string]string{"prints": "printed", "fails": "failed with"}[verb])
		}
		if verb == "prints" {
			f.Prints = v
		} else {
			f.Fails = v
		}
		return f, nil
	}
	col, ref := p.col(), p.peek(0)
	res, name, ok := strings.Cut(ref, "/")
	if !ok || res == "" || name == "" {
		return f, errAt(col, "writes needs an object: TYPE/NAME, such as rs/web-* (* matches any characters)")
	}
	if _, err := path.Match(name, ""); err != nil {
		return f, errAt(col, "bad name pattern %q: %v", name, err)
	}
	if _, err := scenario.ParseRef(ref); err != nil {
		return f, errAt(col, "%v", err)
	}
	p.i++
	f.Writes = ref
	return f, nil
}

// trafficFact reads "(sent|served|failed) requests to svc/NAME OP
// VALUE".
func (p *parser) trafficFact(f Fact) (Fact, error) {
	f.Requests = p.peek(0)
	p.i += 3
	col, ref := p.col(), p.peek(0)
	r, err := scenario.ParseRef(ref)
	if err != nil || r.Kind != api.KindService || glob(r.Pattern) {
		return f, errAt(col, "requests to needs a Service: svc/NAME")
	}
	p.i++
	f.To = ref
	op := Op(p.peek(0))
	if !slices.Contains(ops, op) {
		return f, errAt(p.col(), "expected an operator (=, !=, <, <=, >, >=) after %s requests to %s", f.Requests, f.To)
	}
	p.i++
	f.Op = op
	if f.Value, err = p.value(); err != nil {
		return f, err
	}
	if !isNumber(f.Value) {
		return f, errAt(p.toks[p.i-1].col, "%s requests to %s counts requests: compare it with a number", f.Requests, f.To)
	}
	return f, nil
}

// value reads the value a subject is compared with: a word or a quoted
// string.
func (p *parser) value() (string, error) {
	if p.done() || p.toks[p.i].kind == tComma || p.toks[p.i].kind == tPath {
		return "", errAt(p.col(), "a value is missing: a word, a number or a \"quoted value\" (\"\" for empty)")
	}
	t := p.toks[p.i]
	if t.kind == tWord && isKeyword(t.text) {
		return "", errAt(t.col, "%q is a word of the claim language: quote the value (\"%s\")", t.text, t.text)
	}
	p.i++
	return t.text, nil
}
