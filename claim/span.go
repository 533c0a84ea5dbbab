package claim

// This file works out which ticks of the run a claim reads: the one its
// time names, a lesson step's, or a window's.

import "fmt"

// span works out the ticks a claim reads, or why it cannot be checked.
func span(w *Written, tl *timeline, steps map[int]int) (*verdict, string) {
	wh := w.Claim.When
	v := &verdict{w: w, fromMS: wh.From}
	end := tl.end()
	past := func(ms int64) string {
		if !tl.settled && ms > tl.timeOf(end) {
			return fmt.Sprintf("the check ends at %s, before %s: the scenario does not settle", tickName(tl, end), formatMS(ms))
		}
		return ""
	}
	switch wh.Timing {
	case AtStep:
		v.first = steps[w.Step]
		v.point = fmt.Sprintf("at step %d's %s", w.Step+1, tickName(tl, v.first))
	case AtTime:
		if msg := past(wh.MS); msg != "" {
			return nil, msg
		}
		v.first = tl.at(wh.MS)
		v.point = fmt.Sprintf("at %s, after %s", formatMS(wh.MS), tickName(tl, v.first))
	case AtTick:
		if wh.Tick > end {
			return nil, fmt.Sprintf("the run ends at %s, before tick %d", tickName(tl, end), wh.Tick)
		}
		v.first = wh.Tick
		v.point = "at " + tickName(tl, v.first)
	case AtEnd:
		v.first = end
		v.point = "at the end, " + tickName(tl, v.first)
	default:
		// The window is every tick from its start to its end, and the
		// world as it stands when it opens: after the last tick before
		// its start.
		if wh.HasFrom && wh.From > 0 {
			v.first = tl.at(wh.From - 1)
		}
		v.last = end
		if wh.HasTo {
			if msg := past(wh.To); msg != "" {
				return nil, msg
			}
			v.last = tl.at(wh.To)
		}
		v.candidate = v.first + 1
		return v, ""
	}
	v.last = v.first
	return v, ""
}
