// Package engine is Stateflow's simulated control plane: an API server,
// independent components, each with its own informer cache fed after its
// watch latency, an event recorder, and a discrete-event clock in virtual
// milliseconds.
//
// The components, each registered once by a descriptor (components.go:
// name, default latency, Event source, constructor), in the order the
// tick log offers them: deployment-controller, replicaset-controller,
// scheduler, kubelet (one per node), garbage-collector,
// node-lifecycle-controller, taint-eviction-controller,
// endpointslice-controller, endpoints-controller, daemonset-controller,
// statefulset-controller, persistentvolume-binder, pod-garbage-collector,
// job-controller, ttl-after-finished-controller, cronjob-controller,
// metrics-server, horizontal-pod-autoscaler, disruption-controller,
// kube-proxy (one per node), replication-controller (the ReplicaSet
// controller run over ReplicationControllers) and
// pvc-protection-controller. The engine reaches them through
// reconcile.Component, and the node agents' runtime and rules through the
// interfaces of agents.go, never by their concrete types.
//
// Each cache is a view of the API server's immutable Version as of the
// last event delivered to it. A scenario's synthetic traffic is routed
// between ticks by the sending node's kube-proxy rules and answered by the
// kubelet of the pod it reaches (traffic.go).
// Nothing reads the wall clock and every random choice comes from the
// scenario's seed, so the same scenario always gives the same trace.
//
// One tick is one component handling one key (or one scenario action).
// Step, StepBack, Seek, RunUntil and RunUntilSettled move through time;
// going back restores the nearest checkpoint and replays. A checkpoint
// shares the store's Version and the components with the live world,
// which copies a component only when it first changes it; it keeps its
// pending watch events without the Versions they carried, which a
// restore rebuilds from the store's (apiserver.Rebuild). Going back
// again from the same checkpoint plans checkpoints on the way, so a
// learner stepping back tick by tick replays a few hundred ticks a step.
// Drain delivers
// the watch events due before the next tick without taking it, so a
// caller (the differential harness in conformance/) can look at the
// components exactly as that tick will find them.
//
// The trace keeps every tick, but a tick more than PodVersionTicks old
// keeps its effects without the pod versions they wrote (Tick.Pruned,
// unless Config.KeepPodVersions); FullTick rebuilds one by replay.
package engine
