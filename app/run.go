package app

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
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
	// target is the tick a sliced seek goes to (a shared link's tick);
	// 0 means run until settled.
	target int
}

// toggleRun starts a run until settled, or stops the one going on.
func (p *Playground) toggleRun(ctx app.Context) {
	if p.running {
		p.stopPlay()
		return
	}
	p.stopPlay()
	p.m.StartRun()
	p.startRun(ctx, 0)
}

// startRun runs in slices until settled (target 0) or until target.
func (p *Playground) startRun(ctx app.Context, target int) {
	run, cancel := context.WithCancel(context.Background())
	p.running, p.run = true, runState{cancel: cancel, shown: time.Now(), target: target}
	p.runNext(ctx, run)
}

// runNext schedules the next slice: off the UI goroutine the browser gets
// a turn (Yield) to handle input, then the slice runs on the UI goroutine
// (Dispatch) and schedules the one after it. Most slices prevent go-app's
// render; one now and then shows the tick reached. Nothing waits on a
// dispatch, so go-app's test engine can run a whole run (ConsumeAll).
func (p *Playground) runNext(ctx app.Context, run context.Context) {
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
func (p *Playground) redrawDue() bool {
	wait := max(runRedraw, runRenderShare*p.run.renderCost)
	if time.Since(p.run.shown) < wait {
		return false
	}
	p.run.shown, p.run.rendering = time.Now(), true
	return true
}

// runSlice advances the run for about runBudget and reports whether it is
// over (settled, at its bound, or at its target).
func (p *Playground) runSlice() bool {
	start := time.Now()
	if p.run.rendering {
		// The render happened between the last slice and this one.
		p.run.renderCost, p.run.rendering = start.Sub(p.run.shown), false
	}
	for time.Since(start) < runBudget {
		var over bool
		if p.run.target > 0 {
			over = p.m.SeekSome(p.run.target, runChunk)
		} else {
			over = p.m.RunSome(runChunk)
		}
		if over {
			p.running, p.run = false, runState{}
			return true
		}
	}
	return false
}
