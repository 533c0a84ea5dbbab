package reconcile

import (
	"fmt"
	"strings"
)

// Notes gathers the clauses of one tick's explanation as a sync goes, the
// way a controller's log lines would, and writes them as the tick's
// one-line explanation at the end.
type Notes struct{ clauses []string }

// Note adds one clause.
func (n *Notes) Note(format string, args ...any) {
	n.clauses = append(n.clauses, fmt.Sprintf(format, args...))
}

// Explain sets the tick's explanation to "subject: clause; clause", or
// "subject: otherwise" when nothing was noted.
func (n *Notes) Explain(tick Tick, subject, otherwise string) {
	what := otherwise
	if len(n.clauses) > 0 {
		what = strings.Join(n.clauses, "; ")
	}
	tick.Explain("%s: %s", subject, what)
}
