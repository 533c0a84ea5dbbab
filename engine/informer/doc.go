// Package informer is a component's local view of the cluster: a cache fed
// by watch events after the component's watch latency, with the indexes
// controllers need (objects by controller owner, pods by node). A component
// reads only its cache, so it can act on stale state, which is what makes
// eventual consistency visible.
package informer
