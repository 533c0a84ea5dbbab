package provenance

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// Trace is what a chain is read from: the engine's kept ticks
// (engine.Engine). FullTick rebuilds a tick whose pod versions were
// pruned.
type Trace interface {
	FirstTick() int
	Trace() []*trace.Tick
	FullTick(n int) *trace.Tick
}

// Query is the question: why does Object's Field have its value at tick
// At?
type Query struct {
	Object api.Key
	Field  string // a field path, as the trace names changes ("status.conditions[Available].status")
	At     int
}

// Chain is the answer: the field's value at the tick asked about and the
// steps that made it, newest first.
type Chain struct {
	Object string `json:"object"` // Kind/namespace/name
	Field  string `json:"field"`
	At     int    `json:"at"`
	// Value is the field's value at At as JSON decodes it, nil when the
	// field is absent (Set false).
	Value any  `json:"value"`
	Set   bool `json:"set"`
	// Steps are the causes, newest first; the first is the write that
	// gave the field its value, when one did.
	Steps []Step `json:"steps"`
	// Folded counts the causes left out to keep the chain short.
	Folded int `json:"folded,omitempty"`
}

// Step is one line of the chain: a tick, or several ticks alike (the same
// component, class and kind of object, at the same distance from the
// question) folded into one.
type Step struct {
	// Ticks are the tick numbers, newest first; none for what existed
	// before the story began (Before).
	Ticks []int `json:"ticks,omitempty"`
	// Time is the newest tick's virtual time in milliseconds.
	Time      int64  `json:"time"`
	Component string `json:"component,omitempty"`
	// Hosts are the nodes of the kubelets or kube-proxies that acted.
	Hosts []string `json:"hosts,omitempty"`
	// Objects are what the ticks wrote that the step after them read (or
	// the field's object, for the first step).
	Objects []string `json:"objects"`
	// Class is the way the write moved state; "" for Before.
	Class trace.Class `json:"class,omitempty"`
	// Text is the newest tick's explanation.
	Text string `json:"text"`
	// Change is the field's change, on the first step only.
	Change *trace.Change `json:"change,omitempty"`
	// Stale lists the reads behind this step's causes that lagged the
	// API server.
	Stale []StaleRead `json:"stale,omitempty"`
	// Also names the causes the chain did not follow from this step:
	// objects its ticks read whose versions came from older writes than
	// the one followed ("rs/web-1 as written at #3 by
	// deployment-controller").
	Also []string `json:"also,omitempty"`
	// User marks a user's action (kubectl, a scenario action or fault):
	// where the chain begins.
	User bool `json:"user,omitempty"`
	// Before marks objects that existed before the first tick kept (the
	// scenario's nodes and namespaces, or ticks trimmed from a long run).
	Before bool `json:"before,omitempty"`
	// Depth is how many steps lie between this one and the question.
	Depth int `json:"depth"`
}

// StaleRead is a read whose cached version lagged the API server's.
type StaleRead struct {
	Tick   int    `json:"tick"`
	Object string `json:"object"`
	Cached string `json:"cached"`
	Live   string `json:"live"`
}

// Limits keep a chain short enough to read.
const (
	// MaxTicks is the most ticks a chain follows.
	MaxTicks = 48
	// MaxCauses is the most reads of one tick a chain follows.
	MaxCauses = 6
)
