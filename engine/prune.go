package engine

// This file bounds the trace's pod versions: old ticks drop the Pod
// objects their effects wrote, and a replay rebuilds them when read.

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// prune drops the Pod objects of tick n's effects (Config.KeepPodVersions),
// unless the tick is a checkpoint's: a seek that restores a checkpoint
// makes its tick the current one, whose changes the page shows. A tick
// already pruned, or no longer kept, is left alone.
func (e *Engine) prune(n int) {
	if e.cfg.KeepPodVersions || n <= e.first || n > e.w.ticks {
		return
	}
	t := e.trace[n-e.first-1]
	if t.Pruned || e.checkpoints[e.checkpointAt(n)].tick == n {
		return
	}
	for i := range t.Effects {
		if ef := &t.Effects[i]; ef.Object.Kind == api.KindPod {
			ef.Before, ef.After = nil, nil
			t.Pruned = true
		}
	}
}

// FullTick is tick n with every object its effects wrote: the kept tick,
// or, when it was pruned, the same tick rebuilt by replaying from the
// checkpoint before it on a copy of that checkpoint's world (at most one
// checkpoint spacing of ticks; the engine itself does not move). It is nil
// for a tick that is not kept.
func (e *Engine) FullTick(n int) *trace.Tick {
	if n <= e.first || n > e.w.ticks {
		return nil
	}
	if t := e.trace[n-e.first-1]; !t.Pruned {
		return t
	}
	cp := e.checkpoints[e.checkpointAt(n-1)]
	r := &Engine{cfg: e.cfg, w: cp.w.restore(), first: cp.tick, injected: slices.Clone(e.injected), lastRewind: -1,
		checkpoints: []checkpoint{cp}}
	r.cfg.MaxTraceTicks, r.cfg.KeepPodVersions = -1, true
	for r.w.ticks < n {
		if r.Step() == nil {
			return nil
		}
	}
	return r.trace[len(r.trace)-1]
}
