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
}

// toggleRun starts a run until settled, or stops the one going on.
func (p *Playground) toggleRun(ctx app.Context) {
	if p.running {
		p.stopPlay()
		return
	}
	p.stopPlay()
	p.m.StartRun()
	run, cancel := context.WithCancel(context.Background())
	p.running, p.run = true, runState{cancel: cancel, shown: time.Now()}
	ctx.Async(func() { p.runSlices(ctx, run) })
}

// runSlices drives the run off the UI goroutine: each slice runs on the UI
// goroutine (Dispatch), then the browser gets a turn (Yield) to handle
// input before the next slice. Most slices prevent go-app's render; one
// now and then shows the tick reached.
func (p *Playground) runSlices(ctx app.Context, run context.Context) {
	for run.Err() == nil {
		over := make(chan bool, 1)
		ctx.Dispatch(func(ctx app.Context) {
			if run.Err() != nil {
				over <- true
				return
			}
			done := p.runSlice()
			if !done && !p.redrawDue() {
				ctx.PreventUpdate()
			}
			over <- done
		})
		if <-over {
			return
		}
		p.bridge.Yield()
	}
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
// over (settled or at its bound).
func (p *Playground) runSlice() bool {
	start := time.Now()
	if p.run.rendering {
		// The render happened between the last slice and this one.
		p.run.renderCost, p.run.rendering = start.Sub(p.run.shown), false
	}
	for time.Since(start) < runBudget {
		if p.m.RunSome(runChunk) {
			p.running, p.run = false, runState{}
			return true
		}
	}
	return false
}
