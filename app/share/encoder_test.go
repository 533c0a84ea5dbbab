package share

import (
	"strings"
	"testing"
)

// An Encoder used again and again makes exactly the fragments EncodeState
// makes, whatever it encoded before (a longer scenario, another tick).
func TestEncoderMatchesEncodeState(t *testing.T) {
	var e Encoder
	for _, st := range []State{
		{Scenario: "kind: Pod\n", Tick: 3},
		{Scenario: strings.Repeat("apiVersion: apps/v1\nkind: Deployment\n# ünïcode ✓\n", 200), Tick: 1200, EveryTick: true, Lesson: 4},
		{Scenario: "kind: Pod\n", Tick: 4},
		{},
		{Scenario: "kind: Pod\n", Tick: 3, Version: 7},
	} {
		got, want := e.Encode(st), EncodeState(st)
		if got != want {
			t.Fatalf("Encode(%.20q, tick %d) = %.40q…, EncodeState %.40q…", st.Scenario, st.Tick, got, want)
		}
		back, err := Decode(got)
		st.Version = Version
		if err != nil || back != st {
			t.Fatalf("decodes to %+v, %v", back, err)
		}
	}
}
