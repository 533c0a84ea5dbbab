package api

// PodMetrics is metrics.k8s.io/v1beta1 PodMetrics: a pod's containers'
// usage over the window before Timestamp, as the metrics-server serves it
// from its last two scrapes of the node's kubelet.
type PodMetrics struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Timestamp  Time               `json:"timestamp" yaml:"timestamp"`
	Window     string             `json:"window" yaml:"window"`
	Containers []ContainerMetrics `json:"containers" yaml:"containers"`
}

// ContainerMetrics is metrics.k8s.io/v1beta1 ContainerMetrics.
type ContainerMetrics struct {
	Name  string       `json:"name" yaml:"name"`
	Usage ResourceList `json:"usage" yaml:"usage"`
}

// NodeMetrics is metrics.k8s.io/v1beta1 NodeMetrics.
type NodeMetrics struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Timestamp  Time         `json:"timestamp" yaml:"timestamp"`
	Window     string       `json:"window" yaml:"window"`
	Usage      ResourceList `json:"usage" yaml:"usage"`
}

// GetKind returns "PodMetrics".
func (m *PodMetrics) GetKind() string { return KindPodMetrics }

// Meta returns the metadata.
func (m *PodMetrics) Meta() *ObjectMeta { return &m.ObjectMeta }

// Usage sums the containers' usage of one resource, in thousandths.
func (m *PodMetrics) Usage(resource string) int64 {
	var n int64
	for _, c := range m.Containers {
		n += c.Usage[resource].MilliValue()
	}
	return n
}

// DeepCopy returns an independent copy.
func (m *PodMetrics) DeepCopy() *PodMetrics {
	out := &PodMetrics{TypeMeta: m.TypeMeta, ObjectMeta: m.ObjectMeta.DeepCopy(), Timestamp: m.Timestamp, Window: m.Window}
	if m.Containers != nil {
		out.Containers = make([]ContainerMetrics, len(m.Containers))
		for i, c := range m.Containers {
			out.Containers[i] = ContainerMetrics{Name: c.Name, Usage: copyMap(c.Usage)}
		}
	}
	return out
}

// DeepCopyObject implements Object.
func (m *PodMetrics) DeepCopyObject() Object { return m.DeepCopy() }

// GetKind returns "NodeMetrics".
func (m *NodeMetrics) GetKind() string { return KindNodeMetrics }

// Meta returns the metadata.
func (m *NodeMetrics) Meta() *ObjectMeta { return &m.ObjectMeta }

// DeepCopy returns an independent copy.
func (m *NodeMetrics) DeepCopy() *NodeMetrics {
	return &NodeMetrics{TypeMeta: m.TypeMeta, ObjectMeta: m.ObjectMeta.DeepCopy(), Timestamp: m.Timestamp, Window: m.Window, Usage: copyMap(m.Usage)}
}

// DeepCopyObject implements Object.
func (m *NodeMetrics) DeepCopyObject() Object { return m.DeepCopy() }
