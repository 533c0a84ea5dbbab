package apiserver

// This file is the CronJob REST strategy: defaults (SetDefaults_CronJob),
// validation (ValidateCronJobCreate, validateCronJobSpec,
// validateScheduleFormat, validateTimeZone, ValidateJobTemplateSpec in
// pkg/apis/batch/validation) and the generation rule of an update.

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

func defaultCronJob(c *api.CronJob) {
	sp := &c.Spec
	if sp.ConcurrencyPolicy == "" {
		sp.ConcurrencyPolicy = api.AllowConcurrent
	}
	if sp.Suspend == nil {
		sp.Suspend = api.Bool(false)
	}
	if sp.SuccessfulJobsHistoryLimit == nil {
		sp.SuccessfulJobsHistoryLimit = api.Int32(3)
	}
	if sp.FailedJobsHistoryLimit == nil {
		sp.FailedJobsHistoryLimit = api.Int32(1)
	}
	// SetObjectDefaults_CronJob defaults only what lies below the Job
	// template's spec (its pod spec, a pod failure policy's condition
	// status); the Job's own defaults come when the Job is created.
	defaultPodFailurePolicy(sp.JobTemplate.Spec.PodFailurePolicy)
	defaultPodSpec(&sp.JobTemplate.Spec.Template.Spec)
}

func validateCronJob(e *errs, c *api.CronJob, old *api.CronJob, zones timezone.Loader) {
	var oldSpec *api.CronJobSpec
	if old != nil {
		oldSpec = &old.Spec
	} else if len(c.Name) > 52 {
		e.invalid("metadata.name", c.Name, "must be no more than 52 characters")
	}
	sp := &c.Spec
	if sp.Schedule == "" {
		e.required("spec.schedule")
	} else {
		validateScheduleFormat(e, sp.Schedule, oldSpec != nil && strings.Contains(oldSpec.Schedule, "TZ"), sp.TimeZone, zones)
	}
	if d := sp.StartingDeadlineSeconds; d != nil && *d < 0 {
		e.invalid("spec.startingDeadlineSeconds", *d, "must be greater than or equal to 0")
	}
	if oldSpec == nil || !reflect.DeepEqual(oldSpec.TimeZone, sp.TimeZone) {
		validateTimeZone(e, sp.TimeZone, zones)
	}
	switch sp.ConcurrencyPolicy {
	case api.AllowConcurrent, api.ForbidConcurrent, api.ReplaceConcurrent:
	case "":
		e.required("spec.concurrencyPolicy")
	default:
		e.add("spec.concurrencyPolicy", "Unsupported value: %q: supported values: \"Allow\", \"Forbid\", \"Replace\"", sp.ConcurrencyPolicy)
	}
	validateJobSpec(e, "spec.jobTemplate.spec", &sp.JobTemplate.Spec)
	if sp.JobTemplate.Spec.Selector != nil {
		e.add("spec.jobTemplate.spec.selector", "Invalid value: %s: `selector` will be auto-generated", fmtSelector(sp.JobTemplate.Spec.Selector))
	}
	if m := sp.JobTemplate.Spec.ManualSelector; m != nil && *m {
		e.add("spec.jobTemplate.spec.manualSelector", "Unsupported value: true: supported values: \"nil\", \"false\"")
	}
	for _, f := range []struct {
		name string
		v    *int32
	}{{"successfulJobsHistoryLimit", sp.SuccessfulJobsHistoryLimit}, {"failedJobsHistoryLimit", sp.FailedJobsHistoryLimit}} {
		if f.v != nil && *f.v < 0 {
			e.invalid("spec."+f.name, int64(*f.v), "must be greater than or equal to 0")
		}
	}
}

// validateScheduleFormat parses the schedule as the API server does, with
// robfig/cron's standard parser (five fields or a descriptor).
func validateScheduleFormat(e *errs, schedule string, allowTZ bool, timeZone *string, zones timezone.Loader) {
	if _, err := timezone.ParseStandard(schedule, zones); err != nil {
		e.invalid("spec.schedule", schedule, err.Error())
	}
	switch {
	case allowTZ && strings.Contains(schedule, "TZ") && timeZone != nil:
		e.invalid("spec.schedule", schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule")
	case !allowTZ && strings.Contains(schedule, "TZ"):
		e.invalid("spec.schedule", schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead")
	}
}

var validTimeZoneCharacters = regexp.MustCompile(`^[A-Za-z\.\-_0-9+]{1,14}$`)

// validateTimeZone is validateTimeZone: an IANA name that loads, with
// the store's Loader (in the page, the database it downloads; natively
// time.LoadLocation, as kube-apiserver loads it).
func validateTimeZone(e *errs, tz *string, zones timezone.Loader) {
	if tz == nil {
		return
	}
	if *tz == "" {
		e.add("spec.timeZone", "Invalid value: \"\": timeZone must be nil or non-empty string")
		return
	}
	for _, part := range strings.Split(*tz, "/") {
		if part == "." || part == ".." || strings.HasPrefix(part, "-") || !validTimeZoneCharacters.MatchString(part) {
			e.invalid("spec.timeZone", *tz, fmt.Sprintf("unknown time zone %s", *tz))
			return
		}
	}
	if strings.EqualFold(*tz, "Local") {
		e.invalid("spec.timeZone", *tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones")
	}
	if _, err := zones(*tz); err != nil {
		e.invalid("spec.timeZone", *tz, err.Error())
	}
}

// updateCronJob is the CronJob strategy's PrepareForUpdate and
// ValidateCronJobUpdate.
func updateCronJob(o, old *api.CronJob, zones timezone.Loader) error {
	defaultCronJob(o)
	o.TypeMeta, o.Status = old.TypeMeta, old.Status
	var e errs
	validateCronJob(&e, o, old, zones)
	if len(e) > 0 {
		return &InvalidError{Kind: api.KindCronJob, Name: o.Name, Fields: e}
	}
	if !reflect.DeepEqual(&o.Spec, &old.Spec) {
		o.Generation++
	}
	return nil
}

// cronJobStrategy is pkg/registry/batch/cronjob/strategy.go.
var cronJobStrategy = statusField(strategy{
	hasSpec:  true,
	defaults: func(obj api.Object) { defaultCronJob(obj.(*api.CronJob)) },
	validate: func(e *errs, obj api.Object, zones timezone.Loader) {
		validateCronJob(e, obj.(*api.CronJob), nil, zones)
	},
	prepareForCreate: func(obj api.Object, _ *admitted, _ *podSpecs) {
		o := obj.(*api.CronJob)
		defaultCronJob(o)
		o.Status = api.CronJobStatus{}
	},
	prepareForUpdate: func(s *Store, obj, old api.Object) error {
		return updateCronJob(obj.(*api.CronJob), old.(*api.CronJob), s.TimeZones())
	},
}, &api.CronJob{})
