package api

// DaemonSet update strategies.
const (
	DaemonSetRollingUpdate = "RollingUpdate"
	DaemonSetOnDelete      = "OnDelete"
)

// The labels and annotation that tie a DaemonSet's pods to a revision.
const (
	LabelControllerRevisionHash  = "controller-revision-hash"
	LabelPodTemplateGeneration   = "pod-template-generation"
	AnnotationTemplateGeneration = "deprecated.daemonset.template.generation"
)

// DaemonSet is apps/v1 DaemonSet.
type DaemonSet struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       DaemonSetSpec   `json:"spec" yaml:"spec"`
	Status     DaemonSetStatus `json:"status" yaml:"status"`
}

// DaemonSetSpec is apps/v1 DaemonSetSpec.
type DaemonSetSpec struct {
	Selector             *LabelSelector          `json:"selector" yaml:"selector"`
	Template             PodTemplateSpec         `json:"template" yaml:"template"`
	UpdateStrategy       DaemonSetUpdateStrategy `json:"updateStrategy,omitempty" yaml:"updateStrategy,omitempty"`
	MinReadySeconds      int32                   `json:"minReadySeconds,omitempty" yaml:"minReadySeconds,omitempty"`
	RevisionHistoryLimit *int32                  `json:"revisionHistoryLimit,omitempty" yaml:"revisionHistoryLimit,omitempty"`
}

// DaemonSetUpdateStrategy is apps/v1 DaemonSetUpdateStrategy.
type DaemonSetUpdateStrategy struct {
	Type          string                  `json:"type,omitempty" yaml:"type,omitempty"`
	RollingUpdate *RollingUpdateDaemonSet `json:"rollingUpdate,omitempty" yaml:"rollingUpdate,omitempty"`
}

// RollingUpdateDaemonSet is apps/v1 RollingUpdateDaemonSet.
type RollingUpdateDaemonSet struct {
	MaxUnavailable *IntOrString `json:"maxUnavailable,omitempty" yaml:"maxUnavailable,omitempty"`
	MaxSurge       *IntOrString `json:"maxSurge,omitempty" yaml:"maxSurge,omitempty"`
}

// DaemonSetStatus is apps/v1 DaemonSetStatus.
type DaemonSetStatus struct {
	CurrentNumberScheduled int32  `json:"currentNumberScheduled" yaml:"currentNumberScheduled"`
	NumberMisscheduled     int32  `json:"numberMisscheduled" yaml:"numberMisscheduled"`
	DesiredNumberScheduled int32  `json:"desiredNumberScheduled" yaml:"desiredNumberScheduled"`
	NumberReady            int32  `json:"numberReady" yaml:"numberReady"`
	ObservedGeneration     int64  `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32  `json:"updatedNumberScheduled,omitempty" yaml:"updatedNumberScheduled,omitempty"`
	NumberAvailable        int32  `json:"numberAvailable,omitempty" yaml:"numberAvailable,omitempty"`
	NumberUnavailable      int32  `json:"numberUnavailable,omitempty" yaml:"numberUnavailable,omitempty"`
	CollisionCount         *int32 `json:"collisionCount,omitempty" yaml:"collisionCount,omitempty"`
}

// GetKind returns "DaemonSet".
func (d *DaemonSet) GetKind() string { return KindDaemonSet }

// Meta returns the metadata.
func (d *DaemonSet) Meta() *ObjectMeta { return &d.ObjectMeta }

// DeepCopy returns an independent copy.
func (d *DaemonSet) DeepCopy() *DaemonSet {
	out := &DaemonSet{TypeMeta: d.TypeMeta, ObjectMeta: d.ObjectMeta.DeepCopy(), Spec: d.Spec, Status: d.Status}
	out.Spec.Selector = d.Spec.Selector.DeepCopy()
	out.Spec.Template = d.Spec.Template.DeepCopy()
	out.Spec.RevisionHistoryLimit = copyPtr(d.Spec.RevisionHistoryLimit)
	if ru := d.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		out.Spec.UpdateStrategy.RollingUpdate = &RollingUpdateDaemonSet{MaxUnavailable: copyPtr(ru.MaxUnavailable), MaxSurge: copyPtr(ru.MaxSurge)}
	}
	out.Status.CollisionCount = copyPtr(d.Status.CollisionCount)
	return out
}

// DeepCopyObject implements Object.
func (d *DaemonSet) DeepCopyObject() Object { return d.DeepCopy() }

// ControllerRevision is apps/v1 ControllerRevision: one version of a
// DaemonSet's (or StatefulSet's) template, kept for rollbacks.
type ControllerRevision struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Data       RevisionData `json:"data" yaml:"data"`
	Revision   int64        `json:"revision" yaml:"revision"`
}

// RevisionData is the patch a revision stores: the owner's template,
// marked to replace the whole template when applied (getPatch).
type RevisionData struct {
	Spec RevisionSpec `json:"spec" yaml:"spec"`
}

// RevisionSpec is the spec part of the patch.
type RevisionSpec struct {
	Template RevisionTemplate `json:"template" yaml:"template"`
}

// RevisionTemplate is a pod template with the strategic-merge directive.
type RevisionTemplate struct {
	Patch           string `json:"$patch" yaml:"$patch"`
	PodTemplateSpec `json:",inline" yaml:",inline"`
}

// GetKind returns "ControllerRevision".
func (r *ControllerRevision) GetKind() string { return KindControllerRevision }

// Meta returns the metadata.
func (r *ControllerRevision) Meta() *ObjectMeta { return &r.ObjectMeta }

// DeepCopy returns an independent copy.
func (r *ControllerRevision) DeepCopy() *ControllerRevision {
	out := &ControllerRevision{TypeMeta: r.TypeMeta, ObjectMeta: r.ObjectMeta.DeepCopy(), Data: r.Data, Revision: r.Revision}
	out.Data.Spec.Template.PodTemplateSpec = r.Data.Spec.Template.DeepCopy()
	return out
}

// DeepCopyObject implements Object.
func (r *ControllerRevision) DeepCopyObject() Object { return r.DeepCopy() }
