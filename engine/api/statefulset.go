package api

// StatefulSet pod management and update strategies.
const (
	OrderedReadyPodManagement = "OrderedReady"
	ParallelPodManagement     = "Parallel"
	StatefulSetRollingUpdate  = "RollingUpdate"
	StatefulSetOnDelete       = "OnDelete"
)

// The labels the StatefulSet controller puts on its pods.
const (
	LabelStatefulSetPodName = "statefulset.kubernetes.io/pod-name"
	LabelPodIndex           = "apps.kubernetes.io/pod-index"
)

// StatefulSet is apps/v1 StatefulSet.
type StatefulSet struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       StatefulSetSpec   `json:"spec" yaml:"spec"`
	Status     StatefulSetStatus `json:"status" yaml:"status"`
}

// StatefulSetSpec is apps/v1 StatefulSetSpec.
type StatefulSetSpec struct {
	Replicas                             *int32                                           `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	Selector                             *LabelSelector                                   `json:"selector" yaml:"selector"`
	Template                             PodTemplateSpec                                  `json:"template" yaml:"template"`
	VolumeClaimTemplates                 []PersistentVolumeClaim                          `json:"volumeClaimTemplates,omitempty" yaml:"volumeClaimTemplates,omitempty"`
	ServiceName                          string                                           `json:"serviceName,omitempty" yaml:"serviceName,omitempty"`
	PodManagementPolicy                  string                                           `json:"podManagementPolicy,omitempty" yaml:"podManagementPolicy,omitempty"`
	UpdateStrategy                       StatefulSetUpdateStrategy                        `json:"updateStrategy,omitempty" yaml:"updateStrategy,omitempty"`
	RevisionHistoryLimit                 *int32                                           `json:"revisionHistoryLimit,omitempty" yaml:"revisionHistoryLimit,omitempty"`
	MinReadySeconds                      int32                                            `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	PersistentVolumeClaimRetentionPolicy *StatefulSetPersistentVolumeClaimRetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty" yaml:"persistentVolumeClaimRetentionPolicy,omitempty"`
	Ordinals                             *StatefulSetOrdinals                             `json:"ordinals,omitempty" yaml:"ordinals,omitempty"`
}

// StatefulSetUpdateStrategy is apps/v1 StatefulSetUpdateStrategy.
type StatefulSetUpdateStrategy struct {
	Type          string                            `json:"type,omitempty" yaml:"type,omitempty"`
	RollingUpdate *RollingUpdateStatefulSetStrategy `json:"rollingUpdate,omitempty" yaml:"rollingUpdate,omitempty"`
}

// RollingUpdateStatefulSetStrategy is apps/v1
// RollingUpdateStatefulSetStrategy. MaxUnavailable is kept but, as in
// Kubernetes 1.34 (the MaxUnavailableStatefulSet gate is off), not used.
type RollingUpdateStatefulSetStrategy struct {
	Partition      *int32       `json:"partition,omitempty" yaml:"partition,omitempty"`
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty" yaml:"maxUnavailable,omitempty"`
}

// StatefulSetPersistentVolumeClaimRetentionPolicy is the apps/v1 policy.
type StatefulSetPersistentVolumeClaimRetentionPolicy struct {
	WhenDeleted string `json:"whenDeleted,omitempty" yaml:"whenDeleted,omitempty"`
	WhenScaled  string `json:"whenScaled,omitempty" yaml:"whenScaled,omitempty"`
}

// StatefulSetOrdinals is apps/v1 StatefulSetOrdinals.
type StatefulSetOrdinals struct {
	Start int32 `json:"start" yaml:"start"`
}

// StatefulSetStatus is apps/v1 StatefulSetStatus.
type StatefulSetStatus struct {
	ObservedGeneration int64  `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	Replicas           int32  `json:"replicas" yaml:"replicas"`
	ReadyReplicas      int32  `json:"readyReplicas,omitempty" yaml:"readyReplicas,omitempty"`
	CurrentReplicas    int32  `json:"currentReplicas,omitempty" yaml:"currentReplicas,omitempty"`
	UpdatedReplicas    int32  `json:"updatedReplicas,omitempty" yaml:"updatedReplicas,omitempty"`
	CurrentRevision    string `json:"currentRevision,omitempty" yaml:"currentRevision,omitempty"`
	UpdateRevision     string `json:"updateRevision,omitempty" yaml:"updateRevision,omitempty"`
	CollisionCount     *int32 `json:"collisionCount,omitempty" yaml:"collisionCount,omitempty"`
	AvailableReplicas  int32  `json:"availableReplicas" yaml:"availableReplicas"`
}

// GetKind returns "StatefulSet".
func (s *StatefulSet) GetKind() string { return KindStatefulSet }

// Meta returns the metadata.
func (s *StatefulSet) Meta() *ObjectMeta { return &s.ObjectMeta }

// Replicas returns *spec.replicas, or 0 when unset.
func (s *StatefulSet) Replicas() int32 { return deref(s.Spec.Replicas) }

// StartOrdinal is spec.ordinals.start, 0 by default.
func (s *StatefulSet) StartOrdinal() int32 {
	if s.Spec.Ordinals == nil {
		return 0
	}
	return s.Spec.Ordinals.Start
}

// DeepCopy returns an independent copy.
func (s *StatefulSet) DeepCopy() *StatefulSet {
	out := &StatefulSet{TypeMeta: s.TypeMeta, ObjectMeta: s.ObjectMeta.DeepCopy(), Spec: s.Spec, Status: s.Status}
	sp := &out.Spec
	sp.Replicas = copyPtr(s.Spec.Replicas)
	sp.Selector = s.Spec.Selector.DeepCopy()
	sp.Template = s.Spec.Template.DeepCopy()
	if s.Spec.VolumeClaimTemplates != nil {
		sp.VolumeClaimTemplates = make([]PersistentVolumeClaim, len(s.Spec.VolumeClaimTemplates))
		for i := range s.Spec.VolumeClaimTemplates {
			sp.VolumeClaimTemplates[i] = *s.Spec.VolumeClaimTemplates[i].DeepCopy()
		}
	}
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		sp.UpdateStrategy.RollingUpdate = &RollingUpdateStatefulSetStrategy{Partition: copyPtr(ru.Partition), MaxUnavailable: copyPtr(ru.MaxUnavailable)}
	}
	sp.RevisionHistoryLimit = copyPtr(s.Spec.RevisionHistoryLimit)
	sp.PersistentVolumeClaimRetentionPolicy = copyPtr(s.Spec.PersistentVolumeClaimRetentionPolicy)
	sp.Ordinals = copyPtr(s.Spec.Ordinals)
	out.Status.CollisionCount = copyPtr(s.Status.CollisionCount)
	return out
}

// DeepCopyObject implements Object.
func (s *StatefulSet) DeepCopyObject() Object { return s.DeepCopy() }

// PersistentVolumeClaim phases.
const (
	ClaimPending = "Pending"
	ClaimBound   = "Bound"
)

// FinalizerPVCProtection is the finalizer the API server gives every new
// claim: it is deleted once no scheduled pod mounts it.
const FinalizerPVCProtection = "kubernetes.io/pvc-protection"

// PersistentVolumeClaim is v1 PersistentVolumeClaim.
type PersistentVolumeClaim struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       PersistentVolumeClaimSpec   `json:"spec" yaml:"spec"`
	Status     PersistentVolumeClaimStatus `json:"status,omitempty" yaml:"status,omitempty"`
}

// PersistentVolumeClaimSpec is v1 PersistentVolumeClaimSpec.
type PersistentVolumeClaimSpec struct {
	AccessModes      []string             `json:"accessModes,omitempty" yaml:"accessModes,omitempty"`
	Resources        ResourceRequirements `json:"resources,omitempty" yaml:"resources,omitempty"`
	VolumeName       string               `json:"volumeName,omitempty" yaml:"volumeName,omitempty"`
	StorageClassName *string              `json:"storageClassName,omitempty" yaml:"storageClassName,omitempty"`
	VolumeMode       string               `json:"volumeMode,omitempty" yaml:"volumeMode,omitempty"`
}

// PersistentVolumeClaimStatus is v1 PersistentVolumeClaimStatus.
type PersistentVolumeClaimStatus struct {
	Phase       string       `json:"phase,omitempty" yaml:"phase,omitempty"`
	AccessModes []string     `json:"accessModes,omitempty" yaml:"accessModes,omitempty"`
	Capacity    ResourceList `json:"capacity,omitempty" yaml:"capacity,omitempty"`
}

// GetKind returns "PersistentVolumeClaim".
func (c *PersistentVolumeClaim) GetKind() string { return KindPersistentVolumeClaim }

// Meta returns the metadata.
func (c *PersistentVolumeClaim) Meta() *ObjectMeta { return &c.ObjectMeta }

// DeepCopy returns an independent copy.
func (c *PersistentVolumeClaim) DeepCopy() *PersistentVolumeClaim {
	out := &PersistentVolumeClaim{TypeMeta: c.TypeMeta, ObjectMeta: c.ObjectMeta.DeepCopy(), Spec: c.Spec, Status: c.Status}
	out.Spec.AccessModes = copySlice(c.Spec.AccessModes)
	out.Spec.Resources = ResourceRequirements{Limits: copyMap(c.Spec.Resources.Limits), Requests: copyMap(c.Spec.Resources.Requests)}
	out.Spec.StorageClassName = copyPtr(c.Spec.StorageClassName)
	out.Status.AccessModes = copySlice(c.Status.AccessModes)
	out.Status.Capacity = copyMap(c.Status.Capacity)
	return out
}

// DeepCopyObject implements Object.
func (c *PersistentVolumeClaim) DeepCopyObject() Object { return c.DeepCopy() }

// PersistentVolumeClaimVolumeSource is v1.PersistentVolumeClaimVolumeSource.
type PersistentVolumeClaimVolumeSource struct {
	ClaimName string `json:"claimName" yaml:"claimName"`
	ReadOnly  bool   `json:"readOnly,omitempty" yaml:"readOnly,omitempty"`
}
