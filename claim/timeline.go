package claim

// This file runs the scenario once to learn its ticks: when each one
// happened, what it did, and where the check ends. The claims are then
// read in a second, identical run (the engine is deterministic), which
// knows beforehand which tick "at 30s" is.

import (
	"sort"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/trace"
)

// Bounds of a check's run: it stops when the scenario settles, or after
// MaxTicks ticks, or once its next tick is later than an hour of virtual
// time (or than the latest time a claim names, if later).
const (
	MaxTicks = 20_000
	MaxMS    = 3_600_000
)

// timeline is the run's ticks.
type timeline struct {
	ticks []*trace.Tick // tick n is ticks[n-1]
	// settled says the run ended because nothing was left to do.
	settled bool
}

// run simulates cfg until it settles or passes the bounds: at least
// minTick ticks, and no tick after untilMS once past them.
func run(cfg engine.Config, minTick int, untilMS int64) (*timeline, error) {
	cfg.MaxTraceTicks = -1 // every tick is read back
	e, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	tl := &timeline{}
	for e.Tick() < MaxTicks {
		if next, ok := e.NextTime(); ok && next > untilMS && e.Tick() >= minTick {
			break
		}
		if e.Step() == nil {
			tl.settled = true
			break
		}
	}
	tl.ticks = e.Trace()
	return tl, nil
}

// end is the last tick.
func (tl *timeline) end() int { return len(tl.ticks) }

// tick is tick n (1-based).
func (tl *timeline) tick(n int) *trace.Tick { return tl.ticks[n-1] }

// at is the tick whose world holds at virtual time ms: the last tick at
// or before it (0 when none is).
func (tl *timeline) at(ms int64) int {
	return sort.Search(len(tl.ticks), func(i int) bool { return tl.ticks[i].Time > ms })
}

// timeOf is tick n's virtual time (0 for tick 0).
func (tl *timeline) timeOf(n int) int64 {
	if n == 0 {
		return 0
	}
	return tl.tick(n).Time
}

// changes reports whether tick n wrote anything: only then can what
// kubectl reads differ from the tick before.
func (tl *timeline) changes(n int) bool { return n > 0 && len(tl.tick(n).Effects) > 0 }
