package cronjob

import (
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/timezone"
)

// FuzzSchedule: any schedule and time zone the API server would accept
// gives, at any time, a most recent schedule time that is not in the
// future and a next look that is in the future (never a panic or a
// hang, even for a schedule that never fires, such as February 30).
func FuzzSchedule(f *testing.F) {
	for _, s := range []string{"*/5 * * * *", "@hourly", "0 0 30 2 *", "59 23 31 12 *", "*/1 * * * *", "0 9 * * 1-5", "@every 1h", "TZ=Europe/Paris 0 3 * * *", "0 0 29 2 *"} {
		f.Add(s, "", int64(36_150_000), int64(60_000), int64(-1))
	}
	f.Add("30 2 * * *", "America/New_York", int64(6_000_000_000), int64(0), int64(60))
	f.Fuzz(func(t *testing.T, schedule, tz string, now, created, deadline int64) {
		if now < 0 || now > 1e12 || created < 0 || created > now {
			return
		}
		cj := &api.CronJob{ObjectMeta: api.ObjectMeta{Name: "c", CreationTimestamp: api.At(created)}, Spec: api.CronJobSpec{Schedule: schedule}}
		if tz != "" {
			if _, err := time.LoadLocation(tz); err != nil {
				return
			}
			cj.Spec.TimeZone = &tz
		}
		if deadline >= 0 {
			cj.Spec.StartingDeadlineSeconds = &deadline
		}
		sched, err := timezone.ParseStandard(formatSchedule(cj, nil, timezone.Default), timezone.Default)
		if err != nil {
			return
		}
		w := wall(now)
		_, recent, _, err := mostRecentScheduleTime(cj, w, sched, true)
		if err == nil && recent != nil && recent.After(w) {
			t.Fatalf("most recent schedule time %s is after now %s", recent, w)
		}
		if d := nextScheduleTimeDuration(cj, w, sched); d <= 0 && !sched.Next(w).IsZero() {
			t.Fatalf("next look in %s, not in the future", d)
		}
	})
}
