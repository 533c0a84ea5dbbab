package model

import (
	"fmt"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/trace"
)

// MaxRunTicks bounds one "run until settled", which the page runs in
// slices: enough for 10,000 pods to be created (about 35,000 ticks), and
// as many ticks as the engine keeps by default (engine.Config's
// MaxTraceTicks), so one run never discards ticks it made itself.
const MaxRunTicks = 50_000

// MaxJumpTicks bounds one jump to the next tick of a class, which runs in
// one go.
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
}

// Status returns the current tick, time and whether the cluster settled.
func (m *Model) Status() Status {
	if m.eng == nil {
		return Status{Clock: trace.FormatTime(0)}
	}
	return Status{Tick: m.eng.Tick(), TimeMS: m.eng.Now(), Clock: trace.FormatTime(m.eng.Now()), Settled: m.eng.Settled(), Horizon: max(m.Horizon, m.eng.Tick()), First: m.eng.FirstTick()}
}

func (m *Model) reached() { m.Horizon = max(m.Horizon, m.eng.Tick()) }

// Step takes one tick; it reports false when nothing is left to do.
func (m *Model) Step() (stepped bool) {
	defer m.guard("stepping")
	m.Notice = ""
	if m.eng == nil || m.eng.Step() == nil {
		m.Notice = "Settled: no component has anything left to do."
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

// RunUntilSettled steps until nothing is left to do, at most MaxRunTicks
// ticks or an hour of virtual time, in one go.
func (m *Model) RunUntilSettled() {
	m.StartRun()
	for !m.RunSome(RunSlice) {
	}
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
			m.Notice = fmt.Sprintf("The cluster settled at tick %d, before tick %d.", m.eng.Tick(), target)
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
	left := MaxRunTicks - (before - m.runFrom)
	err := m.eng.RunUntilSettled(engine.SettleLimits{MaxTicks: min(n, left), MaxTime: m.runUntil})
	m.reached()
	switch {
	case err == nil:
		m.Notice = fmt.Sprintf("Settled at tick %d (%s).", m.eng.Tick(), trace.FormatTime(m.eng.Now()))
	case n < left && m.eng.Tick() > before:
		return false
	default:
		m.Notice = err.Error()
	}
	return over
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
