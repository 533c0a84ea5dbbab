package apiserver

// eventStrategy is pkg/registry/core/event/strategy.go: an Event is
// stored as written. (A stored record, api.EventRecord, reports kind
// Event too; it is never created through the strategy.)
var eventStrategy = strategy{}
