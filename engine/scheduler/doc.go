// Package scheduler is the simulated kube-scheduler (default-scheduler). It
// is the junction between the downward flow and the nodes: it watches pods
// without a node, filters and scores nodes like the default profile's
// plugins (resources, taints, node selectors, ports; least-allocated,
// balanced allocation, PreferNoSchedule taints and the default pod
// topology spreading over the pod's ReplicaSet, for which it also watches
// ReplicaSets), and binds spec.nodeName. It never aggregates status; on failure it only
// records PodScheduled=False and a FailedScheduling event.
package scheduler
