// Package informer is a component's local view of the cluster: what its
// watch has delivered so far, after the component's watch latency. A
// cache is not a copy: it is the API server's immutable Version as of the
// last event delivered to the component (a watch stream is ordered, so
// that is exactly what it has seen), seen through its watch, with the
// Version's indexes (objects by controller owner, pods by node). A
// component reads only its cache, so it can act on stale state, which is
// what makes eventual consistency visible.
package informer
