package apiserver

import "github.com/stateflow/stateflow/engine/api"

// Watch event types.
const (
	Added    = "ADDED"
	Modified = "MODIFIED"
	Deleted  = "DELETED"
)

// WatchEvent is one change as a watcher sees it. Object is the object
// after the change (for Deleted, the last state); Old is the object before
// (nil for Added). RV is the resourceVersion the change was stored at.
//
// Version is the API server's objects just after the change: an informer
// that has seen this event holds exactly that Version (a watch stream is
// ordered, so what a watcher has seen is always a prefix of the store's
// history).
//
// StatusOnly says the change was a status write that kept everything
// else: Object is Old with a new status and resourceVersion, its spec,
// labels, annotations and the rest of its metadata the very same values
// (a pod's, ReplicaSet's or node's status, and the other kinds whose
// status subresource keeps the rest; not a Deployment's, whose status
// write may change annotations).
type WatchEvent struct {
	Type       string
	Object     api.Object
	Old        api.Object
	RV         int64
	Version    *Version
	StatusOnly bool
}

// Key returns the key of the changed object.
func (w WatchEvent) Key() api.Key { return api.KeyOf(w.Object) }
