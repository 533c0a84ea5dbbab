package engine

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// A Client is a user's command that goes on after its first tick, on the
// virtual clock, as kubectl drain does: it evicts, waits 5 s after a
// refusal, polls until each pod is gone. Each of its steps is a tick of
// its own. A client keeps its whole state in itself, so Clone gives a
// checkpoint its own copy.
type Client interface {
	// Step performs one step at the tick's time and returns how long
	// until the next, in virtual milliseconds (≤ 0: it has finished),
	// and what the command printed in this step (the tick's Output).
	// Its error, if any, is the tick's.
	Step(tick reconcile.Tick) (next int64, printed string, err error)
	// Waiting says, in a learner's words, what the client is waiting
	// for between its steps ("kubectl drain node-1 retries the eviction
	// of default/web-b every 5 s").
	Waiting() string
	// Clone returns an independent copy.
	Clone() Client
}

// runningClient is a client started by an action, with the actor and
// object of its ticks.
type runningClient struct {
	started   int // the tick of its first step
	component string
	object    api.Key
	client    Client
	done      bool
}

func cloneClients(in []runningClient) []runningClient {
	out := make([]runningClient, len(in))
	for i, r := range in {
		out[i] = r
		if !r.done {
			out[i].client = r.client.Clone()
		}
	}
	return out
}

// startClient runs an action's client's first step as this tick and
// schedules the next.
func (w *world) startClient(a Action, tick *liveTick) error {
	w.clients = append(w.clients, runningClient{started: w.ticks + 1, component: a.Component, object: a.Object, client: a.Client.Clone()})
	return w.stepClient(len(w.clients)-1, tick)
}

func (w *world) stepClient(i int, tick *liveTick) error {
	next, printed, err := w.clients[i].client.Step(tick)
	tick.tick.SetOutput(printed)
	if next > 0 {
		w.schedule(item{at: w.now + next, kind: kindClient, action: i})
	} else {
		w.clients[i].done = true
	}
	return err
}

// runClient takes a client's next step as a tick.
func (e *Engine) runClient(i int) *trace.Tick {
	r := e.w.clients[i]
	t := &trace.Tick{Seq: e.w.ticks + 1, Time: e.w.now, Component: r.component, Object: r.object}
	tick := &liveTick{w: e.w, tick: t, name: r.component}
	_, err := safely(func() (reconcile.Result, error) { return reconcile.Result{}, e.w.stepClient(i, tick) })
	if err != nil {
		t.SetErr(err.Error())
	}
	return t
}

// Client returns the client whose first step was tick started, as of
// the current tick, and whether it is still running, for a console that
// shows what the command printed so far. It must not be changed.
func (e *Engine) Client(started int) (c Client, running, ok bool) {
	for _, r := range e.w.clients {
		if r.started == started {
			return r.client, !r.done, true
		}
	}
	return nil, false, false
}

// clientsWaiting lists what the running clients wait for.
func (e *Engine) clientsWaiting() []string {
	var out []string
	for _, r := range e.w.clients {
		if !r.done {
			out = append(out, r.client.Waiting())
		}
	}
	return out
}
