// Package kubelet is the simulated kubelet, one per node. It owns the
// node's container runtime (pull, create, start, probe, stop as timed
// stages, driven by each image's behaviour) and realizes the pods bound to
// its node — init containers one after another, sidecars (restartable
// init containers) kept beside the containers and stopped after them —
// reporting what it observes into Pod status: initContainerStatuses,
// containerStatuses, conditions and phase, computed as
// pkg/kubelet/kubelet_pods.go and status/generate.go do. It writes the status of its pods, the final
// deletion of a pod it has stopped, and its Node's status (the Ready
// condition, as kubelet_node_status.go patches it). Accepts tells the
// engine's synthetic traffic whether a pod takes a connection: running,
// and not yet sent SIGTERM (a preStop hook runs first).
//
// An image the scenario does not describe behaves as its container's
// command says (infer.go, script.go); a loop that waits for a Service's
// name to resolve (wait.go) is why the kubelet also watches Services.
package kubelet
