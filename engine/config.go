package engine

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/metrics"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/timezone"
)

// DefaultCheckpointEvery is how many ticks lie between two checkpoints.
const DefaultCheckpointEvery = 256

// DefaultMaxTraceTicks is how many of the latest ticks the engine keeps
// (with their checkpoints) so a run of any length fits in a browser tab:
// about 0.3 GB at the soak test's 5.4 KB per tick.
const DefaultMaxTraceTicks = 50_000

// PodVersionTicks is how many of the latest ticks keep the pod versions
// their effects wrote, unless Config.KeepPodVersions keeps them all (see
// Engine.FullTick).
const PodVersionTicks = 4096

// Action is a scenario step applied at a virtual time, as a tick of its own.
type Action struct {
	// At is the virtual time in milliseconds.
	At int64
	// Component is who acts: KubectlActor for commands, ScenarioActor
	// for faults.
	Component string
	// Object is the object the action is about.
	Object api.Key
	// Run performs the action through the tick's context (a kubectl
	// command), unless Fault is set.
	Run func(tick reconcile.Tick) error
	// Fault is a fault the engine injects (SetNodeHealth, KillPod,
	// FailImage).
	Fault *Fault
	// Client, if set, is a command that goes on after this tick (kubectl
	// drain): the tick is its first step (Run is not used), each later
	// step a tick of its own. The action keeps this as a template; each
	// run starts a clone.
	Client Client
}

// Config is everything a simulation starts from.
type Config struct {
	Seed       uint64
	Latency    map[string]int64
	Images     kubelet.Behaviors
	Namespaces []string
	Nodes      []*api.Node
	// JoiningNodes join the cluster later, each at an AddNode action.
	JoiningNodes []*api.Node
	Actions      []Action
	// CheckpointEvery is the checkpoint spacing in ticks (default 256).
	CheckpointEvery int
	// MaxTraceTicks bounds memory: once the trace holds more than this
	// many ticks, the oldest ticks and their checkpoints are discarded
	// down to the last checkpoint that keeps at least this many (at most
	// one checkpoint spacing more, half of this at most); the run can no
	// longer return to them (see Engine.FirstTick). Default
	// DefaultMaxTraceTicks; negative keeps everything.
	MaxTraceTicks int
	// KeepPodVersions keeps the Pod objects of every kept tick's
	// effects. Without it, a tick drops them once the run is
	// PodVersionTicks past it, unless it is a checkpoint's: it keeps its
	// effects' classes, operations, keys and texts, and the objects of
	// every other kind, and is marked Pruned; Engine.FullTick rebuilds it
	// by replay. A pod is written six or seven times in its life, so its
	// versions are most of a long trace. Set it where every tick's pods
	// are read back (a printed trace, a lesson, tests).
	KeepPodVersions bool
	// PodLimit, when positive, is a per-namespace pod quota (a
	// ResourceQuota with pods: N in every namespace).
	PodLimit int
	// Traffic is the synthetic traffic sent to Services.
	Traffic []TrafficStream
	// Load is the CPU and memory the scenario's workloads use over time,
	// which the metrics-server measures.
	Load []metrics.Curve
	// NodeMonitorGracePeriodMS is how long a node may go without renewing
	// its lease before it is marked Unknown (default 50 s, the
	// upstream default since kubernetes/kubernetes#126287; it was 40 s).
	NodeMonitorGracePeriodMS int64
	// TimeZones loads the zones CronJobs name (default
	// timezone.Default, time.LoadLocation: natively the machine's
	// database, else the one linked into the binary).
	TimeZones timezone.Loader
	// VerifyIncremental is for tests: every decision a component makes
	// from state it keeps up to date event by event (the ReplicaSet
	// controller's pod counts, and its related pods by node) is also made
	// the slow way, by walking its cache, and a difference fails the tick
	// with an internal error.
	VerifyIncremental bool
}

// latency is a component's watch delay: the scenario's, else its
// descriptor's default.
func (c *Config) latency(d *descriptor) int64 {
	if v, ok := c.Latency[d.name]; ok {
		return v
	}
	return d.latency
}
