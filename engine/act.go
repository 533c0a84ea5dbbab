package engine

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// injected is an action a user took interactively, right after tick after.
// Keying it by tick (not time) makes replays from a checkpoint exact.
type injected struct {
	after  int
	action Action
}

// Act performs an action now, as the next tick: a kubectl command typed in
// the console, for example. If the engine is not at the end of its trace,
// the future is rewritten from here. It returns the tick.
func (e *Engine) Act(component string, object api.Key, run func(tick reconcile.Tick) error) *trace.Tick {
	return e.inject(Action{At: e.w.now, Component: component, Object: object, Run: run})
}

// Start is Act for a command that goes on after its first tick (kubectl
// drain typed in the console): the tick returned is its first step; its
// later steps come as the simulation moves on (Client reads its state).
func (e *Engine) Start(component string, object api.Key, c Client) *trace.Tick {
	return e.inject(Action{At: e.w.now, Component: component, Object: object, Client: c})
}

// inject performs a as the next tick, rewriting the future.
func (e *Engine) inject(a Action) *trace.Tick {
	n := e.w.ticks
	kept := e.injected[:0]
	for _, in := range e.injected {
		if in.after < n {
			kept = append(kept, in)
		}
	}
	e.injected = kept
	for len(e.checkpoints) > 1 && e.checkpoints[len(e.checkpoints)-1].tick > n {
		e.checkpoints = e.checkpoints[:len(e.checkpoints)-1]
	}
	e.injected = append(e.injected, injected{after: n, action: a})
	e.trace = e.trace[:n-e.first]
	return e.runInjected()
}

// runInjected runs the injected action due after the current tick, if any.
func (e *Engine) runInjected() *trace.Tick {
	for _, in := range e.injected {
		if in.after == e.w.ticks {
			return e.finish(e.run(in.action))
		}
	}
	return nil
}
