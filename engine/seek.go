package engine

// This file is time travel: checkpoints of the world, going back to the nearest
// and replaying, and trimming the oldest ticks to bound memory.

import (
	"sort"

	"github.com/stateflow/stateflow/engine/trace"
)

type checkpoint struct {
	tick int
	w    *world
	// planned marks a checkpoint planned on the way back (planBackSteps).
	// The regular ones keep their places whatever the seeks were: the
	// next is spaced from the last regular one, and the trace is trimmed
	// only at one, so the kept ticks do not depend on where a learner
	// went back.
	planned bool
}

// lastRegular is the tick of the newest checkpoint that was not planned.
func (e *Engine) lastRegular() int {
	for i := len(e.checkpoints) - 1; i > 0; i-- {
		if !e.checkpoints[i].planned {
			return e.checkpoints[i].tick
		}
	}
	return e.checkpoints[0].tick
}

// CheckpointTicks are the ticks a seek can restore the world at, oldest
// first.
func (e *Engine) CheckpointTicks() []int {
	ticks := make([]int, len(e.checkpoints))
	for i, cp := range e.checkpoints {
		ticks[i] = cp.tick
	}
	return ticks
}

// trim discards the oldest ticks and checkpoints once the trace exceeds
// MaxTraceTicks, keeping at least MaxTraceTicks ticks and starting at a
// checkpoint so every kept tick can still be sought: it cuts at most once
// per checkpoint, when the checkpoint comes MaxTraceTicks behind the
// current tick.
func (e *Engine) trim() {
	limit := e.cfg.MaxTraceTicks
	if limit < 0 || len(e.trace) <= limit {
		return
	}
	target := e.w.ticks - limit
	i := sort.Search(len(e.checkpoints), func(i int) bool { return e.checkpoints[i].tick > target }) - 1
	for i > 0 && e.checkpoints[i].planned {
		i--
	}
	if i <= 0 {
		return
	}
	cp := e.checkpoints[i].tick
	e.trace = append([]*trace.Tick(nil), e.trace[cp-e.first:]...)
	e.checkpoints = append([]checkpoint(nil), e.checkpoints[i:]...)
	e.first = cp
}

// Rewind goes back to the nearest checkpoint at or before tick n, if n is
// behind the current tick, without replaying: Seek is Rewind, then Step
// until n. A caller that steps itself can replay in slices.
func (e *Engine) Rewind(n int) {
	n = max(n, e.first)
	if n >= e.w.ticks {
		return
	}
	i := e.checkpointAt(n)
	cp := e.checkpoints[i]
	e.w = cp.w.restore()
	e.trace = e.trace[:cp.tick-e.first]
	e.checkpoints = e.checkpoints[:i+1]
	e.planBackSteps(cp.tick, n)
	e.lastRewind = cp.tick
}

// planBackSteps plans checkpoints on the way from a restored checkpoint at
// tick from to the tick n a seek goes back to, closer and closer to n (at
// n−d/2, n−d/4, … for d = n−from, none nearer than CheckpointEvery), when
// the seek goes back from the same checkpoint as the one before it: a
// learner walking back through the same stretch of ticks. The step backs
// after it then replay a few hundred ticks each, not up to d again: going
// back k ticks from n replays at most max(2·CheckpointEvery, k). finish
// takes them as the replay reaches them (also when a sliced seek is
// interrupted and the learner steps or runs on); the next seek back
// replaces the plan.
//
// A first seek back plans none, and neither does a short replay (under
// 8·CheckpointEvery ticks): each checkpoint costs a copy of the world's
// queues and, later, of every component the replay changes, which would
// double a single seek's cost.
func (e *Engine) planBackSteps(from, n int) {
	e.planned = e.planned[:0]
	if from != e.lastRewind || n-from < 8*e.cfg.CheckpointEvery {
		return
	}
	for d := (n - from) / 2; d >= e.cfg.CheckpointEvery; d /= 2 {
		e.planned = append(e.planned, n-d)
	}
}

// takePlanned takes the checkpoint planned at the current tick, if any.
func (e *Engine) takePlanned() {
	for len(e.planned) > 0 && e.planned[0] <= e.w.ticks {
		at := e.planned[0]
		e.planned = e.planned[1:]
		if at == e.w.ticks && at > e.checkpoints[len(e.checkpoints)-1].tick {
			e.checkpoints = append(e.checkpoints, checkpoint{at, e.w.checkpoint(), true})
		}
	}
}

// ReplayTicks is how many ticks Seek(n) computes: from the nearest
// checkpoint when n is behind the current tick, else from the current
// tick.
func (e *Engine) ReplayTicks(n int) int {
	n = max(n, e.first)
	if n >= e.w.ticks {
		return n - e.w.ticks
	}
	return n - e.checkpoints[e.checkpointAt(n)].tick
}

// checkpointAt is the index of the last checkpoint at or before tick n.
func (e *Engine) checkpointAt(n int) int {
	return sort.Search(len(e.checkpoints), func(i int) bool { return e.checkpoints[i].tick > n }) - 1
}

// Seek moves to just after tick n: forward by stepping, backward by
// restoring the nearest checkpoint at or before n and replaying. A tick
// before FirstTick lands on FirstTick.
func (e *Engine) Seek(n int) {
	n = max(n, e.first)
	e.Rewind(n)
	for e.w.ticks < n {
		if e.Step() == nil {
			return
		}
	}
}

// StepBack returns to the state just after the previous tick.
func (e *Engine) StepBack() { e.Seek(e.w.ticks - 1) }
