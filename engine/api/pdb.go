package api

// PodDisruptionBudget condition, reasons and policies (policy/v1).
const (
	DisruptionAllowedCondition = "DisruptionAllowed"
	SyncFailedReason           = "SyncFailed"
	SufficientPodsReason       = "SufficientPods"
	InsufficientPodsReason     = "InsufficientPods"

	IfHealthyBudget = "IfHealthyBudget"
	AlwaysAllow     = "AlwaysAllow"

	// DisruptionBudgetCause is the StatusCause type of an eviction refused
	// for a budget.
	DisruptionBudgetCause = "DisruptionBudget"
)

// PodDisruptionBudget is policy/v1 PodDisruptionBudget.
type PodDisruptionBudget struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       PodDisruptionBudgetSpec   `json:"spec" yaml:"spec"`
	Status     PodDisruptionBudgetStatus `json:"status" yaml:"status"`
}

// PodDisruptionBudgetSpec is policy/v1's: at most one of MinAvailable and
// MaxUnavailable.
type PodDisruptionBudgetSpec struct {
	MinAvailable               *IntOrString   `json:"minAvailable,omitempty" yaml:"minAvailable,omitempty"`
	Selector                   *LabelSelector `json:"selector,omitempty" yaml:"selector,omitempty"`
	MaxUnavailable             *IntOrString   `json:"maxUnavailable,omitempty" yaml:"maxUnavailable,omitempty"`
	UnhealthyPodEvictionPolicy *string        `json:"unhealthyPodEvictionPolicy,omitempty" yaml:"unhealthyPodEvictionPolicy,omitempty"`
}

// PodDisruptionBudgetStatus is policy/v1's. DisruptedPods maps the name
// of each pod the Eviction API let go to when it did, until the
// disruption controller sees the pod deleting (or two minutes pass).
type PodDisruptionBudgetStatus struct {
	ObservedGeneration int64           `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	DisruptedPods      map[string]Time `json:"disruptedPods,omitempty" yaml:"disruptedPods,omitempty"`
	DisruptionsAllowed int32           `json:"disruptionsAllowed" yaml:"disruptionsAllowed"`
	CurrentHealthy     int32           `json:"currentHealthy" yaml:"currentHealthy"`
	DesiredHealthy     int32           `json:"desiredHealthy" yaml:"desiredHealthy"`
	ExpectedPods       int32           `json:"expectedPods" yaml:"expectedPods"`
	Conditions         []Condition     `json:"conditions,omitempty" yaml:"conditions,omitempty"`
}

// Condition is metav1.Condition, the condition type of newer APIs.
type Condition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	ObservedGeneration int64  `json:"observedGeneration,omitempty" yaml:"observedGeneration,omitempty"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"lastTransitionTime"`
	Reason             string `json:"reason" yaml:"reason"`
	Message            string `json:"message" yaml:"message"`
}

// FindCondition is apimeta.FindStatusCondition.
func FindCondition(conds []Condition, t string) *Condition {
	for i := range conds {
		if conds[i].Type == t {
			return &conds[i]
		}
	}
	return nil
}

// SetCondition is apimeta.SetStatusCondition at virtual time now: a new
// status moves lastTransitionTime; reason, message and
// observedGeneration are always taken. It reports a change.
func SetCondition(conds *[]Condition, c Condition, now int64) bool {
	old := FindCondition(*conds, c.Type)
	if old == nil {
		if c.LastTransitionTime.IsZero() {
			c.LastTransitionTime = At(now)
		}
		*conds = append(*conds, c)
		return true
	}
	changed := false
	if old.Status != c.Status {
		old.Status = c.Status
		old.LastTransitionTime = c.LastTransitionTime
		if old.LastTransitionTime.IsZero() {
			old.LastTransitionTime = At(now)
		}
		changed = true
	}
	if old.Reason != c.Reason || old.Message != c.Message || old.ObservedGeneration != c.ObservedGeneration {
		old.Reason, old.Message, old.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
		changed = true
	}
	return changed
}

// GetKind returns "PodDisruptionBudget".
func (p *PodDisruptionBudget) GetKind() string { return KindPodDisruptionBudget }

// Meta returns the metadata.
func (p *PodDisruptionBudget) Meta() *ObjectMeta { return &p.ObjectMeta }

// DeepCopy returns an independent copy.
func (p *PodDisruptionBudget) DeepCopy() *PodDisruptionBudget {
	out := &PodDisruptionBudget{TypeMeta: p.TypeMeta, ObjectMeta: p.ObjectMeta.DeepCopy(), Spec: p.Spec, Status: p.Status}
	out.Spec.MinAvailable = copyPtr(p.Spec.MinAvailable)
	out.Spec.MaxUnavailable = copyPtr(p.Spec.MaxUnavailable)
	out.Spec.Selector = p.Spec.Selector.DeepCopy()
	out.Spec.UnhealthyPodEvictionPolicy = copyPtr(p.Spec.UnhealthyPodEvictionPolicy)
	out.Status.DisruptedPods = copyMap(p.Status.DisruptedPods)
	out.Status.Conditions = copySlice(p.Status.Conditions)
	return out
}

// DeepCopyObject implements Object.
func (p *PodDisruptionBudget) DeepCopyObject() Object { return p.DeepCopy() }

// UpdateDisruptionAllowedCondition is component-helpers'
// poddisruptionbudget.UpdateDisruptionAllowedCondition: True
// SufficientPods while disruptions are allowed, else False
// InsufficientPods, with an empty message.
func UpdateDisruptionAllowedCondition(p *PodDisruptionBudget, now int64) {
	if p.Status.Conditions == nil {
		p.Status.Conditions = []Condition{}
	}
	c := Condition{Type: DisruptionAllowedCondition, Reason: InsufficientPodsReason, Status: ConditionFalse, ObservedGeneration: p.Status.ObservedGeneration}
	if p.Status.DisruptionsAllowed > 0 {
		c.Reason, c.Status = SufficientPodsReason, ConditionTrue
	}
	SetCondition(&p.Status.Conditions, c, now)
}

// ConditionsAreUpToDate is poddisruptionbudget.ConditionsAreUpToDate.
func (p *PodDisruptionBudget) ConditionsAreUpToDate() bool {
	c := FindCondition(p.Status.Conditions, DisruptionAllowedCondition)
	if c == nil || p.Status.ObservedGeneration != p.Generation {
		return false
	}
	if p.Status.DisruptionsAllowed > 0 {
		return c.Status == ConditionTrue && c.Reason == SufficientPodsReason
	}
	return c.Status == ConditionFalse && c.Reason == InsufficientPodsReason
}
