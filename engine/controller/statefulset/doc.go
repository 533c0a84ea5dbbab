// Package statefulset is the simulated StatefulSet controller
// (kubernetes/pkg/controller/statefulset, as in Kubernetes 1.34): pods
// with stable names (<set>-<ordinal>), hostnames and claims
// (<claim>-<set>-<ordinal>, created before the pod and kept when it
// goes). With OrderedReady, a sync creates at most one pod and stops at
// the first pod that is not Running and Ready, so pods start in order,
// leave in reverse order, and one broken pod blocks the rollout; with
// Parallel it creates and deletes them all at once. A RollingUpdate
// replaces pods from the highest ordinal down to the partition, one at a
// time; OnDelete waits for someone to delete them. ControllerRevisions
// name the current and the update revision.
//
// Files follow upstream's: controller.go (the event handlers and the
// sync, with the pods claimed as every controller claims them),
// retention.go (the claims' owners), stateful_set_control.go (updateStatefulSet, processReplica,
// processCondemned, the rolling update), stateful_set_utils.go (identity,
// storage, the versioned pod), stateful_pod_control.go (pods, claims and
// their Events), history.go (revisions), status.go (the status).
package statefulset
