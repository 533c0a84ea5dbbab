package api

// PriorityClass is scheduling.k8s.io/v1 PriorityClass: a name for a pod
// priority. The Priority admission plugin gives a pod that names one its
// value and preemption policy; the scheduler orders its queue by the
// value and preempts pods of lower priority for it.
type PriorityClass struct {
	TypeMeta         `json:",inline" yaml:",inline"`
	ObjectMeta       `json:"metadata" yaml:"metadata"`
	Value            int32   `json:"value" yaml:"value"`
	GlobalDefault    bool    `json:"globalDefault,omitempty" yaml:"globalDefault,omitempty"`
	Description      string  `json:"description,omitempty" yaml:"description,omitempty"`
	PreemptionPolicy *string `json:"preemptionPolicy,omitempty" yaml:"preemptionPolicy,omitempty"`
}

// Preemption policies (v1.PreemptionPolicy).
const (
	PreemptLowerPriority = "PreemptLowerPriority"
	PreemptNever         = "Never"
)

// Priorities (pkg/apis/scheduling): a user's class may not exceed
// HighestUserDefinablePriority; the system classes are above it.
const (
	HighestUserDefinablePriority = 1_000_000_000
	SystemCriticalPriority       = 2 * HighestUserDefinablePriority
	SystemPriorityClassPrefix    = "system-"
)

// SystemPriorityClasses are the classes the API server creates when the
// cluster starts (pkg/apis/scheduling/v1 helpers.go): system-node-critical
// and system-cluster-critical, the only classes whose names may start
// with "system-".
func SystemPriorityClasses() []*PriorityClass {
	return []*PriorityClass{
		{ObjectMeta: ObjectMeta{Name: "system-node-critical"}, Value: SystemCriticalPriority + 1000,
			Description: "Used for system critical pods that must not be moved from their current node."},
		{ObjectMeta: ObjectMeta{Name: "system-cluster-critical"}, Value: SystemCriticalPriority,
			Description: "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."},
	}
}

// GetKind returns "PriorityClass".
func (c *PriorityClass) GetKind() string { return KindPriorityClass }

// Meta returns the metadata.
func (c *PriorityClass) Meta() *ObjectMeta { return &c.ObjectMeta }

// DeepCopy returns an independent copy of the class.
func (c *PriorityClass) DeepCopy() *PriorityClass {
	out := *c
	out.ObjectMeta = c.ObjectMeta.DeepCopy()
	out.PreemptionPolicy = copyPtr(c.PreemptionPolicy)
	return &out
}

// DeepCopyObject implements Object.
func (c *PriorityClass) DeepCopyObject() Object { return c.DeepCopy() }
