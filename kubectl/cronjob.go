package kubectl

// This file prints CronJobs: their get columns (pkg/printers/
// internalversion printCronJob) and describe (k8s.io/kubectl
// pkg/describe CronJobDescriber).

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// cronJobRow is printCronJob: the schedule, the time zone, suspend, how
// many Jobs are active and when the last was scheduled; the Job
// template's containers, images and selector when wide.
func cronJobRow(c *api.CronJob, name string, wide bool, now int64) []string {
	last := "<none>"
	if t := c.Status.LastScheduleTime; t != nil {
		last = age(*t, now)
	}
	tz := "<none>"
	if c.Spec.TimeZone != nil {
		tz = *c.Spec.TimeZone
	}
	r := []string{name, c.Spec.Schedule, tz, boolPtr(c.Spec.Suspend), fmt.Sprint(len(c.Status.Active)), last, age(c.CreationTimestamp, now)}
	if wide {
		sp := &c.Spec.JobTemplate.Spec
		r = append(r, containerNames(&sp.Template.Spec), images(&sp.Template.Spec), sp.Selector.String())
	}
	return r
}

// boolPtr is printBoolPtr: True, False or <unset>.
func boolPtr(b *bool) string {
	switch {
	case b == nil:
		return "<unset>"
	case *b:
		return "True"
	}
	return "False"
}

// describeCronJob is describeCronJob: the schedule and its policies, the
// Job template (describeJobTemplate), the last schedule time and the
// active Jobs.
func (s *Session) describeCronJob(w *prefixWriter, c *api.CronJob) {
	w.line(0, "Name:\t%s", c.Name)
	w.line(0, "Namespace:\t%s", c.Namespace)
	mapLines(w, 0, "Labels", c.Labels, "=")
	annotationLines(w, c.Annotations)
	sp := &c.Spec
	w.line(0, "Schedule:\t%s", sp.Schedule)
	w.line(0, "Concurrency Policy:\t%s", sp.ConcurrencyPolicy)
	w.line(0, "Suspend:\t%s", boolPtr(sp.Suspend))
	w.line(0, "Successful Job History Limit:\t%s", int32OrUnset(sp.SuccessfulJobsHistoryLimit))
	w.line(0, "Failed Job History Limit:\t%s", int32OrUnset(sp.FailedJobsHistoryLimit))
	if d := sp.StartingDeadlineSeconds; d != nil {
		w.line(0, "Starting Deadline Seconds:\t%ds", *d)
	} else {
		w.line(0, "Starting Deadline Seconds:\t<unset>")
	}
	jobTemplateLines(w, &sp.JobTemplate.Spec)
	if t := c.Status.LastScheduleTime; t != nil {
		w.line(0, "Last Schedule Time:\t%s", timestamp(*t))
	} else {
		w.line(0, "Last Schedule Time:\t<unset>")
	}
	var active []string
	for _, ref := range c.Status.Active {
		active = append(active, ref.Name)
	}
	if len(active) == 0 {
		active = []string{"<none>"}
	}
	w.line(0, "Active Jobs:\t%s", strings.Join(active, ", "))
}

// jobTemplateLines is describeJobTemplate: the selector (which the
// template never has: the API server generates it for each Job), the
// parallelism and completions, then the pod template.
func jobTemplateLines(w *prefixWriter, sp *api.JobSpec) {
	if sp.Selector != nil {
		w.line(0, "Selector:\t%s", describeSelector(sp.Selector))
	} else {
		w.line(0, "Selector:\t<unset>")
	}
	w.line(0, "Parallelism:\t%s", int32OrUnset(sp.Parallelism))
	w.line(0, "Completions:\t%s", int32OrUnset(sp.Completions))
	if d := sp.ActiveDeadlineSeconds; d != nil {
		w.line(0, "Active Deadline Seconds:\t%ds", *d)
	}
	w.line(0, "Pod Template:")
	templateLines(w, 1, &sp.Template)
}

func int32OrUnset(v *int32) string {
	if v == nil {
		return "<unset>"
	}
	return fmt.Sprint(*v)
}
