// Package gc is the simulated garbage collector
// (pkg/controller/garbagecollector): it follows ownerReferences and
// deletes the dependents of deleted owners (background propagation),
// deletes dependents before their owner (foreground, the
// foregroundDeletion finalizer) or releases them (orphan, the orphan
// finalizer).
package gc
