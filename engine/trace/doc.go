// Package trace records what happened at every tick of a simulation: which
// component acted on which object, what it read from its (possibly stale)
// cache, and each effect it had, classified as translate (desired state one
// layer down), bind (the scheduler's junction), realize (the kubelet turning
// spec into containers), aggregate (status summarised from the layer below)
// or event (the flat side channel). The trace is the single source the CLI,
// the playground and the golden tests read.
package trace
