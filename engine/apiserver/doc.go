// Package apiserver is Stateflow's API server: the one place that owns the
// truth. It assigns resourceVersions from one global counter, bumps
// metadata.generation on spec changes only, applies the API defaults,
// validates with the API server's messages and field paths, enforces
// optimistic concurrency, performs graceful pod deletion, and reports every
// write as a watch event (Added, Modified, Deleted) that carries the
// immutable Version after it; Rebuild gives such Versions back to events
// a checkpoint kept without them.
//
// Stored objects are never modified in place once a write has returned:
// every write stores a new object, so informer caches and the trace can
// keep the old pointers. That also lets stored objects share what they
// repeat: pods share the values admission gives them (defaults.go), one
// spec per template and node (podspecs.go) and one copy of each equal
// conditions list (repeated.go).
// Events are kept apart from the Versions, as compact records
// (api.EventRecord) in a tree the store changes in place between
// snapshots (events.go): no informer watches them, and they are most of
// what a cluster writes. That tree is ordered by the time a recorder's
// Event name ends in (else a hash of the key), so a write compares
// integers and a new Event goes at the tree's right edge, which is all a
// snapshot then has to copy; the scans in the API server's (namespace,
// name) order sort (EachEvent), the others take the tree's
// (EachEventRecord).
package apiserver
