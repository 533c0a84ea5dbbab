package job

import (
	"maps"

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
