// Package refmanager is PodControllerRefManager
// (pkg/controller/controller_ref_manager.go): how a controller claims
// pods by its selector, adopting matching orphans and releasing pods
// whose labels no longer match, so that a pod has at most one
// controller. The ReplicaSet, DaemonSet and StatefulSet controllers share
// it.
package refmanager
