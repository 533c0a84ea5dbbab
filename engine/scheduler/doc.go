// Package scheduler is the simulated kube-scheduler (default-scheduler). It
// is the junction between the downward flow and the nodes: it watches pods
// without a node, filters and scores nodes like the default plugins, and
// binds spec.nodeName. It never aggregates status; on failure it only
// records PodScheduled=False and a FailedScheduling event.
package scheduler
