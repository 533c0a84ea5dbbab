// Package eviction is the API server's Eviction subresource
// (POST pods/<name>/eviction, kubernetes
// pkg/registry/core/pod/storage/eviction.go): a voluntary disruption
// that a PodDisruptionBudget may refuse. A pod that is not running
// (Pending, finished or already deleting) or that no budget selects is
// deleted at once; otherwise the budget's status decides: with
// disruptions allowed, one is taken (disruptionsAllowed−1, the pod
// recorded in disruptedPods), the pod gets the DisruptionTarget condition
// and is deleted; with none, the answer is 429 Too Many Requests and the
// pod stays. The disruption controller (engine/controller/disruption)
// keeps the budget's status; callers (kubectl drain) retry a 429.
//
// Involuntary disruptions (a node's taint eviction, a kubelet's) do not
// come through here and no budget stops them, as upstream.
package eviction
