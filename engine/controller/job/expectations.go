package job

import (
	"maps"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/expectations"
)

// counts is ControllerExpectations as the Job controller uses it:
// creations and deletions are counted, not named (DeletionObserved
// decrements for any deletion seen of the Job's pods).
type counts struct {
	add, del  int
	timestamp int64
}

// podExpectations are the counts per Job key.
type podExpectations map[api.Key]counts

func (e podExpectations) satisfied(k api.Key, now int64) bool {
	x, ok := e[k]
	return !ok || x.add <= 0 && x.del <= 0 || now-x.timestamp > expectations.Timeout
}

func (e podExpectations) expectCreations(k api.Key, n int, now int64) {
	e[k] = counts{add: n, timestamp: now}
}

func (e podExpectations) expectDeletions(k api.Key, n int, now int64) {
	e[k] = counts{del: n, timestamp: now}
}

func (e podExpectations) creationObserved(k api.Key) {
	if x, ok := e[k]; ok {
		x.add--
		e[k] = x
	}
}

func (e podExpectations) deletionObserved(k api.Key) {
	if x, ok := e[k]; ok {
		x.del--
		e[k] = x
	}
}

// uidTrackingExpectations is uidTrackingExpectations: the pods (by uid)
// whose tracking finalizer the controller removed and has not yet seen
// removed in its cache.
type uidTrackingExpectations map[api.Key]map[string]bool

func (e uidTrackingExpectations) expectFinalizersRemoved(k api.Key, uids []string) {
	s := e[k]
	if s == nil {
		s = map[string]bool{}
		e[k] = s
	}
	for _, u := range uids {
		s[u] = true
	}
}

func (e uidTrackingExpectations) finalizerRemovalObserved(k api.Key, uid string) {
	if s := e[k]; s != nil {
		delete(s, uid)
	}
}

func (e uidTrackingExpectations) expected(k api.Key) map[string]bool { return e[k] }

func (e uidTrackingExpectations) clone() uidTrackingExpectations {
	out := make(uidTrackingExpectations, len(e))
	for k, v := range e {
		out[k] = maps.Clone(v)
	}
	return out
}

// Expectations reports what the controller's last sync of a Job still
// waits to see (ControllerExpectations): the creations and deletions not
// yet observed; pending is false when the Job may be synced (none, or
// expired). For the differential harness.
func (c *Controller) Expectations(k api.Key, now int64) (adds, dels int, pending bool) {
	if c.expectations.satisfied(k, now) {
		return 0, 0, false
	}
	x := c.expectations[k]
	return x.add, x.del, true
}

// FinalizerExpectations returns, sorted, the uids of the Job's pods whose
// tracking finalizer the controller removed and has yet to see removed
// (finalizerExpectations), for the differential harness.
func (c *Controller) FinalizerExpectations(k api.Key) []string {
	return slices.Sorted(maps.Keys(c.finalizers[k]))
}

// FinishedExpected reports whether the controller marked the Job with
// this uid finished and waits to see that in its cache
// (finishedJobExpectations), for the differential harness.
func (c *Controller) FinishedExpected(uid string) bool { return c.finishedUIDs[uid] }
