package claim

// This file reads the facts about one tick of the trace: a component's
// writes, its command's output, its error, and the traffic it reports.

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/scenario"
)

// traceFact reads a fact about tick t of the trace: the component's tick
// writes the object, its command printed the text, or its error holds
// the text. A tick before the
// window's start (fromMS) or tick 0 makes it false.
func traceFact(f *Fact, t int, tl *timeline, fromMS int64) (bool, string) {
	if t == 0 || tl.timeOf(t) < fromMS {
		// Before the window, no tick wrote, printed or reported.
		if f.Requests != "" {
			return trafficFact(f, nil, tickName(tl, t))
		}
		return false, fmt.Sprintf("%s is before the window", tickName(tl, t))
	}
	tk := tl.tick(t)
	if f.Requests != "" {
		return trafficFact(f, tk, tickName(tl, t))
	}
	what := fmt.Sprintf("%s is %s's (%s)", tickName(tl, t), tk.Actor(), tk.Object.Short())
	if tk.Component != f.Component {
		return false, what
	}
	if f.Writes != "" {
		ref, _ := scenario.ParseRef(f.Writes) // checked when the claim was read
		for _, e := range tk.Effects {
			if e.Class != trace.Event && ref.Matches(e.Object) {
				return true, what
			}
		}
		return false, what + ", which does not write " + f.Writes
	}
	if f.Fails != "" {
		if strings.Contains(tk.Err(), f.Fails) {
			return true, what
		}
		return false, what + fmt.Sprintf(", which failed with %q", tk.Err())
	}
	if out := tk.Output(); strings.Contains(out, f.Prints) {
		return true, what
	} else if out == "" {
		return false, what + ", which printed nothing"
	}
	return false, what + fmt.Sprintf(", which printed %q", tk.Output())
}

// trafficFact compares the requests of one outcome that the tick's
// traffic report counts for the Service (0 when it reports none, or for
// no tick).
func trafficFact(f *Fact, tk *trace.Tick, name string) (bool, string) {
	n := 0
	ref, _ := scenario.ParseRef(f.To) // checked when the claim was read
	var tr *trace.Traffic
	if tk != nil {
		tr = tk.Traffic()
	}
	if tr != nil && ref.Matches(tr.Service) {
		switch f.Requests {
		case "sent":
			n = tr.Sent
		case "served":
			n = tr.Served
		default:
			n = tr.Failed
		}
	}
	ok, _ := compare(strconv.Itoa(n), f.Op, f.Value) // both numbers
	return ok, fmt.Sprintf("%s counts %d %s requests to %s", name, n, f.Requests, f.To)
}

// writes counts tick t's writes (not Events) of the object an in the
// same write claim reads, and names it.
func writes(v *verdict, t int, tl *timeline) (int, string) {
	s := v.w.Claim.Facts[0].Subject
	ref, err := scenario.ParseRef(s.Resource + "/" + s.Name)
	if err != nil {
		return 0, s.Resource + "/" + s.Name
	}
	n := 0
	for _, e := range tl.tick(t).Effects {
		if e.Class != trace.Event && ref.Matches(e.Object) {
			n++
		}
	}
	return n, s.Resource + "/" + s.Name
}
