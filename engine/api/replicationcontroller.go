package api

// ReplicationController is v1 ReplicationController, the ReplicaSet's
// predecessor: the same controller keeps its pods, but its selector is a
// plain map of labels every pod must have (an equality selector), and its
// template is a pointer.
type ReplicationController struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       ReplicationControllerSpec   `json:"spec" yaml:"spec"`
	Status     ReplicationControllerStatus `json:"status" yaml:"status"`
}

// ReplicationControllerSpec is v1 ReplicationControllerSpec.
type ReplicationControllerSpec struct {
	Replicas        *int32            `json:"replicas,omitempty" yaml:"replicas,omitempty"`
	MinReadySeconds int32             `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	Selector        map[string]string `json:"selector,omitempty" yaml:"selector,omitempty"`
	Template        *PodTemplateSpec  `json:"template,omitempty" yaml:"template,omitempty"`
}

// ReplicationControllerStatus is v1 ReplicationControllerStatus: the
// ReplicaSet's status, field for field.
type ReplicationControllerStatus struct {
	Replicas             int32                            `json:"replicas" yaml:"replicas"`
	FullyLabeledReplicas int32                            `json:"fullyLabeledReplicas,omitempty" yaml:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas        int32                            `json:"readyReplicas,omitempty" yaml:"readyReplicas,omitempty"`
	AvailableReplicas    int32                            `json:"availableReplicas,omitempty" yaml:"availableReplicas,omitempty"`
	ObservedGeneration   int64                            `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	Conditions           []ReplicationControllerCondition `json:"conditions,omitempty" yaml:"conditions,omitempty"`
}

// ReplicationControllerCondition is v1 ReplicationControllerCondition,
// the same as a ReplicaSet's.
type ReplicationControllerCondition = ReplicaSetCondition

// GetKind returns "ReplicationController".
func (r *ReplicationController) GetKind() string { return KindReplicationController }

// Meta returns the metadata.
func (r *ReplicationController) Meta() *ObjectMeta { return &r.ObjectMeta }

// Replicas returns *spec.replicas, or 0 when unset.
func (r *ReplicationController) Replicas() int32 { return deref(r.Spec.Replicas) }

// DeepCopy returns an independent copy of the ReplicationController.
func (r *ReplicationController) DeepCopy() *ReplicationController {
	out := &ReplicationController{TypeMeta: r.TypeMeta, ObjectMeta: r.ObjectMeta.DeepCopy(), Spec: r.Spec, Status: r.Status}
	out.Spec.Replicas = copyPtr(r.Spec.Replicas)
	out.Spec.Selector = copyMap(r.Spec.Selector)
	if r.Spec.Template != nil {
		t := r.Spec.Template.DeepCopy()
		out.Spec.Template = &t
	}
	out.Status.Conditions = copySlice(r.Status.Conditions)
	return out
}

// DeepCopyObject implements Object.
func (r *ReplicationController) DeepCopyObject() Object { return r.DeepCopy() }

// AsReplicaSet is the ReplicaSet the controller reads the
// ReplicationController as (pkg/controller/replication's conversion):
// the same metadata, its selector as matchLabels, its template and
// status. It shares what it points at with r.
func (r *ReplicationController) AsReplicaSet() *ReplicaSet {
	rs := &ReplicaSet{ObjectMeta: r.ObjectMeta, Spec: ReplicaSetSpec{Replicas: r.Spec.Replicas, MinReadySeconds: r.Spec.MinReadySeconds,
		Selector: &LabelSelector{MatchLabels: r.Spec.Selector}}, Status: ReplicaSetStatus(r.Status)}
	if r.Spec.Template != nil {
		rs.Spec.Template = *r.Spec.Template
	}
	return rs
}
