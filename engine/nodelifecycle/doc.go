// Package nodelifecycle holds the node lifecycle controller and the taint
// eviction controller (pkg/controller/nodelifecycle and
// pkg/controller/tainteviction). The first notices a node whose kubelet
// stopped renewing its lease for longer than the grace period, marks its
// conditions Unknown and its pods not ready, and keeps the not-ready /
// unreachable taints in step with the Ready condition. The second deletes
// the pods of a node with NoExecute taints once their tolerations run out,
// and cancels that when the taint goes away.
package nodelifecycle
