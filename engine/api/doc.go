// Package api holds the Kubernetes object types Stateflow simulates (the
// workloads, pods, nodes, Services and their endpoints, claims,
// autoscalers, budgets, Events…) with their real JSON field names, plus
// the small value types they need: times, quantities, int-or-string,
// label selectors and object keys. kinds.go is the registry of the kinds
// the API serves: each one's apiVersion, resource, short name and scope,
// one line per kind, which every layer reads by the kind's name.
//
// Objects are treated as immutable once they are stored: the API server,
// every informer cache and the trace share the same pointers. Code that
// wants to change an object calls DeepCopy first and writes the copy back
// through the API server. An Event a recorder wrote is kept as an
// EventRecord, which builds the Event when read.
package api
