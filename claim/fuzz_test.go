package claim

import (
	"errors"
	"testing"
	"unicode/utf8"
)

// FuzzParse: any text either reads as a claim that prints back to
// itself once read (the printed form reads to the same claim), or is
// refused with a *SyntaxError whose column lies within the text (or just
// past its end): never a panic, never an error that says nowhere. (A
// printed form longer than MaxLen, from quoting, is not read back.)
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"at 60s, deploy/web {.status.updatedReplicas} = 4",
		"always from 20s to 1m, count non-terminating pods -l app=web <= 5",
		"never, deploy/api condition Available = True",
		`at some tick, kubectl prints "node/node-1 drained" and count pods = 0`,
		"in the same write, job/pi condition FailureTarget = True and job/pi condition Failed = True",
		"never, failed requests to svc/web > 0",
		`pods -l app=web {.items[?(@.metadata.name=="a b")].status.phase} = 'x y'`,
		"at tick 3, deployment-controller fails \"modified\"",
		"{{{",
		`"unterminated`,
	} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, text string, atStep bool) {
		c, err := Parse(text, atStep)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("%q: %T %v, not a *SyntaxError", text, err, err)
			}
			if se.Col < 1 || se.Col > len(text)+1 && len(text) <= MaxLen {
				t.Fatalf("%q: column %d outside the text (%d bytes)", text, se.Col, len(text))
			}
			return
		}
		printed := c.String()
		if len(printed) > MaxLen {
			return // quoting a long value can pass the bound; that says nothing of the grammar
		}
		again, err := Parse(printed, atStep)
		if err != nil {
			t.Fatalf("%q printed as %q, which does not read: %v", text, printed, err)
		}
		if again.String() != printed {
			t.Fatalf("%q printed as %q, which reads back as %q", text, printed, again.String())
		}
		if !utf8.ValidString(printed) {
			t.Fatalf("%q printed as invalid UTF-8 %q", text, printed)
		}
	})
}
