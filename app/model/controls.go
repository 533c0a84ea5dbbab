package model

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/trace"
)

// MaxRunTicks bounds one "run until settled", which the page runs in
// slices, in a small cluster: enough for 10,000 pods to be created (about
// 35,000 ticks), and as many ticks as the engine keeps by default
// (engine.Config's MaxTraceTicks), so one run never discards ticks it
// made itself. A larger cluster's run may take twice as many ticks as
// the cluster holds objects (runBound): creating one takes about as many
// ticks as it makes objects (150,000 pods, their 750,000 Events: 604,000
// ticks), and only its latest ticks can be kept.
const MaxRunTicks = 50_000

// MaxJumpTicks bounds one jump to the next tick of a class, which the
// page runs in slices (StartJump, JumpSome).
const MaxJumpTicks = 20_000

// Status is what the controls bar shows.
type Status struct {
	Tick    int
	TimeMS  int64
	Clock   string
	Settled bool
	Horizon int
	// First is the earliest tick the run can return to: older ticks were
	// discarded to bound memory (0 when none were).
	First int
	// SettledAt is, once the cluster has settled, the clock of the last
	// tick that changed it ("10.650s"), and SettledTick that tick: the
	// run may have gone on with work that changed nothing, such as the
	// deployment controller's progress-deadline re-check at 601.000s.
	// Both are empty while work that could change it is left.
	SettledAt   string
	SettledTick int
	// NeverSettles is, after a run until settled that reached its bound,
	// what keeps the cluster busy for ever in a learner's words: "Never
	// settles: pod web-7d9c-x crashes and restarts (CrashLoopBackOff,
	// back-off 5m0s, 16 restarts)". Empty otherwise.
	NeverSettles string
}

// Status returns the current tick, time and whether the cluster settled.
func (m *Model) Status() Status {
	if m.eng == nil {
		return Status{Clock: trace.FormatTime(0)}
	}
	st := Status{Tick: m.eng.Tick(), TimeMS: m.eng.Now(), Clock: trace.FormatTime(m.eng.Now()), Settled: m.eng.Settled(), Horizon: max(m.Horizon, m.eng.Tick()), First: m.eng.FirstTick()}
	if st.Settled {
		tick, at := m.eng.LastChange()
		st.SettledAt, st.SettledTick = trace.FormatTime(at), tick
	} else if strings.HasPrefix(m.Notice, neverSettles) {
		// The Notice of a run that reached its bound, still standing: no
		// tick was taken since (Step, Seek, Run and Apply clear it). It
		// leads with engine.Busy's sentence, so Status (which every render
		// of the page asks for) reads it instead of computing it again.
		st.NeverSettles = m.Notice
		if i := strings.Index(m.Notice, ". Not settled after "); i > 0 {
			st.NeverSettles = m.Notice[:i]
		}
	}
	return st
}

// neverSettles begins engine.Busy's sentence for a cause that lasts.
const neverSettles = "Never settles:"

// seconds formats virtual milliseconds for a sentence: "10.650 s".
func seconds(ms int64) string { return engine.Seconds(ms) }

// settledRunNotice says when the cluster settled after a run: at the last
// tick that changed it, naming the later work that changed nothing.
//
//	Settled at 10.650 s (tick 39). Later work, like the deployment controller's progress-deadline re-check of deploy/web at 601.000 s, changes nothing.
func (m *Model) settledRunNotice() string {
	tick, at := m.eng.LastChange()
	out := fmt.Sprintf("Settled at %s (tick %d).", seconds(at), tick)
	if what, when, ok := m.eng.LaterWork(); ok {
		out += fmt.Sprintf(" Later work, like %s at %s, changes nothing.", what, seconds(when))
	}
	return out
}

// EndNotice is what Step says when nothing is left to do: "Settled:
// nothing is left to do; the last change was at 10.650 s (tick 39)."
func (m *Model) EndNotice() string {
	if m.eng == nil {
		return "Settled: nothing is left to do."
	}
	tick, at := m.eng.LastChange()
	if tick == 0 {
		return "Settled: nothing is left to do, and nothing has changed yet."
	}
	return fmt.Sprintf("Settled: nothing is left to do; the last change was at %s (tick %d).", seconds(at), tick)
}

func (m *Model) reached() { m.Horizon = max(m.Horizon, m.eng.Tick()) }

// Step takes one tick; it reports false when nothing is left to do.
func (m *Model) Step() (stepped bool) {
	defer m.guard("stepping")
	m.Notice = ""
	if m.eng == nil || m.eng.Step() == nil {
		m.Notice = m.EndNotice()
		return false
	}
	m.reached()
	return true
}

// Seek moves to tick n.
func (m *Model) Seek(n int) {
	defer m.guard("seeking")
	m.Notice = ""
	if m.eng == nil {
		return
	}
	m.eng.Seek(n)
	m.reached()
}

// RunSlice is how many ticks RunUntilSettled takes per RunSome call; a
// caller that drives RunSome itself can render between slices.
const RunSlice = 250

// RunUntilSettled steps until nothing is left to do, at most runBound
// ticks or an hour of virtual time, in one go.
func (m *Model) RunUntilSettled() {
	m.StartRun()
	for !m.RunSome(RunSlice) {
	}
}

// runBound is how many ticks a run until settled may take: MaxRunTicks,
// or twice the objects the cluster holds, which grows as a large cluster
// is created.
func (m *Model) runBound() int {
	return max(MaxRunTicks, 2*m.eng.Store().Len())
}

// StartRun begins a run until settled from the current tick.
func (m *Model) StartRun() {
	if m.eng != nil {
		m.runFrom, m.runUntil, m.Notice = m.eng.Tick(), m.eng.Now()+3_600_000, ""
	}
}

// ReplayTicks is how many ticks Seek(target) would compute.
func (m *Model) ReplayTicks(target int) int {
	if m.eng == nil {
		return 0
	}
	return m.eng.ReplayTicks(target)
}

// SeekSome moves toward target, computing at most n ticks, and reports
// whether it is over: at target, or the cluster settled before it (the
// Notice says so). Behind the current tick it first goes back to the
// nearest checkpoint (engine.Rewind); target may lie beyond the furthest
// tick reached.
func (m *Model) SeekSome(target, n int) (over bool) {
	over = true // also when the engine panics: the guard reports it and the seek ends
	defer m.guard("seeking")
	m.Notice = ""
	if m.eng == nil {
		return over
	}
	m.eng.Rewind(target)
	for range n {
		if m.eng.Tick() >= target {
			break
		}
		if m.eng.Step() == nil {
			m.reached()
			tick, at := m.eng.LastChange()
			m.Notice = fmt.Sprintf("The cluster settled before tick %d: nothing is left to do after tick %d, and the last change was at %s (tick %d).", target, m.eng.Tick(), seconds(at), tick)
			return true
		}
	}
	m.reached()
	return m.eng.Tick() >= target
}

// StopRun ends a run until settled before it is over, at the user's word.
func (m *Model) StopRun() {
	if m.eng != nil {
		m.Notice = fmt.Sprintf("Run stopped at tick %d (%s).", m.eng.Tick(), trace.FormatTime(m.eng.Now()))
	}
}

// RunSome continues the run by at most n ticks and reports whether it is
// over: settled, or stopped at its bound with the engine's explanation.
func (m *Model) RunSome(n int) (over bool) {
	over = true
	defer m.guard("running")
	if m.eng == nil {
		return over
	}
	before := m.eng.Tick()
	left := m.runBound() - (before - m.runFrom)
	err := m.eng.RunUntilSettled(engine.SettleLimits{MaxTicks: min(n, left), MaxTime: m.runUntil, Brief: true})
	m.reached()
	if err == nil {
		m.Notice = m.settledRunNotice()
		return over
	}
	if n < left && m.eng.Tick() > before {
		return false
	}
	// The run stops here: describe what keeps the cluster busy.
	ns := m.eng.NotSettled()
	err = ns
	switch {
	case ns.Reason == "":
		m.Notice = fmt.Sprintf("Not settled after %d ticks (%s): work is still scheduled (%s).", ns.Ticks, seconds(ns.Time), strings.Join(ns.Pending, ", ")+more(ns.More))
	default:
		// "Never settles: pod … crashes and restarts (…). Not settled
		// after 225 ticks at …: work is still scheduled (…)."
		m.Notice = err.Error()
	}
	return over
}

func more(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" and %d more", n)
}

// StepToClass steps until a tick with an effect of class c (at most
// MaxJumpTicks ticks); it reports whether it found one.
func (m *Model) StepToClass(c trace.Class) bool {
	m.StartJump()
	for !m.JumpSome(c, RunSlice) {
	}
	return m.Notice == ""
}

// StartJump begins a jump to the next tick with an effect of a class.
func (m *Model) StartJump() {
	if m.eng != nil {
		m.jumpFrom, m.Notice = m.eng.Tick(), ""
	}
}

// JumpSome continues the jump by at most n ticks and reports whether it
// is over: at a tick with an effect of class c, or with a Notice that
// says the cluster settled first or MaxJumpTicks ticks passed without one.
func (m *Model) JumpSome(c trace.Class, n int) (over bool) {
	over = true // also when the engine panics: the guard reports it
	defer m.guard("stepping")
	if m.eng == nil {
		return over
	}
	defer m.reached()
	for range n {
		if m.eng.Tick()-m.jumpFrom >= MaxJumpTicks {
			m.Notice = fmt.Sprintf("No %s effect in the next %d ticks.", c, MaxJumpTicks)
			return true
		}
		t := m.eng.Step()
		if t == nil {
			m.Notice = fmt.Sprintf("No further %s effect: the cluster settled.", c)
			return true
		}
		for _, e := range t.Effects {
			if e.Class == c {
				return true
			}
		}
	}
	return false
}

// Current is the last tick taken, or nil at tick 0.
func (m *Model) Current() *trace.Tick {
	if m.eng == nil || m.eng.Tick() == 0 {
		return nil
	}
	tr := m.eng.Trace()
	if len(tr) == 0 {
		return nil // at the first kept tick, after older ones were discarded
	}
	return tr[len(tr)-1]
}
