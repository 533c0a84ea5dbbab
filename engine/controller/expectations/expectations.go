package expectations

import (
	"sort"

	"github.com/stateflow/stateflow/engine/api"
)

// Timeout is how long unmet expectations block a sync
// (controller_utils.go ExpectationsTimeout = 5 minutes).
const Timeout = 5 * 60 * 1000

// expectation counts the creations and the deletions (by pod key) an
// owner's last sync made and has not yet seen in its cache.
type expectation struct {
	add       int
	deletions map[api.Key]bool
	timestamp int64
}

// Expectations are kept per owner key.
type Expectations map[api.Key]*expectation

// Clone returns an independent copy (for checkpoints).
func (e Expectations) Clone() Expectations {
	out := make(Expectations, len(e))
	for k, v := range e {
		c := *v
		c.deletions = make(map[api.Key]bool, len(v.deletions))
		for d := range v.deletions {
			c.deletions[d] = true
		}
		out[k] = &c
	}
	return out
}

// Satisfied reports whether the owner may be synced: no record, all
// observed, or expired at virtual time now.
func (e Expectations) Satisfied(owner api.Key, now int64) bool {
	x, ok := e[owner]
	if !ok {
		return true
	}
	return x.add <= 0 && len(x.deletions) == 0 || now-x.timestamp > Timeout
}

// ExpectCreations records that the owner's sync creates n pods.
func (e Expectations) ExpectCreations(owner api.Key, n int, now int64) {
	e[owner] = &expectation{add: n, deletions: map[api.Key]bool{}, timestamp: now}
}

// ExpectDeletions records that the owner's sync deletes these pods.
func (e Expectations) ExpectDeletions(owner api.Key, pods []api.Key, now int64) {
	x := &expectation{deletions: map[api.Key]bool{}, timestamp: now}
	for _, p := range pods {
		x.deletions[p] = true
	}
	e[owner] = x
}

// Expect records creations and deletions of one sync together (the
// DaemonSet controller's SetExpectations).
func (e Expectations) Expect(owner api.Key, adds int, deletions []api.Key, now int64) {
	e.ExpectDeletions(owner, deletions, now)
	e[owner].add = adds
}

// CreationObserved counts one creation seen (or one that failed).
func (e Expectations) CreationObserved(owner api.Key) {
	if x, ok := e[owner]; ok {
		x.add--
	}
}

// DeletionObserved records a deletion seen (or one that failed).
func (e Expectations) DeletionObserved(owner, pod api.Key) {
	if x, ok := e[owner]; ok {
		delete(x.deletions, pod)
	}
}

// Pending reports what the owner's last sync still waits to see: the
// creations not yet observed and the pods whose deletion is not yet
// observed, by name; ok is false when the owner may be synced.
func (e Expectations) Pending(owner api.Key, now int64) (adds int, deletions []api.Key, ok bool) {
	if e.Satisfied(owner, now) {
		return 0, nil, false
	}
	x := e[owner]
	for k := range x.deletions {
		deletions = append(deletions, k)
	}
	sort.Slice(deletions, func(i, j int) bool { return deletions[i].Name < deletions[j].Name })
	return x.add, deletions, true
}
