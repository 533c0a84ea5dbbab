package apiserver

// This file is the Job REST strategy: defaults (SetDefaults_Job in
// pkg/apis/batch/v1/defaults.go), the generated selector
// (generateSelector in pkg/registry/batch/job/strategy.go), validation
// (ValidateJob, ValidateJobSpecUpdate in pkg/apis/batch/validation) and
// the generation rule of an update.

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// defaultJob is SetDefaults_Job (the JobPodReplacementPolicy gate is on).
// A template's labels become the Job's when it has none: the two share
// the map, so the labels generateSelector adds later show on both.
func defaultJob(j *api.Job) {
	defaultJobSpec(&j.Spec)
	if j.Spec.Template.Labels != nil && len(j.Labels) == 0 {
		j.Labels = j.Spec.Template.Labels
	}
}

func defaultJobSpec(sp *api.JobSpec) {
	if sp.Completions == nil && sp.Parallelism == nil {
		sp.Completions, sp.Parallelism = api.Int32(1), api.Int32(1)
	}
	if sp.Parallelism == nil {
		sp.Parallelism = api.Int32(1)
	}
	if sp.BackoffLimit == nil {
		sp.BackoffLimit = api.Int32(6)
	}
	if sp.CompletionMode == nil {
		m := api.NonIndexedCompletion
		sp.CompletionMode = &m
	}
	if sp.Suspend == nil {
		sp.Suspend = api.Bool(false)
	}
	if sp.PodReplacementPolicy == nil {
		p := api.TerminatingOrFailed
		if sp.PodFailurePolicy != nil {
			p = api.ReplaceFailed
		}
		sp.PodReplacementPolicy = &p
	}
	if sp.ManualSelector == nil {
		sp.ManualSelector = api.Bool(false)
	}
	defaultPodFailurePolicy(sp.PodFailurePolicy)
	defaultPodSpec(&sp.Template.Spec)
}

// defaultPodFailurePolicy is SetDefaults_PodFailurePolicyOnPodConditionsPattern:
// a pattern's status is True unless given.
func defaultPodFailurePolicy(p *api.PodFailurePolicy) {
	if p == nil {
		return
	}
	for i := range p.Rules {
		for k := range p.Rules[i].OnPodConditions {
			if c := &p.Rules[i].OnPodConditions[k]; c.Status == "" {
				c.Status = api.ConditionTrue
			}
		}
	}
}

// prepareJob is the Job strategy's PrepareForCreate after the uid is
// known: the selector and the labels that tie the pods to this Job.
func prepareJob(j *api.Job) {
	j.Status = api.JobStatus{}
	if j.Spec.ManualSelector == nil || !*j.Spec.ManualSelector {
		generateSelector(j)
	}
	// The stored Job is read back through SetDefaults_Job, which gives a
	// Job without labels its template's, the generated ones included
	// (so describe job shows job-name and controller-uid).
	if len(j.Labels) == 0 && len(j.Spec.Template.Labels) > 0 {
		j.Labels = maps.Clone(j.Spec.Template.Labels)
	}
}

// generateSelector adds the job-name and controller-uid labels (legacy
// and prefixed) to the template, unless set, and selects the
// controller-uid.
func generateSelector(j *api.Job) {
	t := &j.Spec.Template
	if t.Labels == nil {
		t.Labels = map[string]string{}
	}
	for _, k := range []string{api.LabelLegacyJobName, api.LabelJobName} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = j.Name
		}
	}
	for _, k := range []string{api.LabelLegacyControlerUID, api.LabelControllerUID} {
		if _, ok := t.Labels[k]; !ok {
			t.Labels[k] = j.UID
		}
	}
	if j.Spec.Selector == nil {
		j.Spec.Selector = &api.LabelSelector{}
	}
	if j.Spec.Selector.MatchLabels == nil {
		j.Spec.Selector.MatchLabels = map[string]string{}
	}
	if _, ok := j.Spec.Selector.MatchLabels[api.LabelControllerUID]; !ok {
		j.Spec.Selector.MatchLabels[api.LabelControllerUID] = j.UID
	}
}

// validateJob is ValidateJob for the fields simulated. A Job without a
// uid yet (a dry run) is checked without its generated selector.
func validateJob(e *errs, j *api.Job) {
	if j.UID == "" && (j.Spec.ManualSelector == nil || !*j.Spec.ManualSelector) {
		c := j.DeepCopy()
		c.UID = "dry-run"
		generateSelector(c)
		j = c
	}
	validateJobSpec(e, "spec", &j.Spec)
	if j.Spec.Selector == nil {
		e.required("spec.selector")
	} else if !j.Spec.Selector.Matches(j.Spec.Template.Labels) {
		e.invalid("spec.template.metadata.labels", j.Spec.Template.Labels, "`selector` does not match template `labels`")
	}
}

// validateJobSpec is validateJobSpec: what a Job and a CronJob's Job
// template share.
func validateJobSpec(e *errs, path string, sp *api.JobSpec) {
	for _, f := range []struct {
		name string
		v    *int32
	}{{"parallelism", sp.Parallelism}, {"completions", sp.Completions}, {"backoffLimit", sp.BackoffLimit}, {"ttlSecondsAfterFinished", sp.TTLSecondsAfterFinished}} {
		if f.v != nil && *f.v < 0 {
			e.invalid(path+"."+f.name, int64(*f.v), "must be greater than or equal to 0")
		}
	}
	if d := sp.ActiveDeadlineSeconds; d != nil && *d < 0 {
		e.invalid(path+".activeDeadlineSeconds", *d, "must be greater than or equal to 0")
	}
	if m := sp.CompletionMode; m != nil {
		switch *m {
		case api.NonIndexedCompletion:
		case api.IndexedCompletion:
			if sp.Completions == nil {
				e.add(path+".completions", "Required value: when completion mode is Indexed")
			}
			if sp.Parallelism != nil && *sp.Parallelism > 100000 {
				e.invalid(path+".parallelism", int64(*sp.Parallelism), "must be less than or equal to 100000 when completion mode is Indexed")
			}
		default:
			e.add(path+".completionMode", "Unsupported value: %q: supported values: \"NonIndexed\", \"Indexed\"", *m)
		}
	}
	validateLabels(e, path+".template.metadata.labels", sp.Template.Labels)
	validatePodSpec(e, path+".template.spec", &sp.Template.Spec, true)
	switch rp := sp.Template.Spec.RestartPolicy; {
	case rp == "Always" || rp == "":
		e.add(path+".template.spec.restartPolicy", "Required value: valid values: \"OnFailure\", \"Never\"")
	case rp != "OnFailure" && rp != "Never":
		e.add(path+".template.spec.restartPolicy", "Unsupported value: %q: supported values: \"OnFailure\", \"Never\"", rp)
	case sp.PodFailurePolicy != nil && rp != "Never":
		e.invalid(path+".template.spec.restartPolicy", rp, "only \"Never\" is supported when podFailurePolicy is specified")
	}
	if p := sp.PodReplacementPolicy; p != nil {
		switch {
		case sp.PodFailurePolicy != nil && *p != api.ReplaceFailed:
			e.add(path+".podReplacementPolicy", "Unsupported value: %q: supported values: \"Failed\"", *p)
		case *p != api.ReplaceFailed && *p != api.TerminatingOrFailed:
			e.add(path+".podReplacementPolicy", "Unsupported value: %q: supported values: \"Failed\", \"TerminatingOrFailed\"", *p)
		}
	}
	if sp.PodFailurePolicy != nil {
		validatePodFailurePolicy(e, path+".podFailurePolicy", sp)
	}
}

// validatePodFailurePolicy is validatePodFailurePolicy without FailIndex
// (it needs backoffLimitPerIndex, which is not simulated).
func validatePodFailurePolicy(e *errs, path string, sp *api.JobSpec) {
	names := map[string]bool{}
	for _, c := range sp.Template.Spec.Containers {
		names[c.Name] = true
	}
	for i, r := range sp.PodFailurePolicy.Rules {
		rp := fmt.Sprintf("%s.rules[%d]", path, i)
		switch r.Action {
		case api.PodFailurePolicyActionFailJob, api.PodFailurePolicyActionIgnore, api.PodFailurePolicyActionCount:
		case "":
			e.add(rp+".action", "Required value: valid values: [\"Count\" \"FailIndex\" \"FailJob\" \"Ignore\"]")
		case api.PodFailurePolicyActionFailIndex:
			// Upstream takes it with backoffLimitPerIndex set, and refuses it
			// without ("requires the backoffLimitPerIndex to be set").
			e.add(rp+".action", "Unsupported value: %q: FailIndex needs backoffLimitPerIndex, which Stateflow does not simulate; supported values: \"Count\", \"FailJob\", \"Ignore\"", r.Action)
		default:
			e.add(rp+".action", "Unsupported value: %q: supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"", r.Action)
		}
		switch {
		case r.OnExitCodes != nil && len(r.OnPodConditions) > 0:
			e.add(rp, "Invalid value: specifying both OnExitCodes and OnPodConditions is not supported")
		case r.OnExitCodes == nil && len(r.OnPodConditions) == 0:
			e.add(rp, "Invalid value: specifying one of OnExitCodes and OnPodConditions is required")
		}
		if c := r.OnExitCodes; c != nil {
			validateOnExitCodes(e, rp+".onExitCodes", c, names)
		}
		for k, c := range r.OnPodConditions {
			if c.Status != "True" && c.Status != "False" && c.Status != "Unknown" {
				e.add(fmt.Sprintf("%s.onPodConditions[%d].status", rp, k), "Unsupported value: %q: supported values: \"False\", \"True\", \"Unknown\"", c.Status)
			}
		}
	}
}

func validateOnExitCodes(e *errs, path string, c *api.PodFailurePolicyOnExitCodesRequirement, containers map[string]bool) {
	switch c.Operator {
	case "In", "NotIn":
	case "":
		e.add(path+".operator", "Required value: valid values: [\"In\" \"NotIn\"]")
	default:
		e.add(path+".operator", "Unsupported value: %q: supported values: \"In\", \"NotIn\"", c.Operator)
	}
	if c.ContainerName != nil && !containers[*c.ContainerName] {
		e.invalid(path+".containerName", *c.ContainerName, "must be one of the container or initContainer names in the pod template")
	}
	if len(c.Values) == 0 {
		e.add(path+".values", "Invalid value: []int32{}: at least one value is required")
	}
	for i, v := range c.Values {
		if c.Operator == "In" && v == 0 {
			e.invalid(fmt.Sprintf("%s.values[%d]", path, i), int64(v), "must not be 0 for the In operator")
		}
	}
	if !slices.IsSorted(c.Values) {
		e.add(path+".values", "Invalid value: %#v: must be ordered", c.Values)
	}
}

// updateJob is the Job strategy's PrepareForUpdate and
// ValidateJobSpecUpdate: the selector, completion mode, pod failure
// policy, managedBy and (once the Job has started, or unless it is
// suspended) the template are immutable; completions too, but for an
// Indexed Job scaled elastically (completions and parallelism together).
func updateJob(o, old *api.Job) error {
	defaultJobSpec(&o.Spec)
	o.TypeMeta, o.Status = old.TypeMeta, old.Status
	var e errs
	immutable := func(name string, a, b any) {
		if !reflect.DeepEqual(a, b) {
			e.add("spec."+name, "Invalid value: %s: field is immutable", immutableValue(a))
		}
	}
	immutable("selector", o.Spec.Selector, old.Spec.Selector)
	elastic := o.Indexed() && old.Indexed() && o.Spec.Completions != nil && o.Spec.Parallelism != nil && *o.Spec.Completions == *o.Spec.Parallelism
	if !elastic {
		immutable("completions", o.Spec.Completions, old.Spec.Completions)
	}
	immutable("completionMode", o.Spec.CompletionMode, old.Spec.CompletionMode)
	immutable("podFailurePolicy", o.Spec.PodFailurePolicy, old.Spec.PodFailurePolicy)
	immutable("managedBy", o.Spec.ManagedBy, old.Spec.ManagedBy)
	if !(old.Suspended() && old.Status.StartTime == nil) {
		immutable("template", &o.Spec.Template, &old.Spec.Template)
	}
	if len(e) > 0 {
		return &InvalidError{Kind: api.KindJob, Name: o.Name, Fields: e}
	}
	if !reflect.DeepEqual(&o.Spec, &old.Spec) {
		o.Generation++
	}
	return nil
}

// immutableValue renders a changed value the way field.Invalid does for
// the simple ones; a struct is named by its type only.
func immutableValue(v any) string {
	switch t := v.(type) {
	case *int32:
		if t == nil {
			return "null"
		}
		return fmt.Sprint(*t)
	case *string:
		if t == nil {
			return "null"
		}
		return fmt.Sprintf("%q", *t)
	case *api.LabelSelector:
		return fmtSelector(t)
	case *api.PodTemplateSpec:
		return "core.PodTemplateSpec{…}"
	}
	return fmt.Sprintf("%T{…}", v)
}

// jobStrategy is pkg/registry/batch/job/strategy.go; a Job's selector
// names its uid (named).
var jobStrategy = statusField(strategy{
	hasSpec:  true,
	defaults: func(obj api.Object) { defaultJob(obj.(*api.Job)) },
	validate: func(e *errs, obj api.Object, _ timezone.Loader) { validateJob(e, obj.(*api.Job)) },
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.Job)
		defaultJob(o)
		o.Status = api.JobStatus{}
	},
	named: func(obj api.Object) { prepareJob(obj.(*api.Job)) },
	prepareForUpdate: func(_ *Store, obj, old api.Object) error {
		return updateJob(obj.(*api.Job), old.(*api.Job))
	},
}, &api.Job{})
