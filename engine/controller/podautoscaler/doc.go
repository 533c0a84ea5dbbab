// Package podautoscaler is the simulated HorizontalPodAutoscaler
// controller (kubernetes/pkg/controller/podautoscaler, autoscaling/v2):
// every 15 s it reads its target's scale (a Deployment's, ReplicaSet's or
// StatefulSet's spec.replicas and selector), the pods' CPU or memory from
// the metrics API (the PodMetrics the metrics-server writes), and
// proposes a replica count: ceil(usage ratio × ready pods), unless the
// ratio is within the 0.1 tolerance, with unready pods (Pending, or
// within the 5-minute CPU initialization period) and pods without
// metrics treated as upstream does, so that they never push the count the
// wrong way. The proposal is stabilised (the highest of the last 5 minutes for
// a scale down, or the windows of spec.behavior), limited (twice the
// current count or 4 per sync without behavior; the behavior's policies
// over their periods with it) and clamped to [minReplicas, maxReplicas];
// the controller then writes the target's spec.replicas, with the
// SuccessfulRescale Event, and its own status: current and desired
// replicas, current metrics and the AbleToScale, ScalingActive and
// ScalingLimited conditions.
//
// Resource metrics (cpu, memory; Utilization and AverageValue) are
// simulated; Pods, Object, External and ContainerResource metrics are
// not.
//
// Files follow upstream's: horizontal.go (reconcileAutoscaler and its
// metric computation), replica_calculator.go (GetResourceReplicas,
// GetRawResourceReplicas, groupPods), normalize.go (the stabilisation
// and the rate limits, with and without behavior) and conditions.go.
package podautoscaler
