// Package cronjob is the simulated CronJob controller
// (kubernetes/pkg/controller/cronjob, ControllerV2): on each schedule
// time (a standard cron expression or an @hourly-style macro, parsed by
// robfig/cron as upstream does, in the CronJob's timeZone) it creates a
// Job named <cronjob>-<minutes since the epoch>, unless the time was
// missed by more than startingDeadlineSeconds, or a Job is still running
// and the concurrency policy is Forbid (Replace deletes it first). Only
// the most recent missed time is caught up. It keeps the active list,
// lastScheduleTime and lastSuccessfulTime, deletes finished Jobs beyond
// the history limits, and requeues itself 100 ms after the next time.
//
// Files follow upstream's: cronjob_controllerv2.go (the event handlers,
// sync, syncCronJob, the history's cleanup) and utils.go (the schedule
// arithmetic and the Job template).
package cronjob
