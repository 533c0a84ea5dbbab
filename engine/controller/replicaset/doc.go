// Package replicaset is the simulated ReplicaSet controller
// (kubernetes/pkg/controller/replicaset): it translates a ReplicaSet's
// spec.replicas into Pods (creating from the template in slow-start
// batches, deleting the lowest-ranked pods first) and aggregates its pods'
// readiness into status.replicas, readyReplicas and availableReplicas.
// Expectations keep it from acting twice on a stale cache.
package replicaset
