package scenario

import "github.com/stateflow/stateflow/engine/api"

// APIVersion is the apiVersion of the Scenario document.
const APIVersion = "stateflow/v1alpha1"

// Spec is the spec of a "kind: Scenario" document. Its keys are a contract
// (docs/contracts.md): seed, kubectl.namespace, nodes, latency, images, actions.
type Spec struct {
	Description string               `json:"description,omitempty" yaml:"description,omitempty"`
	Seed        *uint64              `json:"seed,omitempty" yaml:"seed,omitempty"`
	Kubectl     KubectlSpec          `json:"kubectl,omitempty" yaml:"kubectl,omitempty"`
	Nodes       *NodesSpec           `json:"nodes,omitempty" yaml:"nodes,omitempty"`
	Latency     map[string]string    `json:"latency,omitempty" yaml:"latency,omitempty"`
	Images      map[string]ImageSpec `json:"images,omitempty" yaml:"images,omitempty"`
	Actions     []ActionSpec         `json:"actions,omitempty" yaml:"actions,omitempty"`
	// Quota limits every namespace like a ResourceQuota (pods only).
	Quota *QuotaSpec `json:"quota,omitempty" yaml:"quota,omitempty"`
	// Traffic sends synthetic requests to Services.
	Traffic []TrafficSpec `json:"traffic,omitempty" yaml:"traffic,omitempty"`
	// Load is the CPU and memory workloads use over time.
	Load []LoadSpec `json:"load,omitempty" yaml:"load,omitempty"`
}

// QuotaSpec is a per-namespace ResourceQuota on the number of pods.
type QuotaSpec struct {
	Pods int `json:"pods" yaml:"pods"`
}

// KubectlSpec is the console's kubeconfig context.
type KubectlSpec struct {
	Namespace string `json:"namespace,omitempty" yaml:"namespace,omitempty"`
}

// NodesSpec generates identical nodes.
type NodesSpec struct {
	Count      *int              `json:"count,omitempty" yaml:"count,omitempty"`
	NamePrefix string            `json:"namePrefix,omitempty" yaml:"namePrefix,omitempty"`
	Capacity   api.ResourceList  `json:"capacity,omitempty" yaml:"capacity,omitempty"`
	Labels     map[string]string `json:"labels,omitempty" yaml:"labels,omitempty"`
	Taints     []api.Taint       `json:"taints,omitempty" yaml:"taints,omitempty"`
	// Zones label the nodes topology.kubernetes.io/zone in turn: with
	// [a, b], node-1 is in a, node-2 in b, node-3 in a.
	Zones []string `json:"zones,omitempty" yaml:"zones,omitempty"`
}

// ImageSpec describes how an image behaves; durations are strings like "2s".
type ImageSpec struct {
	Pull      string        `json:"pull,omitempty" yaml:"pull,omitempty"`
	PullError string        `json:"pullError,omitempty" yaml:"pullError,omitempty"`
	Start     string        `json:"start,omitempty" yaml:"start,omitempty"`
	Ready     string        `json:"ready,omitempty" yaml:"ready,omitempty"`
	ExitAfter string        `json:"exitAfter,omitempty" yaml:"exitAfter,omitempty"`
	ExitCode  *int32        `json:"exitCode,omitempty" yaml:"exitCode,omitempty"`
	Stop      string        `json:"stop,omitempty" yaml:"stop,omitempty"`
	Size      *api.Quantity `json:"size,omitempty" yaml:"size,omitempty"`
	// Flap makes readiness flap: up for Up, then down for Down, repeating.
	Flap *FlapSpec `json:"flap,omitempty" yaml:"flap,omitempty"`
	// LivenessFailAfter: the app stops answering its liveness probe this
	// long after it starts.
	LivenessFailAfter string `json:"livenessFailAfter,omitempty" yaml:"livenessFailAfter,omitempty"`
}

// FlapSpec is readiness that comes and goes.
type FlapSpec struct {
	Up   string `json:"up" yaml:"up"`
	Down string `json:"down" yaml:"down"`
}

// ActionSpec is a timed action: a kubectl command or a node fault.
type ActionSpec struct {
	At        string `json:"at" yaml:"at"`
	Kubectl   string `json:"kubectl,omitempty" yaml:"kubectl,omitempty"`
	Node      string `json:"node,omitempty" yaml:"node,omitempty"`
	Condition string `json:"condition,omitempty" yaml:"condition,omitempty"`
	// KillPod kills a pod's containers: a pod name or a label selector.
	KillPod string `json:"kill-pod,omitempty" yaml:"kill-pod,omitempty"`
	// FailImage makes every later pull of an image fail.
	FailImage string `json:"fail-image,omitempty" yaml:"fail-image,omitempty"`
	// AddNode is a node joining the cluster, like the generated ones
	// (spec.nodes' capacity, labels and taints), plus Labels and Taints.
	AddNode string            `json:"add-node,omitempty" yaml:"add-node,omitempty"`
	Labels  map[string]string `json:"labels,omitempty" yaml:"labels,omitempty"`
	Taints  []api.Taint       `json:"taints,omitempty" yaml:"taints,omitempty"`
}

// scenarioDoc is the whole Scenario document.
type scenarioDoc struct {
	api.TypeMeta `json:",inline" yaml:",inline"`
	Metadata     api.ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec         Spec           `json:"spec" yaml:"spec"`
}
