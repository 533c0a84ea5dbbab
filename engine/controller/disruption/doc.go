// Package disruption is the simulated disruption controller
// (kubernetes/pkg/controller/disruption): it keeps each
// PodDisruptionBudget's status (expectedPods, desiredHealthy,
// currentHealthy, disruptionsAllowed, disruptedPods and the
// DisruptionAllowed condition) from the pods its selector matches and,
// for percentages and maxUnavailable, from the scale of the pods'
// controllers. The Eviction API (engine/eviction) reads that status to
// allow or refuse a voluntary disruption; this controller never evicts.
//
// The files follow upstream's concerns: controller.go is the component
// and its informer handlers, disruption.go the sync (trySync,
// buildDisruptedPodMap, countHealthyPods, updatePdbStatus, failSafe),
// finders.go the expected pod count (getExpectedPodCount and the
// controller finders), stale.go the cleanup of a DisruptionTarget
// condition on a pod that was never deleted.
package disruption
