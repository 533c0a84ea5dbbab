package cronjob

import (
	"fmt"
	"slices"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/timezone"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace and in Event sources.
const Name = "cronjob-controller"

// Controller is the CronJob controller with its cache of CronJobs and
// Jobs. It keeps no state between syncs but its cache.
type Controller struct {
	reconcile.Base
	zones timezone.Loader
}

// New returns a controller with an empty cache.
func New(zones timezone.Loader) *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindCronJob, api.KindJob)), zones: zones}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), zones: c.zones}
}

// Observe queues the CronJob it concerns
// (addJob, updateJob, deleteJob, and the CronJob handlers).
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.CronJob:
		c.observeCronJob(ev, o, q)
	case *api.Job:
		old, _ := ev.Old.(*api.Job)
		if ev.Type == apiserver.Modified && old != nil {
			if old.ResourceVersion == o.ResourceVersion {
				return
			}
			if oldRef := old.ControllerRef(); oldRef != nil && !controllerutil.SameControllerRef(oldRef, o.ControllerRef()) {
				if cj := c.resolveControllerRef(o.Namespace, oldRef); cj != nil {
					q.Add(api.KeyOf(cj))
				}
			}
		}
		if ref := o.ControllerRef(); ref != nil {
			if cj := c.resolveControllerRef(o.Namespace, ref); cj != nil {
				q.Add(api.KeyOf(cj))
			}
		}
	}
}

// observeCronJob is the CronJob handlers: a new schedule or time zone
// waits for its next time; anything else syncs at once.
func (c *Controller) observeCronJob(ev apiserver.WatchEvent, cj *api.CronJob, q reconcile.Queue) {
	old, _ := ev.Old.(*api.CronJob)
	if ev.Type != apiserver.Modified || old == nil || old.Spec.Schedule == cj.Spec.Schedule && equalZone(old.Spec.TimeZone, cj.Spec.TimeZone) {
		q.Add(api.KeyOf(cj))
		return
	}
	sched, err := timezone.ParseStandard(formatSchedule(cj, nil, c.zones), c.zones)
	if err != nil {
		// The Event upstream records here (UnParseableCronJobSchedule) has
		// no tick to belong to; the next sync reports the schedule.
		return
	}
	q.AddAfter(api.KeyOf(cj), nextScheduleTimeDuration(cj, wall(q.Now()), sched).Milliseconds())
}

func equalZone(a, b *string) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func (c *Controller) resolveControllerRef(ns string, ref *api.OwnerReference) *api.CronJob {
	cj, _ := controllerutil.ResolveControllerRef[*api.CronJob](c.Informer, api.KindCronJob, ns, ref)
	return cj
}

// Reconcile is sync: clean up the history, run syncCronJob, write the
// status if either changed it, and come back at the next schedule time.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	cached, ok := informer.Get[*api.CronJob](c.Informer, key)
	if !ok {
		return reconcile.Gone(tick, key, "the garbage collector removes its Jobs")
	}
	tick.Read(cached)
	jobs := c.getJobsToBeReconciled(cached)
	cj := cached.DeepCopy()
	s := &syncState{tick: tick, cj: cj}
	cleaned := c.cleanupFinishedJobs(s, jobs)
	requeue, syncErr := c.syncCronJob(s, jobs)
	if cleaned || s.updateStatus {
		if _, err := tick.UpdateStatus(trace.Aggregate, cj, fmt.Sprintf("cj/%s status: %d active", cj.Name, len(cj.Status.Active))); err != nil {
			return reconcile.Result{}, err
		}
	}
	s.notes.Explain(tick, "cj/"+cj.Name, "nothing to do")
	if requeue != nil {
		return reconcile.Result{RequeueAfter: max(1, requeue.Milliseconds())}, nil
	}
	return reconcile.Result{}, syncErr
}

// syncState is what one sync carries: the CronJob copy it changes,
// whether its status needs writing, and the explanation's clauses.
type syncState struct {
	tick         reconcile.Tick
	cj           *api.CronJob
	updateStatus bool
	notes        reconcile.Notes
}

func (s *syncState) event(typ, reason, msg string) { s.tick.Event(s.cj, "", typ, reason, msg) }

// getJobsToBeReconciled is the cached Jobs whose controller has the
// CronJob's name.
func (c *Controller) getJobsToBeReconciled(cj *api.CronJob) []*api.Job {
	var out []*api.Job
	for _, o := range c.Informer.List(api.KindJob, cj.Namespace) {
		j := o.(*api.Job)
		if ref := j.ControllerRef(); ref != nil && ref.Name == cj.Name {
			out = append(out, j)
		}
	}
	return out
}

// syncCronJob is syncCronJob. It returns when to look again (nil: only
// when something changes).
func (c *Controller) syncCronJob(s *syncState, jobs []*api.Job) (*time.Duration, error) {
	if err := c.reconcileChildren(s, jobs); err != nil {
		return nil, err
	}
	cj, tick := s.cj, s.tick
	if cj.DeletionTimestamp != nil {
		return nil, nil
	}
	now := wall(tick.Now())
	if tz := cj.Spec.TimeZone; tz != nil {
		if _, err := c.zones(*tz); err != nil {
			s.event(api.EventWarning, "UnknownTimeZone", fmt.Sprintf("invalid timeZone: %q: %s", *tz, err))
			s.notes.Note("its timeZone %q does not load: starts no Job until the spec changes", *tz)
			return nil, nil
		}
	}
	if cj.Suspended() {
		s.notes.Note("suspended: starts no Job")
		return nil, nil
	}
	sched, err := timezone.ParseStandard(formatSchedule(cj, func(reason, msg string) { s.event(api.EventWarning, reason, msg) }, c.zones), c.zones)
	if err != nil {
		s.event(api.EventWarning, "UnparseableSchedule", fmt.Sprintf("unparseable schedule: %q : %s", cj.Spec.Schedule, err))
		s.notes.Note("its schedule %q does not parse: starts no Job until the spec changes", cj.Spec.Schedule)
		return nil, nil
	}
	next := func() *time.Duration {
		d := nextScheduleTimeDuration(cj, now, sched)
		return &d
	}
	scheduled, err := c.nextScheduleTime(s, now, sched)
	if err != nil {
		s.event(api.EventWarning, "InvalidSchedule", fmt.Sprintf("invalid schedule: %s : %s", cj.Spec.Schedule, err))
		s.notes.Note("its schedule %q never fires: starts no Job until the spec changes", cj.Spec.Schedule)
		return nil, nil
	}
	if scheduled == nil {
		s.notes.Note("next run at %s", now.Add(*next()).Add(-nextScheduleDelta).Format(time.RFC3339))
		return next(), nil
	}
	if d := cj.Spec.StartingDeadlineSeconds; d != nil && scheduled.Add(time.Second*time.Duration(*d)).Before(now) {
		s.event(api.EventWarning, "MissSchedule", "Missed scheduled time to start a job: "+scheduled.UTC().Format(time.RFC1123Z))
		s.notes.Note("missed %s by more than its startingDeadlineSeconds", scheduled.Format(time.RFC3339))
		return next(), nil
	}
	name := getJobName(cj, *scheduled)
	if slices.ContainsFunc(cj.Status.Active, func(r api.ObjectReference) bool { return r.Name == name && r.Namespace == cj.Namespace }) ||
		cj.Status.LastScheduleTime != nil && cj.Status.LastScheduleTime.MS == virtual(*scheduled) {
		return next(), nil
	}
	if cj.Spec.ConcurrencyPolicy == api.ForbidConcurrent && len(cj.Status.Active) > 0 {
		s.event(api.EventNormal, "JobAlreadyActive", "Not starting job because prior execution is running and concurrency policy is Forbid")
		s.notes.Note("skips %s: job/%s is still running (Forbid)", scheduled.Format(time.RFC3339), cj.Status.Active[0].Name)
		return next(), nil
	}
	if cj.Spec.ConcurrencyPolicy == api.ReplaceConcurrent {
		for _, r := range slices.Clone(cj.Status.Active) {
			o, ok := tick.LiveGet(api.Key{Kind: api.KindJob, Namespace: r.Namespace, Name: r.Name})
			if !ok {
				err := apiserver.NotFound(api.KindJob, r.Name)
				s.event(api.EventWarning, "FailedGet", fmt.Sprintf("Get job: %v", err))
				return nil, err
			}
			if !deleteJob(s, o.(*api.Job), "replaced by the next run (Replace)") {
				return nil, fmt.Errorf("could not replace job %s/%s", r.Namespace, r.Name)
			}
			s.updateStatus = true
		}
	}
	if err := c.createJob(s, *scheduled); err != nil {
		return nil, err
	}
	return next(), nil
}

// reconcileChildren is syncCronJob's first part: the active list against
// the Jobs that exist, and lastSuccessfulTime.
func (c *Controller) reconcileChildren(s *syncState, jobs []*api.Job) error {
	children := map[string]bool{}
	for _, j := range jobs {
		children[j.UID] = true
		found := inActiveList(s.cj, j.UID)
		cond, finished := finishedCondition(j)
		switch {
		case !found && !finished:
			live, ok := s.tick.LiveGet(api.KeyOf(s.cj))
			if !ok {
				return apiserver.NotFound(api.KindCronJob, s.cj.Name)
			}
			if fresh := live.(*api.CronJob); inActiveList(fresh, j.UID) {
				s.cj = fresh.DeepCopy()
				continue
			}
			s.event(api.EventWarning, "UnexpectedJob", "Saw a job that the controller did not create or forgot: "+j.Name)
		case finished:
			if found {
				deleteFromActiveList(s.cj, j.UID)
				s.event(api.EventNormal, "SawCompletedJob", fmt.Sprintf("Saw completed job: %s, condition: %s", j.Name, cond))
				s.notes.Note("job/%s finished (%s)", j.Name, cond)
				s.updateStatus = true
			}
			if cond == api.JobComplete && j.HasCondition(api.JobComplete) {
				last := s.cj.Status.LastSuccessfulTime
				if last == nil && j.Status.CompletionTime != nil || last != nil && j.Status.CompletionTime != nil && j.Status.CompletionTime.MS > last.MS {
					t := *j.Status.CompletionTime
					s.cj.Status.LastSuccessfulTime = &t
					s.updateStatus = true
				}
			}
		}
	}
	for _, r := range slices.Clone(s.cj.Status.Active) {
		if children[r.UID] {
			continue
		}
		if _, ok := s.tick.LiveGet(api.Key{Kind: api.KindJob, Namespace: r.Namespace, Name: r.Name}); !ok {
			s.event(api.EventNormal, "MissingJob", "Active job went missing: "+r.Name)
			deleteFromActiveList(s.cj, r.UID)
			s.updateStatus = true
		}
	}
	return nil
}

// nextScheduleTime is nextScheduleTime: the most recent unmet schedule
// time within the starting deadline, with a warning when more than 100
// were missed.
func (c *Controller) nextScheduleTime(s *syncState, now time.Time, sched cron.Schedule) (*time.Time, error) {
	_, recent, missed, err := mostRecentScheduleTime(s.cj, now, sched, true)
	if recent == nil || recent.After(now) {
		return nil, err
	}
	if missed == manyMissed {
		s.event(api.EventWarning, "TooManyMissedTimes", "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew")
	}
	return recent, err
}

// createJob creates the Job for the schedule time and records it as
// active.
func (c *Controller) createJob(s *syncState, scheduled time.Time) error {
	req, err := getJobFromTemplate2(s.cj, scheduled, c.zones)
	if err != nil {
		return err
	}
	created, err := s.tick.Create(trace.Translate, req, fmt.Sprintf("cj/%s created job/%s for %s", s.cj.Name, req.Name, scheduled.Format(time.RFC3339)))
	var job *api.Job
	switch {
	case apiserver.IsReason(err, apiserver.ReasonAlreadyExists):
		o, ok := s.tick.LiveGet(api.KeyOf(req))
		if !ok {
			return apiserver.NotFound(api.KindJob, req.Name)
		}
		job = o.(*api.Job)
		if ref := job.ControllerRef(); ref == nil || ref.UID != s.cj.UID || inActiveList(s.cj, job.UID) {
			return nil
		}
	case err != nil:
		s.event(api.EventWarning, "FailedCreate", fmt.Sprintf("Error creating job: %v", err))
		return err
	default:
		job = created.(*api.Job)
		s.event(api.EventNormal, "SuccessfulCreate", "Created job "+job.Name)
		s.notes.Note("created job/%s for %s", job.Name, scheduled.Format(time.RFC3339))
	}
	s.cj.Status.Active = append(s.cj.Status.Active, api.ObjectReference{Kind: api.KindJob, Namespace: job.Namespace, Name: job.Name,
		UID: job.UID, APIVersion: "batch/v1", ResourceVersion: job.ResourceVersion})
	t := api.Time{MS: virtual(scheduled), Set: true}
	s.cj.Status.LastScheduleTime = &t
	s.updateStatus = true
	return nil
}

// cleanupFinishedJobs deletes the oldest finished Jobs beyond the
// history limits.
func (c *Controller) cleanupFinishedJobs(s *syncState, jobs []*api.Job) bool {
	if s.cj.Spec.FailedJobsHistoryLimit == nil && s.cj.Spec.SuccessfulJobsHistoryLimit == nil {
		return false
	}
	var succeeded, failed []*api.Job
	for _, j := range jobs {
		switch cond, _ := finishedCondition(j); cond {
		case api.JobComplete:
			succeeded = append(succeeded, j)
		case api.JobFailed:
			failed = append(failed, j)
		}
	}
	updated := false
	if l := s.cj.Spec.SuccessfulJobsHistoryLimit; l != nil && removeOldestJobs(s, succeeded, *l) {
		updated = true
	}
	if l := s.cj.Spec.FailedJobsHistoryLimit; l != nil && removeOldestJobs(s, failed, *l) {
		updated = true
	}
	return updated
}

func removeOldestJobs(s *syncState, js []*api.Job, limit int32) bool {
	n := len(js) - int(limit)
	if n <= 0 {
		return false
	}
	sortByJobStartTime(js)
	updated := false
	for _, j := range js[:n] {
		if deleteJob(s, j, fmt.Sprintf("history limit %d", limit)) {
			updated = true
		}
	}
	return updated
}

// deleteJob deletes a Job with background propagation and drops it from
// the active list.
func deleteJob(s *syncState, j *api.Job, why string) bool {
	err := s.tick.Delete(trace.Translate, api.KeyOf(j), apiserver.DeleteOptions{Propagation: "background"}, fmt.Sprintf("cj/%s deleted job/%s (%s)", s.cj.Name, j.Name, why))
	if err != nil {
		s.event(api.EventWarning, "FailedDelete", fmt.Sprintf("Deleted job: %v", err))
		return false
	}
	deleteFromActiveList(s.cj, j.UID)
	s.event(api.EventNormal, "SuccessfulDelete", "Deleted job "+j.Name)
	s.notes.Note("deleted job/%s (%s)", j.Name, why)
	return true
}

func inActiveList(cj *api.CronJob, uid string) bool {
	return slices.ContainsFunc(cj.Status.Active, func(r api.ObjectReference) bool { return r.UID == uid })
}

func deleteFromActiveList(cj *api.CronJob, uid string) {
	cj.Status.Active = slices.DeleteFunc(cj.Status.Active, func(r api.ObjectReference) bool { return r.UID == uid })
	if len(cj.Status.Active) == 0 {
		cj.Status.Active = nil
	}
}
