package engine

// This file runs the engine until a time, or until nothing is left to do,
// and says what keeps it busy when it stops at its bounds.

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/order"
	"github.com/stateflow/stateflow/engine/trace"
)

// NextTime returns the virtual time of the next agenda entry, or false.
func (e *Engine) NextTime() (int64, bool) {
	if e.w.agenda.Len() == 0 {
		return 0, false
	}
	return e.w.agenda.NextAt(), true
}

// RunUntil takes every tick due at or before virtual time ms and leaves
// the clock at ms.
func (e *Engine) RunUntil(ms int64) {
	for {
		if e.runInjected() != nil {
			continue
		}
		if e.w.agenda.Len() == 0 || e.w.agenda.NextAt() > ms {
			break
		}
		e.process(e.w.agenda.pop())
	}
	if ms > e.w.now {
		e.w.sendTraffic(e.cfg.Traffic, ms)
		e.w.now = ms
		e.w.store.SetNow(ms)
		e.w.expireEvents()
	}
}

// SettleLimits bound RunUntilSettled.
type SettleLimits struct {
	// MaxTicks is the most ticks to take (default 1,000,000).
	MaxTicks int
	// MaxTime is the latest virtual time in ms to run to (default 1 hour
	// after the current time).
	MaxTime int64
	// Brief asks, at the limits, for a NotSettledError with only Ticks and
	// Time: a caller that runs in slices asks again and describes the
	// pending work (NotSettled) only when it stops for good.
	Brief bool
}

// NotSettledError says a run hit its bound while work was still pending.
type NotSettledError struct {
	Ticks int
	Time  int64
	// Reason says in a learner's words what keeps the cluster busy
	// (Engine.Busy): "Never settles: pod web-7d9c-x crashes and restarts
	// (CrashLoopBackOff, back-off 5m0s, 16 restarts)"; empty when the
	// work still scheduled is an ordinary rollout still going.
	Reason string
	// Pending describes the earliest queued work (at most three items,
	// earliest first); More counts the rest.
	Pending []string
	More    int
}

// Error leads with the Reason, then gives the engine's detail.
func (e *NotSettledError) Error() string {
	pending := strings.Join(e.Pending, ", ")
	if e.More > 0 {
		pending += fmt.Sprintf(" and %d more", e.More)
	}
	if e.Reason != "" {
		return fmt.Sprintf("%s. Not settled after %d ticks at %s: work is still scheduled (%s).", e.Reason, e.Ticks, trace.FormatTime(e.Time), pending)
	}
	return fmt.Sprintf("not settled after %d ticks at %s: work is still scheduled (%s)", e.Ticks, trace.FormatTime(e.Time), pending)
}

// RunUntilSettled steps until nothing is left to do, or returns a
// *NotSettledError at the limits.
func (e *Engine) RunUntilSettled(lim SettleLimits) error {
	if lim.MaxTicks <= 0 {
		lim.MaxTicks = 1_000_000
	}
	if lim.MaxTime <= 0 {
		lim.MaxTime = e.w.now + 3_600_000
	}
	start := e.w.ticks
	for {
		if e.runInjected() != nil {
			continue
		}
		if e.w.agenda.Len() == 0 {
			return nil
		}
		if e.w.ticks-start >= lim.MaxTicks || e.w.agenda.NextAt() > lim.MaxTime {
			if lim.Brief {
				return &NotSettledError{Ticks: e.w.ticks, Time: e.w.now}
			}
			return e.NotSettled()
		}
		e.process(e.w.agenda.pop())
	}
}

// pendingShown is how many queued items a NotSettledError names.
const pendingShown = 3

// NotSettled describes the queued keys: the earliest pendingShown by
// time (ties by description) and how many more there are. A paused run
// of a large cluster stops here often, so only the earliest are
// formatted.
func (e *Engine) NotSettled() *NotSettledError {
	var ats []int
	for _, m := range []map[workKey]pendingEntry{e.w.pending, e.w.waiting} {
		for _, pe := range m {
			ats = append(ats, int(pe.at))
		}
	}
	slices.Sort(ats) // []int: the sort app.wasm already links for ints
	err := &NotSettledError{Ticks: e.w.ticks, Time: e.w.now, Reason: e.Busy()}
	if len(ats) == 0 {
		return err
	}
	cut := int64(ats[min(pendingShown, len(ats))-1])
	type p struct {
		at   int64
		desc string
	}
	var ps []p
	for _, m := range []map[workKey]pendingEntry{e.w.pending, e.w.waiting} {
		for wk, pe := range m {
			if pe.at <= cut {
				ps = append(ps, p{pe.at, fmt.Sprintf("%s %s at %s", e.w.comps[wk.comp].Name(), wk.key.Short(), trace.FormatTime(pe.at))})
			}
		}
	}
	order.SortFunc(ps, func(a, b p) int { return cmp.Or(cmp.Compare(a.at, b.at), strings.Compare(a.desc, b.desc)) })
	for _, x := range ps[:min(pendingShown, len(ps))] {
		err.Pending = append(err.Pending, x.desc)
	}
	err.More = len(ats) - len(err.Pending)
	return err
}
