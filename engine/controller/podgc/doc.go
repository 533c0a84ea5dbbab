// Package podgc is the pod garbage collector's orphan sweep
// (pkg/controller/podgc/gc_controller.go gcOrphaned): a pod bound to a
// node that no longer exists is marked Failed, with the DisruptionTarget
// condition DeletionByPodGC "PodGC: node no longer exists", and force
// deleted, once the node has been gone for the quarantine (40 s).
//
// Upstream sweeps every gcCheckPeriod (20 s from the controller's start)
// and quarantines a missing node for 40 s in a delaying queue; the engine
// does the same without the idle sweeps: a Node's deletion queues its
// name for the first sweep that sees it, which quarantines it until the
// sweep 40 s later, which deletes its pods if a live read still finds no
// such Node. The other sweeps of gc (terminated pods past the threshold,
// unscheduled terminating pods) are not simulated.
package podgc
