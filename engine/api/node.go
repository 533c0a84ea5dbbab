package api

// Node condition types and taint effects.
const (
	NodeReady          = "Ready"
	NodeMemoryPressure = "MemoryPressure"
	NodeDiskPressure   = "DiskPressure"
	NodePIDPressure    = "PIDPressure"

	TaintNoSchedule       = "NoSchedule"
	TaintPreferNoSchedule = "PreferNoSchedule"
	TaintNoExecute        = "NoExecute"
)

// Node is v1.Node.
type Node struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       NodeSpec   `json:"spec" yaml:"spec"`
	Status     NodeStatus `json:"status" yaml:"status"`
}

// NodeSpec is v1.NodeSpec.
type NodeSpec struct {
	PodCIDR       string   `json:"podCIDR,omitempty" yaml:"podCIDR,omitempty"`
	PodCIDRs      []string `json:"podCIDRs,omitempty" yaml:"podCIDRs,omitempty"`
	Unschedulable bool     `json:"unschedulable,omitempty" yaml:"unschedulable,omitempty"`
	Taints        []Taint  `json:"taints,omitempty" yaml:"taints,omitempty"`
}

// Taint is v1.Taint.
type Taint struct {
	Key       string `json:"key" yaml:"key"`
	Value     string `json:"value,omitempty" yaml:"value,omitempty"`
	Effect    string `json:"effect" yaml:"effect"`
	TimeAdded *Time  `json:"timeAdded,omitempty" yaml:"timeAdded,omitempty"`
}

// NodeStatus is v1.NodeStatus.
type NodeStatus struct {
	Capacity    ResourceList    `json:"capacity,omitempty" yaml:"capacity,omitempty"`
	Allocatable ResourceList    `json:"allocatable,omitempty" yaml:"allocatable,omitempty"`
	Conditions  []NodeCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	Addresses   []NodeAddress   `json:"addresses,omitempty" yaml:"addresses,omitempty"`
	NodeInfo    NodeSystemInfo  `json:"nodeInfo" yaml:"nodeInfo"`
}

// NodeCondition is v1.NodeCondition.
type NodeCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastHeartbeatTime  Time   `json:"lastHeartbeatTime" yaml:"lastHeartbeatTime"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"lastTransitionTime"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// NodeAddress is v1.NodeAddress.
type NodeAddress struct {
	Type    string `json:"type" yaml:"type"`
	Address string `json:"address" yaml:"address"`
}

// NodeSystemInfo carries the versions kubectl prints.
type NodeSystemInfo struct {
	MachineID               string `json:"machineID,omitempty" yaml:"machineID,omitempty"`
	SystemUUID              string `json:"systemUUID,omitempty" yaml:"systemUUID,omitempty"`
	BootID                  string `json:"bootID,omitempty" yaml:"bootID,omitempty"`
	KernelVersion           string `json:"kernelVersion,omitempty" yaml:"kernelVersion,omitempty"`
	KubeletVersion          string `json:"kubeletVersion,omitempty" yaml:"kubeletVersion,omitempty"`
	ContainerRuntimeVersion string `json:"containerRuntimeVersion,omitempty" yaml:"containerRuntimeVersion,omitempty"`
	OSImage                 string `json:"osImage,omitempty" yaml:"osImage,omitempty"`
	OperatingSystem         string `json:"operatingSystem,omitempty" yaml:"operatingSystem,omitempty"`
	Architecture            string `json:"architecture,omitempty" yaml:"architecture,omitempty"`
}

// GetKind returns "Node".
func (n *Node) GetKind() string { return KindNode }

// Meta returns the metadata.
func (n *Node) Meta() *ObjectMeta { return &n.ObjectMeta }

// Condition returns the node condition of type t, or nil.
func (s *NodeStatus) Condition(t string) *NodeCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// IsNodeReady reports whether the Ready condition is True.
func IsNodeReady(n *Node) bool {
	c := n.Status.Condition(NodeReady)
	return c != nil && c.Status == ConditionTrue
}

// Namespace is v1.Namespace (stored so manifests that declare one load).
type Namespace struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Status     NamespaceStatus `json:"status" yaml:"status"`
}

// NamespaceStatus holds the phase.
type NamespaceStatus struct {
	Phase string `json:"phase,omitempty" yaml:"phase,omitempty"`
}

// GetKind returns "Namespace".
func (n *Namespace) GetKind() string { return KindNamespace }

// Meta returns the metadata.
func (n *Namespace) Meta() *ObjectMeta { return &n.ObjectMeta }
