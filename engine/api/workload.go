package api

// Deployment strategy types and condition vocabulary.
const (
	RecreateStrategy      = "Recreate"
	RollingUpdateStrategy = "RollingUpdate"

	DeploymentAvailable      = "Available"
	DeploymentProgressing    = "Progressing"
	DeploymentReplicaFailure = "ReplicaFailure"
	ReplicaSetReplicaFailure = "ReplicaFailure"
)

// Deployment is apps/v1 Deployment.
type Deployment struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       DeploymentSpec   `json:"spec" yaml:"spec"`
	Status     DeploymentStatus `json:"status" yaml:"status"`
}

// DeploymentSpec is apps/v1 DeploymentSpec.
type DeploymentSpec struct {
	Replicas                *int32             `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	Selector                *LabelSelector     `json:"selector" yaml:"selector"`
	Template                PodTemplateSpec    `json:"template" yaml:"template"`
	Strategy                DeploymentStrategy `json:"strategy" yaml:"strategy"`
	MinReadySeconds         int32              `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	RevisionHistoryLimit    *int32             `json:"revisionHistoryLimit,omitempty" yaml:"revisionHistoryLimit,omitempty"`
	Paused                  bool               `json:"paused,omitempty" yaml:"paused,omitempty"`
	ProgressDeadlineSeconds *int32             `json:"progressDeadlineSeconds,omitempty" yaml:"progressDeadlineSeconds,omitempty"`
}

// DeploymentStrategy is the update strategy.
type DeploymentStrategy struct {
	Type          string                   `json:"type,omitempty" yaml:"type,omitempty"`
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty" yaml:"rollingUpdate,omitempty"`
}

// RollingUpdateDeployment holds maxUnavailable and maxSurge.
type RollingUpdateDeployment struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty" yaml:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty" yaml:"maxSurge,omitempty"`
}

// DeploymentStatus is apps/v1 DeploymentStatus.
type DeploymentStatus struct {
	ObservedGeneration  int64                 `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	Replicas            int32                 `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	UpdatedReplicas     int32                 `json:"updatedReplicas,omitempty" yaml:"updatedReplicas,omitempty"`
	ReadyReplicas       int32                 `json:"readyReplicas,omitempty" yaml:"readyReplicas,omitempty"`
	AvailableReplicas   int32                 `json:"availableReplicas,omitempty" yaml:"availableReplicas,omitempty"`
	UnavailableReplicas int32                 `json:"unavailableReplicas,omitempty" yaml:"unavailableReplicas,omitempty"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	CollisionCount      *int32                `json:"collisionCount,omitempty" yaml:"collisionCount,omitempty"`
}

// DeploymentCondition is apps/v1 DeploymentCondition.
type DeploymentCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastUpdateTime     Time   `json:"lastUpdateTime" yaml:"lastUpdateTime"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"lastTransitionTime"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// ReplicaSet is apps/v1 ReplicaSet.
type ReplicaSet struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       ReplicaSetSpec   `json:"spec" yaml:"spec"`
	Status     ReplicaSetStatus `json:"status" yaml:"status"`
}

// ReplicaSetSpec is apps/v1 ReplicaSetSpec.
type ReplicaSetSpec struct {
	Replicas        *int32          `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	MinReadySeconds int32           `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	Selector        *LabelSelector  `json:"selector" yaml:"selector"`
	Template        PodTemplateSpec `json:"template" yaml:"template"`
}

// ReplicaSetStatus is apps/v1 ReplicaSetStatus.
type ReplicaSetStatus struct {
	Replicas             int32                 `json:"replicas" yaml:"replicas"`
	FullyLabeledReplicas int32                 `json:"fullyLabeledReplicas,omitempty" yaml:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                 `json:"readyReplicas,omitempty" yaml:"readyReplicas,omitempty"`
	AvailableReplicas    int32                 `json:"availableReplicas,omitempty" yaml:"availableReplicas,omitempty"`
	ObservedGeneration   int64                 `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	Conditions           []ReplicaSetCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
}

// ReplicaSetCondition is apps/v1 ReplicaSetCondition.
type ReplicaSetCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"lastTransitionTime"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// GetKind returns "Deployment".
func (d *Deployment) GetKind() string { return KindDeployment }

// Meta returns the metadata.
func (d *Deployment) Meta() *ObjectMeta { return &d.ObjectMeta }

// GetKind returns "ReplicaSet".
func (r *ReplicaSet) GetKind() string { return KindReplicaSet }

// Meta returns the metadata.
func (r *ReplicaSet) Meta() *ObjectMeta { return &r.ObjectMeta }

// Replicas returns *spec.replicas, or 0 when unset.
func (d *Deployment) Replicas() int32 { return deref(d.Spec.Replicas) }

// Replicas returns *spec.replicas, or 0 when unset.
func (r *ReplicaSet) Replicas() int32 { return deref(r.Spec.Replicas) }

// Condition returns the deployment condition of type t, or nil.
func (s *DeploymentStatus) Condition(t string) *DeploymentCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// Condition returns the ReplicaSet condition of type t, or nil.
func (s *ReplicaSetStatus) Condition(t string) *ReplicaSetCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

func deref(p *int32) int32 {
	if p == nil {
		return 0
	}
	return *p
}

// Int32 returns a pointer to v.
func Int32(v int32) *int32 { return &v }

// Int64 returns a pointer to v.
func Int64(v int64) *int64 { return &v }

// String returns a pointer to v.
func String(v string) *string { return &v }

// Bool returns a pointer to v.
func Bool(v bool) *bool { return &v }
