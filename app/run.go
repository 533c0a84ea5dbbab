package app

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"github.com/stateflow/stateflow/engine/trace"
)

// runBudget is how long one slice of a run until settled may take before
// the browser gets a turn, so the page keeps answering clicks (Stop) while
// a scenario that never settles runs up to its bound.
const runBudget = 40 * time.Millisecond

// runRedraw is how often, at most, a run shows the tick it reached.
// Rendering a large cluster costs more than a slice, so a run also waits
// runRenderShare times the last render's cost between renders: at most a
// fifth of a run goes to showing it.
const (
	runRedraw      = 250 * time.Millisecond
	runRenderShare = 4
)

// runChunk is how many ticks the view-model advances between looks at the
// clock inside one slice.
const runChunk = 16

// runState is the progress of a run until settled, touched only on the UI
// goroutine.
type runState struct {
	cancel     context.CancelFunc
	shown      time.Time     // when the run last asked for a render
	renderCost time.Duration // how long the last render took
	rendering  bool          // the last slice asked for a render
	// seek says the run goes to target (a shared link's tick, a seek that
	// replays many ticks) rather than until settled.
	seek   bool
	target int
	// jump is the class of effect a sliced jump looks for ("" if none).
	jump trace.Class
}

// toggleRun starts a run until settled, or stops the one going on.
func (p *page) toggleRun(ctx app.Context) {
	if p.running {
		p.stopPlay()
		return
	}
	p.stopPlay()
	p.m.StartRun()
	p.startRun(ctx, runState{})
}

// syncReplayTicks is the most ticks a seek computes at once (about 0.1 s
// in the page); a seek that replays more (far back on a large cluster)
// runs in slices.
const syncReplayTicks = 300

// seekTo moves to tick n: at once when that replays few ticks, else in
// slices like a run, which the Stop button can end.
func (p *page) seekTo(ctx app.Context, n int) {
	p.stopPlay()
	if p.m.ReplayTicks(n) <= syncReplayTicks {
		p.m.Seek(n)
		return
	}
	p.startRun(ctx, runState{seek: true, target: n})
}

// stepBack goes back from the tick shown now: in the story to the
// previous tick that changed something, else one tick.
func (p *page) stepBack(ctx app.Context) {
	tick := p.m.Status().Tick
	switch {
	case tick == 0:
	case p.everyTick:
		p.seekTo(ctx, tick-1)
	default:
		p.seekTo(ctx, p.m.PrevVisible())
	}
}

// jumpSyncTicks is how many ticks a jump to the next tick of a class
// looks at before the first render; a longer search (a large cluster, a
// class that never comes) continues in slices.
const jumpSyncTicks = 500

// stepTo jumps to the next tick with an effect of class c.
func (p *page) stepTo(ctx app.Context, c trace.Class) {
	p.stopPlay()
	p.m.StartJump()
	if !p.m.JumpSome(c, jumpSyncTicks) {
		p.startRun(ctx, runState{jump: c})
	}
}

// startRun runs in slices as st says: until settled, or to st.target.
func (p *page) startRun(ctx app.Context, st runState) {
	run, cancel := context.WithCancel(context.Background())
	st.cancel, st.shown = cancel, time.Now()
	p.running, p.run = true, st
	p.runNext(ctx, run)
}

// runNext schedules the next slice: off the UI goroutine the browser gets
// a turn (Yield) to handle input, then the slice runs on the UI goroutine
// (Dispatch) and schedules the one after it. Most slices prevent go-app's
// render; one now and then shows the tick reached. Nothing waits on a
// dispatch, so go-app's test engine can run a whole run (ConsumeAll).
func (p *page) runNext(ctx app.Context, run context.Context) {
	ctx.Async(func() {
		p.bridge.Yield()
		ctx.Dispatch(func(ctx app.Context) {
			if run.Err() != nil {
				ctx.PreventUpdate()
				return
			}
			if p.runSlice() {
				return
			}
			if !p.redrawDue() {
				ctx.PreventUpdate()
			}
			p.runNext(ctx, run)
		})
	})
}

// redrawDue reports whether the slice that just ran should be shown, and
// then notes when it asked.
func (p *page) redrawDue() bool {
	wait := max(runRedraw, runRenderShare*p.run.renderCost)
	if time.Since(p.run.shown) < wait {
		return false
	}
	p.run.shown, p.run.rendering = time.Now(), true
	return true
}

// runSlice advances the run for about runBudget and reports whether it is
// over (settled, at its bound, or at its target).
func (p *page) runSlice() bool {
	start := time.Now()
	if p.run.rendering {
		// The render happened between the last slice and this one.
		p.run.renderCost, p.run.rendering = start.Sub(p.run.shown), false
	}
	for time.Since(start) < runBudget {
		var over bool
		switch {
		case p.run.jump != 0:
			over = p.m.JumpSome(p.run.jump, runChunk)
		case p.run.seek:
			over = p.m.SeekSome(p.run.target, runChunk)
		default:
			over = p.m.RunSome(runChunk)
		}
		if over {
			p.run.cancel()
			p.running, p.run = false, runState{}
			return true
		}
	}
	return false
}
