// Package conformance is Stateflow's differential harness: it replays the
// decisions of the engine's controllers through the upstream Kubernetes
// controllers (k8s.io/kubernetes v1.34) and reports every difference.
//
// For each tick of a controller in a run, the harness rebuilds exactly what
// that component had seen — its informer cache at the moment of the tick,
// the live objects in the API server, its expectations — and runs the
// upstream controller's sync for the same key against a client-go fake
// clientset whose reactors behave like the engine's API server (names from
// generateName, uids, generations, resourceVersions, optimistic-concurrency
// conflicts, the status subresource). It then compares what both sides
// wrote (objects and changed fields), the Events (type, reason, message)
// and the error.
//
// Differences that are deliberate are listed, with their reasons, in
// allowances.go; nothing else may differ. The module is separate from the
// playground's so app.wasm never links k8s.io/kubernetes.
package conformance
