// Package trace records what happened at every tick of a simulation: which
// component acted on which object, what it read from its (possibly stale)
// cache, and each effect it had, classified as translate (desired state one
// layer down), bind (the scheduler's junction), realize (the kubelet turning
// spec into containers), aggregate (status summarised from the layer below)
// or event (the flat side channel). The CLI, the tick log and the golden
// tests read the trace; the playground's diagram and inspector also read
// the API server's objects and the components' caches at the current tick.
// Explanations and summaries are Lines: the part after the object's short
// name is kept once for every object that says it (Lines), and the whole
// line is rendered when read.
package trace
