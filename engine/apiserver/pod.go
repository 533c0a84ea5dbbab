package apiserver

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// podStrategy is pkg/registry/core/pod/strategy.go.
var podStrategy = statusField(strategy{
	hasSpec: true, // pods too since v1.34
	admit:   admitPodPriority,
	defaults: func(obj api.Object) {
		o := obj.(*api.Pod)
		ownSpec(o)
		defaultPodSpec(o.Spec)
	},
	validate: func(e *errs, obj api.Object, _ timezone.Loader) {
		spec := obj.(*api.Pod).Spec
		if spec == nil {
			spec = &api.PodSpec{}
		}
		validatePodSpec(e, "spec", spec, false)
		// ValidatePodCreate: a pod cannot be assigned a node while it has
		// scheduling gates.
		if spec.NodeName != "" && len(spec.SchedulingGates) > 0 && obj.Meta().ResourceVersion == "" {
			e.add("spec.nodeName", "Forbidden: cannot be set until all schedulingGates have been cleared")
		}
	},
	prepareForCreate: func(obj api.Object, shared *admitted, specs *podSpecs) {
		o := obj.(*api.Pod)
		admitPod(o, shared, specs)
		applySchedulingGatedCondition(o)
	},
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		o, prev := obj.(*api.Pod), old.(*api.Pod)
		o.TypeMeta, o.Status = prev.TypeMeta, prev.Status
		if err := validatePodUpdate(o, prev); err != nil {
			return err
		}
		if node := prev.Spec.NodeName; o.Spec == nil || o.Spec.NodeName != node {
			ownSpec(o) // o may share its spec with a stored pod
			o.Spec.NodeName = node
		}
		// The Priority admission plugin keeps what it set at creation.
		if o.Spec.Priority == nil && prev.Spec.Priority != nil || o.Spec.PreemptionPolicy == nil && prev.Spec.PreemptionPolicy != nil {
			ownSpec(o)
			o.Spec.Priority = cmp.Or(o.Spec.Priority, prev.Spec.Priority)
			o.Spec.PreemptionPolicy = cmp.Or(o.Spec.PreemptionPolicy, prev.Spec.PreemptionPolicy)
		}
		if !reflect.DeepEqual(o.Spec, prev.Spec) {
			o.Generation++ // updatePodGeneration
		}
		return nil
	},
}, &api.Pod{})

// applySchedulingGatedCondition gives a pod created with scheduling gates
// its PodScheduled=False condition, reason SchedulingGated
// (pkg/registry/core/pod/strategy.go): the scheduler does not look at it
// until they are all removed.
func applySchedulingGatedCondition(p *api.Pod) {
	if p.Spec == nil || len(p.Spec.SchedulingGates) == 0 || p.Status.Condition(api.PodScheduled) != nil {
		return
	}
	p.Status.Conditions = append(p.Status.Conditions, api.PodCondition{Type: api.PodScheduled, Status: api.ConditionFalse,
		Reason: api.PodReasonSchedulingGated, Message: "Scheduling is blocked due to non-empty scheduling gates"})
}

// updatablePodSpecFields are what ValidatePodUpdate lets an update of a
// pod change.
const updatablePodSpecFields = "`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`," +
	"`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// validatePodUpdate is the part of ValidatePodUpdate that keeps a pod's
// containers: an update may not add, remove or rename containers or init
// containers (it may change their images). Upstream's message goes on
// with a diff of the two specs, which Stateflow does not print.
func validatePodUpdate(o, prev *api.Pod) error {
	if o.Spec == nil || prev.Spec == nil {
		return nil
	}
	var fields []FieldError
	for i, g := range o.Spec.SchedulingGates {
		// validateOnlyDeletedSchedulingGates
		if !slices.Contains(prev.Spec.SchedulingGates, g) {
			fields = append(fields, FieldError{Path: fmt.Sprintf("spec.schedulingGates[%d].name", i),
				Detail: fmt.Sprintf("Forbidden: only deletion is allowed, but found new scheduling gate '%s'", g.Name)})
		}
	}
	if !sameNames(o.Spec.Containers, prev.Spec.Containers) || !sameNames(o.Spec.InitContainers, prev.Spec.InitContainers) {
		fields = append(fields, FieldError{Path: "spec", Detail: "Forbidden: pod updates may not change fields other than " + updatablePodSpecFields})
	}
	if len(fields) == 0 {
		return nil
	}
	return &InvalidError{Kind: api.KindPod, Name: o.Name, Fields: fields}
}

func sameNames(a, b []api.Container) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}
