// Package daemon is the simulated DaemonSet controller
// (kubernetes/pkg/controller/daemon): one pod on every node the
// DaemonSet's template may run on (its nodeSelector, node affinity and
// the taints it tolerates, with the tolerations the controller adds),
// each pinned to its node by node affinity for the scheduler to bind.
// Nodes added, labelled or tainted mid-story change the set. A template
// change rolls out node by node within maxUnavailable (or maxSurge), or
// waits for each pod's deletion (OnDelete); ControllerRevisions record
// every template, and the status counts desired, current, ready,
// up-to-date and available pods.
//
// Pods are claimed by the selector (adopted, released) as every
// controller claims them (controller/refmanager).
//
// Files follow upstream's: controller.go (the event handlers),
// sync.go (syncDaemonSet, manage, podsShouldBeOnNode, syncNodes),
// update.go (rollingUpdate, constructHistory, cleanupHistory),
// status.go (updateDaemonSetStatus), util.go (NodeShouldRunDaemonPod,
// the tolerations, the pod template).
package daemon
