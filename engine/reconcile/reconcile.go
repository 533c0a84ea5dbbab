package reconcile

import (
	"math/rand/v2"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/trace"
)

// Result tells the engine when to look at the key again.
type Result struct {
	// RequeueAfter, when positive, queues the key again after this many
	// virtual milliseconds.
	RequeueAfter int64
}

// Queue is a component's de-duplicating work queue.
type Queue interface {
	// Add queues key now; a key already queued is not queued twice.
	Add(key api.Key)
	// AddAfter queues key after ms virtual milliseconds.
	AddAfter(key api.Key, ms int64)
	// Now is the virtual time of the delivery being observed.
	Now() int64
}

// Tick is what a component may do during one tick: write through the API
// server, read it live, record Events and explain itself. (Not a
// context.Context: nothing here is cancellable or carries deadlines.)
type Tick interface {
	// Now is the tick's virtual time in milliseconds.
	Now() int64
	// Rand is the simulation's seeded random source.
	Rand() *rand.Rand
	// Create, Update, UpdateStatus, PatchStatus and Delete write through
	// the API server; each successful write becomes an effect of the tick
	// with the given class and summary.
	Create(c trace.Class, obj api.Object, summary string) (api.Object, error)
	Update(c trace.Class, obj api.Object, summary string) (api.Object, error)
	UpdateStatus(c trace.Class, obj api.Object, summary string) (api.Object, error)
	PatchStatus(c trace.Class, obj api.Object, summary string) (api.Object, error)
	Delete(c trace.Class, key api.Key, opts apiserver.DeleteOptions, summary string) error
	// Bind is the scheduler's binding subresource.
	Bind(pod *api.Pod, node, summary string) error
	// LiveGet reads from the API server directly, bypassing the cache, as
	// controllers do to retry a conflicting status update.
	LiveGet(key api.Key) (api.Object, bool)
	// LiveList lists the API server's objects of kind in ns ("" for all),
	// as user commands such as kubectl drain and rollout undo do.
	LiveList(kind, ns string) []api.Object
	// Event emits an Event about obj (with an optional fieldPath such as
	// "spec.containers{app}").
	Event(obj api.Object, fieldPath, eventType, reason, message string)
	// Read records that the tick acted on this cached object.
	Read(obj api.Object)
	// Explain sets the tick's one-line explanation for learners.
	Explain(format string, args ...any)
	// Program records rules a per-node component programmed on its node
	// (kube-proxy): node-local state, not a write to the API server.
	Program(change trace.RuleChange)
}

// Component is one control-plane component with its own informer cache.
type Component interface {
	// Name is the component name, as in Event sources.
	Name() string
	// Host is the node a per-node component (the kubelet) runs on, else "".
	Host() string
	// Watches lists the kinds whose watch events the component receives.
	Watches() []string
	// Observe queues the keys a watch event concerns, like an informer's
	// event handlers: the engine has applied the event to the
	// component's cache before it calls Observe, as a shared informer
	// updates its indexer before it notifies the handlers.
	Observe(ev apiserver.WatchEvent, q Queue)
	// Reconcile handles one key from the queue.
	Reconcile(tick Tick, key api.Key) (Result, error)
	// Cache is the component's informer cache: what it has seen of the
	// kinds it watches, as of the watch events delivered so far. The
	// engine reads it to say which version of an object a component
	// holds (Engine.Cached); components never read each other's.
	Cache() *informer.Cache
	// Clone returns an independent copy for checkpoints.
	Clone() Component
}
