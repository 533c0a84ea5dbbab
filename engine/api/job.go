package api

// Job completion modes, pod replacement policies and pod failure policy
// actions (batch/v1).
const (
	NonIndexedCompletion = "NonIndexed"
	IndexedCompletion    = "Indexed"

	TerminatingOrFailed = "TerminatingOrFailed"
	ReplaceFailed       = "Failed"

	PodFailurePolicyActionFailJob = "FailJob"
	PodFailurePolicyActionIgnore  = "Ignore"
	PodFailurePolicyActionCount   = "Count"
	// PodFailurePolicyActionFailIndex needs backoffLimitPerIndex, which
	// Stateflow does not simulate: validation refuses it, saying so.
	PodFailurePolicyActionFailIndex = "FailIndex"
)

// Job condition types (batch/v1 JobConditionType).
const (
	JobComplete           = "Complete"
	JobFailed             = "Failed"
	JobSuspended          = "Suspended"
	JobFailureTarget      = "FailureTarget"
	JobSuccessCriteriaMet = "SuccessCriteriaMet"
)

// The labels, annotation and finalizer the Job controller uses.
const (
	LabelJobName            = "batch.kubernetes.io/job-name"
	LabelLegacyJobName      = "job-name"
	LabelControllerUID      = "batch.kubernetes.io/controller-uid"
	LabelLegacyControlerUID = "controller-uid"
	JobCompletionIndex      = "batch.kubernetes.io/job-completion-index"
	JobTrackingFinalizer    = "batch.kubernetes.io/job-tracking"
)

// Job is batch/v1 Job.
type Job struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       JobSpec   `json:"spec" yaml:"spec"`
	Status     JobStatus `json:"status" yaml:"status"`
}

// JobSpec is batch/v1 JobSpec without successPolicy, backoffLimitPerIndex
// and maxFailedIndexes (not simulated).
type JobSpec struct {
	Parallelism             *int32            `json:"parallelism,omitempty" yaml:"parallelism,omitempty"`
	Completions             *int32            `json:"completions,omitempty" yaml:"completions,omitempty"`
	ActiveDeadlineSeconds   *int64            `json:"activeDeadlineSeconds,omitempty" yaml:"activeDeadlineSeconds,omitempty"`
	PodFailurePolicy        *PodFailurePolicy `json:"podFailurePolicy,omitempty" yaml:"podFailurePolicy,omitempty"`
	BackoffLimit            *int32            `json:"backoffLimit,omitempty" yaml:"backoffLimit,omitempty"`
	Selector                *LabelSelector    `json:"selector,omitempty" yaml:"selector,omitempty"`
	ManualSelector          *bool             `json:"manualSelector,omitempty" yaml:"manualSelector,omitempty"`
	Template                PodTemplateSpec   `json:"template" yaml:"template"`
	TTLSecondsAfterFinished *int32            `json:"ttlSecondsAfterFinished,omitempty" yaml:"ttlSecondsAfterFinished,omitempty"`
	CompletionMode          *string           `json:"completionMode,omitempty" yaml:"completionMode,omitempty"`
	Suspend                 *bool             `json:"suspend,omitempty" yaml:"suspend,omitempty"`
	PodReplacementPolicy    *string           `json:"podReplacementPolicy,omitempty" yaml:"podReplacementPolicy,omitempty"`
	ManagedBy               *string           `json:"managedBy,omitempty" yaml:"managedBy,omitempty"`
}

// PodFailurePolicy is batch/v1 PodFailurePolicy.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules" yaml:"rules"`
}

// PodFailurePolicyRule is batch/v1 PodFailurePolicyRule.
type PodFailurePolicyRule struct {
	Action          string                                   `json:"action" yaml:"action"`
	OnExitCodes     *PodFailurePolicyOnExitCodesRequirement  `json:"onExitCodes,omitempty" yaml:"onExitCodes,omitempty"`
	OnPodConditions []PodFailurePolicyOnPodConditionsPattern `json:"onPodConditions,omitempty" yaml:"onPodConditions,omitempty"`
}

// PodFailurePolicyOnExitCodesRequirement is batch/v1's.
type PodFailurePolicyOnExitCodesRequirement struct {
	ContainerName *string `json:"containerName,omitempty" yaml:"containerName,omitempty"`
	Operator      string  `json:"operator" yaml:"operator"`
	Values        []int32 `json:"values" yaml:"values"`
}

// PodFailurePolicyOnPodConditionsPattern is batch/v1's.
type PodFailurePolicyOnPodConditionsPattern struct {
	Type   string `json:"type" yaml:"type"`
	Status string `json:"status,omitempty" yaml:"status,omitempty"`
}

// JobStatus is batch/v1 JobStatus.
type JobStatus struct {
	Conditions              []JobCondition           `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	StartTime               *Time                    `json:"startTime,omitempty" yaml:"startTime,omitempty"`
	CompletionTime          *Time                    `json:"completionTime,omitempty" yaml:"completionTime,omitempty"`
	Active                  int32                    `json:"active,omitempty" yaml:"active,omitempty"`
	Succeeded               int32                    `json:"succeeded,omitempty" yaml:"succeeded,omitempty"`
	Failed                  int32                    `json:"failed,omitempty" yaml:"failed,omitempty"`
	Terminating             *int32                   `json:"terminating,omitempty" yaml:"terminating,omitempty"`
	CompletedIndexes        string                   `json:"completedIndexes,omitempty" yaml:"completedIndexes,omitempty"`
	FailedIndexes           *string                  `json:"failedIndexes,omitempty" yaml:"failedIndexes,omitempty"`
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty" yaml:"uncountedTerminatedPods,omitempty"`
	Ready                   *int32                   `json:"ready,omitempty" yaml:"ready,omitempty"`
}

// UncountedTerminatedPods is batch/v1's: the UIDs of finished pods whose
// finalizer the controller has yet to remove.
type UncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded,omitempty" yaml:"succeeded,omitempty"`
	Failed    []string `json:"failed,omitempty" yaml:"failed,omitempty"`
}

// JobCondition is batch/v1 JobCondition.
type JobCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastProbeTime      Time   `json:"lastProbeTime" yaml:"lastProbeTime"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"lastTransitionTime"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// GetKind returns "Job".
func (j *Job) GetKind() string { return KindJob }

// Meta returns the metadata.
func (j *Job) Meta() *ObjectMeta { return &j.ObjectMeta }

// Indexed reports whether the Job's completion mode is Indexed.
func (j *Job) Indexed() bool {
	return j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == IndexedCompletion
}

// Suspended reports spec.suspend.
func (j *Job) Suspended() bool { return j.Spec.Suspend != nil && *j.Spec.Suspend }

// Condition returns the condition of type t, if the status has one.
func (j *Job) Condition(t string) *JobCondition {
	for i := range j.Status.Conditions {
		if j.Status.Conditions[i].Type == t {
			return &j.Status.Conditions[i]
		}
	}
	return nil
}

// HasCondition reports whether condition t is True (IsJobFinished and
// friends).
func (j *Job) HasCondition(t string) bool {
	c := j.Condition(t)
	return c != nil && c.Status == ConditionTrue
}

// Finished reports whether the Job is Complete or Failed (IsJobFinished).
func (j *Job) Finished() bool { return j.HasCondition(JobComplete) || j.HasCondition(JobFailed) }

// DeepCopy returns an independent copy.
func (j *Job) DeepCopy() *Job {
	out := &Job{TypeMeta: j.TypeMeta, ObjectMeta: j.ObjectMeta.DeepCopy(), Spec: j.Spec.DeepCopy(), Status: j.Status.DeepCopy()}
	return out
}

// DeepCopy returns an independent copy of the spec.
func (s *JobSpec) DeepCopy() JobSpec {
	out := *s
	out.Parallelism = copyPtr(s.Parallelism)
	out.Completions = copyPtr(s.Completions)
	out.ActiveDeadlineSeconds = copyPtr(s.ActiveDeadlineSeconds)
	if s.PodFailurePolicy != nil {
		p := &PodFailurePolicy{Rules: make([]PodFailurePolicyRule, len(s.PodFailurePolicy.Rules))}
		for i, r := range s.PodFailurePolicy.Rules {
			if r.OnExitCodes != nil {
				r.OnExitCodes = &PodFailurePolicyOnExitCodesRequirement{ContainerName: copyPtr(r.OnExitCodes.ContainerName), Operator: r.OnExitCodes.Operator, Values: copySlice(r.OnExitCodes.Values)}
			}
			r.OnPodConditions = copySlice(r.OnPodConditions)
			p.Rules[i] = r
		}
		if s.PodFailurePolicy.Rules == nil {
			p.Rules = nil
		}
		out.PodFailurePolicy = p
	}
	out.BackoffLimit = copyPtr(s.BackoffLimit)
	out.Selector = s.Selector.DeepCopy()
	out.ManualSelector = copyPtr(s.ManualSelector)
	out.Template = s.Template.DeepCopy()
	out.TTLSecondsAfterFinished = copyPtr(s.TTLSecondsAfterFinished)
	out.CompletionMode = copyPtr(s.CompletionMode)
	out.Suspend = copyPtr(s.Suspend)
	out.PodReplacementPolicy = copyPtr(s.PodReplacementPolicy)
	out.ManagedBy = copyPtr(s.ManagedBy)
	return out
}

// DeepCopy returns an independent copy of the status.
func (s *JobStatus) DeepCopy() JobStatus {
	out := *s
	out.Conditions = copySlice(s.Conditions)
	out.StartTime = copyPtr(s.StartTime)
	out.CompletionTime = copyPtr(s.CompletionTime)
	out.Terminating = copyPtr(s.Terminating)
	out.FailedIndexes = copyPtr(s.FailedIndexes)
	out.Ready = copyPtr(s.Ready)
	if u := s.UncountedTerminatedPods; u != nil {
		out.UncountedTerminatedPods = &UncountedTerminatedPods{Succeeded: copySlice(u.Succeeded), Failed: copySlice(u.Failed)}
	}
	return out
}

// DeepCopyObject implements Object.
func (j *Job) DeepCopyObject() Object { return j.DeepCopy() }
