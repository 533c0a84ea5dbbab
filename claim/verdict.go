package claim

// This file follows one claim through the run: which ticks it reads,
// and what the facts read at each decides.

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/trace"
)

// verdict is one claim's check.
type verdict struct {
	w *Written
	// first and last are the ticks it reads: every tick between them
	// that changes the cluster (or every tick, when a fact reads the
	// trace), and first itself.
	first, last int
	// fromMS is the window's start: a trace fact is false at a tick
	// before it.
	fromMS int64
	// point says, for a claim read at one tick, which moment that tick
	// stands for ("at 10s, after tick 33 (2.750s)").
	point string
	// candidate is the first tick of the window itself, the first that
	// may turn facts true for in the same tick and in the same write
	// (first is the world as the window opens).
	candidate int
	done      bool
	failure   string
	// prev is each fact's truth at the tick read before; turned the
	// first tick (from candidate on) at which each turned true.
	prev   []bool
	turned []int
	// lastRead is what the facts read at the last tick read, for a
	// claim that waits for a tick that never comes.
	lastRead string
}

// traceFacts reports whether a fact of the claim reads the trace.
func (v *verdict) traceFacts() bool {
	for i := range v.w.Claim.Facts {
		if v.w.Claim.Facts[i].traceFact() {
			return true
		}
	}
	return false
}

// reads reports whether the claim reads tick t.
func (v *verdict) reads(t int, tl *timeline) bool {
	if v.done || t < v.first || t > v.last {
		return false
	}
	return t == v.first || tl.changes(t) || v.traceFacts()
}

// reading is what the facts read at one tick.
type reading struct {
	tick   int
	truths []bool
	values []string
}

// all reports whether every fact is true.
func (r *reading) all() bool {
	for _, t := range r.truths {
		if !t {
			return false
		}
	}
	return true
}

// observe decides what the reading at one tick means for the claim.
func (v *verdict) observe(r *reading, tl *timeline, wrote func(t int) (int, string)) {
	c := v.w.Claim
	v.lastRead = v.describe(r, tl, nil)
	switch c.When.Timing {
	case AtStep, AtTime, AtTick, AtEnd:
		if !r.all() {
			v.fail("false %s: %s", v.point, v.facts(r, falseOnly))
		}
		v.done = true
	case Always:
		if !r.all() {
			v.fail("false %s", v.describe(r, tl, falseOnly))
		}
	case Never:
		if r.all() {
			v.fail("true %s", v.describe(r, tl, nil))
		}
	case Sometime:
		if r.all() {
			v.done = true
		}
	case SameTick, SameWrite:
		v.together(r, tl, wrote)
	}
}

// together is in the same tick (or write): a tick from candidate on at
// which every fact turns from false to true.
func (v *verdict) together(r *reading, tl *timeline, wrote func(t int) (int, string)) {
	if v.prev == nil {
		v.prev = make([]bool, len(r.truths))
		v.turned = make([]int, len(r.truths))
	}
	turnedAll := r.tick >= v.candidate
	for i, t := range r.truths {
		trace := v.w.Claim.Facts[i].traceFact()
		turns := t && (trace || !v.prev[i])
		if turns && r.tick >= v.candidate && v.turned[i] == 0 {
			v.turned[i] = r.tick
		}
		turnedAll = turnedAll && turns
		v.prev[i] = t
	}
	if !turnedAll {
		return
	}
	if v.w.Claim.When.Timing == SameWrite {
		if n, what := wrote(r.tick); n != 1 {
			v.fail("they turn true together at %s, but in %d writes of %s, not one", tickName(tl, r.tick), n, what)
			return
		}
	}
	v.done = true
}

// finish closes a claim the run ended before it decided.
func (v *verdict) finish(tl *timeline) {
	if v.done {
		return
	}
	c := v.w.Claim
	window := fmt.Sprintf("from %s to %s", tickName(tl, v.first), tickName(tl, v.last))
	switch c.When.Timing {
	case Sometime:
		v.fail("false at every tick %s; the last read %s", window, v.lastRead)
	case SameTick, SameWrite:
		var when []string
		for i, t := range v.turned {
			f := c.Facts[i].String()
			if t == 0 {
				when = append(when, f+" never turns true")
			} else {
				when = append(when, fmt.Sprintf("%s turns true first at %s", f, tickName(tl, t)))
			}
		}
		v.fail("no tick %s turns them true together: %s", window, strings.Join(when, "; "))
	}
	v.done = true
}

func (v *verdict) fail(format string, args ...any) {
	if v.failure == "" {
		v.failure = fmt.Sprintf(format, args...)
	}
	v.done = true
}

// falseOnly picks the facts a failure names: the false ones.
func falseOnly(r *reading, i int) bool { return !r.truths[i] }

// describe says what the facts read at the reading's tick ("at tick 57
// (20.300s): count pods -l app=web reads 6"), of those keep picks (all
// when nil).
func (v *verdict) describe(r *reading, tl *timeline, keep func(*reading, int) bool) string {
	return fmt.Sprintf("at %s: %s", tickName(tl, r.tick), v.facts(r, keep))
}

// facts says what the facts keep picks read (all when nil).
func (v *verdict) facts(r *reading, keep func(*reading, int) bool) string {
	var parts []string
	for i := range v.w.Claim.Facts {
		if keep != nil && !keep(r, i) {
			continue
		}
		f := &v.w.Claim.Facts[i]
		if f.traceFact() {
			parts = append(parts, r.values[i])
			continue
		}
		parts = append(parts, fmt.Sprintf("%s reads %s", f.Subject, show(r.values[i])))
	}
	return strings.Join(parts, "; ")
}

// tickName is "tick 57 (20.300s)".
func tickName(tl *timeline, t int) string {
	return fmt.Sprintf("tick %d (%s)", t, trace.FormatTime(tl.timeOf(t)))
}
