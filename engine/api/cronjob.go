package api

// CronJob concurrency policies (batch/v1 ConcurrencyPolicy).
const (
	AllowConcurrent   = "Allow"
	ForbidConcurrent  = "Forbid"
	ReplaceConcurrent = "Replace"
)

// CronJobScheduledTimestamp is the annotation the CronJob controller puts
// on the Jobs it creates: the scheduled time, RFC 3339 in the CronJob's
// time zone.
const CronJobScheduledTimestamp = "batch.kubernetes.io/cronjob-scheduled-timestamp"

// CronJob is batch/v1 CronJob.
type CronJob struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       CronJobSpec   `json:"spec" yaml:"spec"`
	Status     CronJobStatus `json:"status" yaml:"status"`
}

// CronJobSpec is batch/v1 CronJobSpec.
type CronJobSpec struct {
	Schedule                   string          `json:"schedule" yaml:"schedule"`
	TimeZone                   *string         `json:"timeZone,omitempty" yaml:"timeZone,omitempty"`
	StartingDeadlineSeconds    *int64          `json:"startingDeadlineSeconds,omitempty" yaml:"startingDeadlineSeconds,omitempty"`
	ConcurrencyPolicy          string          `json:"concurrencyPolicy,omitempty" yaml:"concurrencyPolicy,omitempty"`
	Suspend                    *bool           `json:"suspend,omitempty" yaml:"suspend,omitempty"`
	JobTemplate                JobTemplateSpec `json:"jobTemplate" yaml:"jobTemplate"`
	SuccessfulJobsHistoryLimit *int32          `json:"successfulJobsHistoryLimit,omitempty" yaml:"successfulJobsHistoryLimit,omitempty"`
	FailedJobsHistoryLimit     *int32          `json:"failedJobsHistoryLimit,omitempty" yaml:"failedJobsHistoryLimit,omitempty"`
}

// JobTemplateSpec is batch/v1 JobTemplateSpec.
type JobTemplateSpec struct {
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       JobSpec `json:"spec" yaml:"spec"`
}

// CronJobStatus is batch/v1 CronJobStatus.
type CronJobStatus struct {
	Active             []ObjectReference `json:"active,omitempty" yaml:"active,omitempty"`
	LastScheduleTime   *Time             `json:"lastScheduleTime,omitempty" yaml:"lastScheduleTime,omitempty"`
	LastSuccessfulTime *Time             `json:"lastSuccessfulTime,omitempty" yaml:"lastSuccessfulTime,omitempty"`
}

// GetKind returns "CronJob".
func (c *CronJob) GetKind() string { return KindCronJob }

// Meta returns the metadata.
func (c *CronJob) Meta() *ObjectMeta { return &c.ObjectMeta }

// Suspended reports spec.suspend.
func (c *CronJob) Suspended() bool { return c.Spec.Suspend != nil && *c.Spec.Suspend }

// DeepCopy returns an independent copy.
func (c *CronJob) DeepCopy() *CronJob {
	out := &CronJob{TypeMeta: c.TypeMeta, ObjectMeta: c.ObjectMeta.DeepCopy(), Spec: c.Spec, Status: c.Status}
	sp := &out.Spec
	sp.TimeZone = copyPtr(c.Spec.TimeZone)
	sp.StartingDeadlineSeconds = copyPtr(c.Spec.StartingDeadlineSeconds)
	sp.Suspend = copyPtr(c.Spec.Suspend)
	sp.JobTemplate = JobTemplateSpec{ObjectMeta: c.Spec.JobTemplate.ObjectMeta.DeepCopy(), Spec: c.Spec.JobTemplate.Spec.DeepCopy()}
	sp.SuccessfulJobsHistoryLimit = copyPtr(c.Spec.SuccessfulJobsHistoryLimit)
	sp.FailedJobsHistoryLimit = copyPtr(c.Spec.FailedJobsHistoryLimit)
	out.Status.Active = copySlice(c.Status.Active)
	out.Status.LastScheduleTime = copyPtr(c.Status.LastScheduleTime)
	out.Status.LastSuccessfulTime = copyPtr(c.Status.LastSuccessfulTime)
	return out
}

// DeepCopyObject implements Object.
func (c *CronJob) DeepCopyObject() Object { return c.DeepCopy() }
