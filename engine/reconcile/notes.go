package reconcile

import "fmt"

// Notes gathers the clauses of one tick's explanation as a sync goes, the
// way a controller's log lines would, and writes them as the tick's
// one-line explanation at the end. The clauses are written into one
// buffer, "; " apart, so an explanation costs one string however many
// clauses it has.
type Notes struct {
	text    []byte
	clauses int
}

// Note adds one clause.
func (n *Notes) Note(format string, args ...any) {
	if n.clauses > 0 {
		n.text = append(n.text, "; "...)
	} else if n.text == nil {
		n.text = make([]byte, 0, 128)
	}
	n.clauses++
	n.text = fmt.Appendf(n.text, format, args...)
}

// Explain sets the tick's explanation to "subject: clause; clause", or
// "subject: otherwise" when nothing was noted. A tick that takes the
// explanation in pieces (the engine's, which keeps the clauses once for
// every object whose name is the subject) gets them without a string
// made of them.
func (n *Notes) Explain(tick Tick, subject, otherwise string) {
	if n.clauses == 0 {
		tick.Explain("%s", subject+": "+otherwise)
		return
	}
	if t, ok := tick.(subjectExplainer); ok {
		t.ExplainSubject(subject, n.text)
		return
	}
	tick.Explain("%s", subject+": "+string(n.text))
}

// subjectExplainer is a Tick that takes "subject: text" in pieces.
type subjectExplainer interface {
	ExplainSubject(subject string, text []byte)
}
