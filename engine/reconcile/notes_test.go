package reconcile

import (
	"fmt"
	"strings"
	"testing"
)

// explained is a Tick that keeps only its explanation.
type explained struct {
	Tick
	text string
}

func (e *explained) Explain(format string, args ...any) { e.text = fmt.Sprintf(format, args...) }

// Notes write what joining each clause's Sprintf with "; " writes,
// empty clauses included, and "otherwise" only when nothing was noted.
func TestNotesJoinTheirClauses(t *testing.T) {
	for _, clauses := range [][]string{nil, {"one"}, {"one", "two 100%"}, {""}, {"", "b"}, {"a", "", "c"}} {
		var n Notes
		for _, c := range clauses {
			n.Note("%s", c)
		}
		var got explained
		n.Explain(&got, "pod/web", "nothing to do")
		want := "pod/web: nothing to do"
		if clauses != nil {
			want = "pod/web: " + strings.Join(clauses, "; ")
		}
		if got.text != want {
			t.Errorf("clauses %q: %q, want %q", clauses, got.text, want)
		}
	}
}
