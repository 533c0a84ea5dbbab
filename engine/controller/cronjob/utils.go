package cronjob

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// nextScheduleDelta is how long after a schedule time the controller
// looks again (nextScheduleDelta).
const nextScheduleDelta = 100 * time.Millisecond

type missedSchedules int

const (
	noneMissed missedSchedules = iota
	fewMissed
	manyMissed
)

// wall is virtual millisecond ms as the controller's clock reads it (UTC).
func wall(ms int64) time.Time { return api.Time{MS: ms, Set: true}.Wall() }

// virtual is a wall-clock time back in virtual milliseconds.
func virtual(t time.Time) int64 { return t.Sub(wall(0)).Milliseconds() }

// formatSchedule is formatSchedule: the schedule with its time zone as
// "TZ=<zone> <schedule>" (an unloadable zone is left out; a schedule that
// names its own zone is used as written, with a warning).
func formatSchedule(cj *api.CronJob, warn func(reason, msg string), zones timezone.Loader) string {
	if strings.Contains(cj.Spec.Schedule, "TZ") {
		if warn != nil {
			warn("UnsupportedSchedule", fmt.Sprintf("CRON_TZ or TZ used in schedule %q is not officially supported, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details", cj.Spec.Schedule))
		}
		return cj.Spec.Schedule
	}
	if tz := cj.Spec.TimeZone; tz != nil {
		if _, err := zones(*tz); err != nil {
			return cj.Spec.Schedule
		}
		return fmt.Sprintf("TZ=%s %s", *tz, cj.Spec.Schedule)
	}
	return cj.Spec.Schedule
}

// mostRecentScheduleTime is mostRecentScheduleTime: the latest schedule
// time in (earliest, now], where earliest is the last schedule time (or
// the creation), raised to now − startingDeadlineSeconds when asked.
func mostRecentScheduleTime(cj *api.CronJob, now time.Time, sched cron.Schedule, withDeadline bool) (time.Time, *time.Time, missedSchedules, error) {
	earliest := cj.CreationTimestamp.Wall()
	if cj.Status.LastScheduleTime != nil {
		earliest = cj.Status.LastScheduleTime.Wall()
	}
	if withDeadline && cj.Spec.StartingDeadlineSeconds != nil {
		if d := now.Add(-time.Second * time.Duration(*cj.Spec.StartingDeadlineSeconds)); d.After(earliest) {
			earliest = d
		}
	}
	t1 := sched.Next(earliest)
	t2 := sched.Next(t1)
	if now.Before(t1) {
		return earliest, nil, noneMissed, nil
	}
	if now.Before(t2) {
		return earliest, &t1, noneMissed, nil
	}
	between := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if between < 1 {
		return earliest, nil, noneMissed, fmt.Errorf("time difference between two schedules is less than 1 second")
	}
	missed := int64(now.Sub(t1).Seconds())/between + 1
	var recent time.Time
	for t := sched.Next(t1.Add(time.Duration((missed-2)*between) * time.Second)); !t.After(now); t = sched.Next(t) {
		recent = t
	}
	m := fewMissed
	if missed > 100 {
		m = manyMissed
	}
	if recent.IsZero() {
		return earliest, nil, m, nil
	}
	return earliest, &recent, m, nil
}

// nextScheduleTimeDuration is how long until 100 ms after the next
// schedule time.
func nextScheduleTimeDuration(cj *api.CronJob, now time.Time, sched cron.Schedule) time.Duration {
	earliest, recent, missed, err := mostRecentScheduleTime(cj, now, sched, false)
	switch {
	case err != nil:
		recent = &now
	case recent == nil && missed == noneMissed:
		recent = &earliest
	case recent == nil:
		recent = &now
	}
	return sched.Next(*recent).Add(nextScheduleDelta).Sub(now)
}

// getJobFromTemplate2 is the Job for one schedule time: the template's
// labels, annotations and spec, the scheduled time annotation in the
// CronJob's zone, and the CronJob as its controller.
func getJobFromTemplate2(cj *api.CronJob, scheduled time.Time, zones timezone.Loader) (*api.Job, error) {
	tz := ""
	if cj.Spec.TimeZone != nil {
		tz = *cj.Spec.TimeZone
	}
	loc, err := zones(tz)
	if err != nil {
		return nil, err
	}
	labels := maps.Clone(cj.Spec.JobTemplate.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	annotations := maps.Clone(cj.Spec.JobTemplate.Annotations)
	if annotations == nil {
		annotations = map[string]string{}
	}
	annotations[api.CronJobScheduledTimestamp] = scheduled.In(loc).Format(time.RFC3339)
	return &api.Job{ObjectMeta: api.ObjectMeta{Name: getJobName(cj, scheduled), Namespace: cj.Namespace, Labels: labels, Annotations: annotations,
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(cj, "batch/v1")}}, Spec: cj.Spec.JobTemplate.Spec.DeepCopy()}, nil
}

// getJobName is <cronjob>-<scheduled time in minutes since the epoch>.
func getJobName(cj *api.CronJob, scheduled time.Time) string {
	return fmt.Sprintf("%s-%d", cj.Name, scheduled.Unix()/60)
}

// sortByJobStartTime is byJobStartTime: started first, oldest first,
// then by name.
func sortByJobStartTime(js []*api.Job) {
	slices.SortStableFunc(js, func(a, b *api.Job) int {
		sa, sb := a.Status.StartTime, b.Status.StartTime
		switch {
		case sa == nil && sb != nil:
			return 1
		case sa != nil && sb == nil:
			return -1
		case sa == nil && sb == nil || sa.MS == sb.MS:
			return strings.Compare(a.Name, b.Name)
		case sa.MS < sb.MS:
			return -1
		}
		return 1
	})
}

// finishedCondition is the Job's Complete or Failed condition type, if
// it has finished.
func finishedCondition(j *api.Job) (string, bool) {
	for _, c := range j.Status.Conditions {
		if (c.Type == api.JobComplete || c.Type == api.JobFailed) && c.Status == api.ConditionTrue {
			return c.Type, true
		}
	}
	return "", false
}
