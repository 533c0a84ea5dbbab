package app

import (
	"context"
	"time"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// runBudget is how long one slice of a run until settled may take before
// the page renders the tick it reached and gives the browser a turn. It is
// a frame's worth, so the page keeps answering clicks (Stop) while a
// scenario that never settles runs up to its bound.
const runBudget = 12 * time.Millisecond

// runRedraw is how often a run shows the tick it reached. Rendering the
// page costs several times a slice, so most slices skip it.
const runRedraw = 250 * time.Millisecond

// runChunk is how many ticks the view-model advances between looks at the
// clock inside one slice.
const runChunk = 16

// toggleRun starts a run until settled, or stops the one going on.
func (p *Playground) toggleRun(ctx app.Context) {
	if p.running {
		p.stopPlay()
		return
	}
	p.stopPlay()
	p.m.StartRun()
	run, cancel := context.WithCancel(context.Background())
	p.running, p.cancelRun, p.runShown = true, cancel, time.Now()
	ctx.Async(func() { p.runSlices(ctx, run) })
}

// runSlices drives the run off the UI goroutine: each slice runs on the UI
// goroutine (Dispatch), then the browser gets a turn (Yield) to handle
// input before the next slice; every runRedraw the page renders the tick
// reached.
func (p *Playground) runSlices(ctx app.Context, run context.Context) {
	for run.Err() == nil {
		over := make(chan bool, 1)
		ctx.Dispatch(func(ctx app.Context) {
			if run.Err() != nil {
				over <- true
				return
			}
			done := p.runSlice()
			if !done && time.Since(p.runShown) < runRedraw {
				ctx.PreventUpdate()
			} else {
				p.runShown = time.Now()
			}
			over <- done
		})
		if <-over {
			return
		}
		p.bridge.Yield()
	}
}

// runSlice advances the run for about runBudget and reports whether it is
// over (settled or at its bound).
func (p *Playground) runSlice() bool {
	start := time.Now()
	for time.Since(start) < runBudget {
		if p.m.RunSome(runChunk) {
			p.running, p.cancelRun = false, nil
			return true
		}
	}
	return false
}
