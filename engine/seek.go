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
}

func (e *Engine) trim() {
	limit := e.cfg.MaxTraceTicks
	if limit < 0 || len(e.trace) <= limit+limit/4 {
		return
	}
	target := e.w.ticks - limit
	i := sort.Search(len(e.checkpoints), func(i int) bool { return e.checkpoints[i].tick > target }) - 1
	if i <= 0 {
		return
	}
	cp := e.checkpoints[i].tick
	e.trace = append([]*trace.Tick(nil), e.trace[cp-e.first:]...)
	e.checkpoints = append([]checkpoint(nil), e.checkpoints[i:]...)
	e.first = cp
}

func (e *Engine) Rewind(n int) {
	n = max(n, e.first)
	if n >= e.w.ticks {
		return
	}
	i := e.checkpointAt(n)
	cp := e.checkpoints[i]
	e.w = cp.w.clone()
	e.trace = e.trace[:cp.tick-e.first]
	e.checkpoints = e.checkpoints[:i+1]
}

func (e *Engine) ReplayTicks(n int) int {
	n = max(n, e.first)
	if n >= e.w.ticks {
		return n - e.w.ticks
	}
	return n - e.checkpoints[e.checkpointAt(n)].tick
}

func (e *Engine) checkpointAt(n int) int {
	return sort.Search(len(e.checkpoints), func(i int) bool { return e.checkpoints[i].tick > n }) - 1
}

func (e *Engine) Seek(n int) {
	n = max(n, e.first)
	e.Rewind(n)
	for e.w.ticks < n {
		if e.Step() == nil {
			return
		}
	}
}

func (e *Engine) StepBack() { e.Seek(e.w.ticks - 1) }
