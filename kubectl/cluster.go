package kubectl

import (
	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/timezone"
	"github.com/stateflow/stateflow/engine/trace"
)

// Cluster is what kubectl needs of the simulated control plane, and all
// it may use: reads at the current tick, a write as a tick of its own, and
// time moving on for the commands that wait (rollout status, get --watch).
// *engine.Engine is one.
type Cluster interface {
	// Store is the API server's objects at the current tick.
	Store() apiserver.Reader
	// Tick is the current tick; Now its virtual time in milliseconds.
	Tick() int
	Now() int64
	// Trace is the ticks taken so far (rollout history and why read it);
	// FirstTick is the tick before the first one kept, and FullTick a
	// kept tick with the pod versions a long run pruned.
	Trace() []*trace.Tick
	FirstTick() int
	FullTick(n int) *trace.Tick
	// Act performs a write as a tick of its own, by actor, about object.
	Act(actor string, object api.Key, run func(tick reconcile.Tick) error) *trace.Tick
	// Start performs a command that goes on after its first tick (kubectl
	// drain) and Client reads its state as time moves on, by the tick of
	// its first step.
	Start(actor string, object api.Key, c engine.Client) *trace.Tick
	Client(started int) (c engine.Client, running, ok bool)
	// Step takes one tick (delivering what is due before it, however
	// late it comes) and StepBack undoes it; NextTime is when the next
	// delivery or tick is due; RunUntil and RunUntilSettled move time on;
	// Settled says nothing is left to do.
	Step() *trace.Tick
	StepBack()
	NextTime() (int64, bool)
	RunUntil(ms int64)
	RunUntilSettled(lim engine.SettleLimits) error
	Settled() bool
	// TimeZones loads the zones CronJobs name, as the cluster's API
	// server does (a server-side dry run validates with it).
	TimeZones() timezone.Loader
}

var _ Cluster = (*engine.Engine)(nil)
