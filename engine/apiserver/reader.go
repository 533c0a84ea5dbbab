package apiserver

import "github.com/stateflow/stateflow/engine/api"

// Reader is a read-only view of the API server's objects at a tick: what
// kubectl, the playground and the tests read. Every write goes through a
// tick's context.
type Reader interface {
	// Get returns the object with key k, if it exists.
	Get(k api.Key) (api.Object, bool)
	// List returns the objects of a kind in a namespace ("" for all),
	// sorted by namespace and name.
	List(kind, ns string) []api.Object
	// Each calls f for every object of a kind, in no order, until f
	// returns false.
	Each(kind string, f func(api.Object) bool)
	// Count is how many objects of a kind exist.
	Count(kind string) int
	// Len is how many objects exist, of every kind.
	Len() int
	// EachEvent calls f with the record of every Event in a namespace
	// ("" for all), by namespace and name, until f returns false: a scan
	// that builds no Event (api.EventRecord.Event builds one).
	EachEvent(ns string, f func(*api.EventRecord) bool)
	// EachEventRecord is EachEvent of every namespace in no order (the
	// same in every run), which costs no sort.
	EachEventRecord(f func(*api.EventRecord) bool)
	// ResourceVersion is the store's latest resourceVersion.
	ResourceVersion() int64
	// PodQuota is the per-namespace pod quota (0 for none).
	PodQuota() int
}

var _ Reader = (*Store)(nil)
