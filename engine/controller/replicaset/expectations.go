package replicaset

import (
	"sort"

	"github.com/stateflow/stateflow/engine/api"
)

// ExpectationsTimeout is how long unmet expectations block a sync
// (controller_utils.go ExpectationsTimeout = 5 minutes).
const ExpectationsTimeout = 5 * 60 * 1000

// expectation counts the creations and the deletions (by pod key) a
// ReplicaSet's last sync made and has not yet seen in its cache.
type expectation struct {
	add       int
	deletions map[api.Key]bool
	timestamp int64
}

// expectations is UIDTrackingControllerExpectations keyed by ReplicaSet.
type expectations map[api.Key]*expectation

func (e expectations) clone() expectations {
	out := make(expectations, len(e))
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

// satisfied reports whether the ReplicaSet may be synced: no record, all
// observed, or expired.
func (e expectations) satisfied(rs api.Key, now int64) bool {
	x, ok := e[rs]
	if !ok {
		return true
	}
	return x.add <= 0 && len(x.deletions) == 0 || now-x.timestamp > ExpectationsTimeout
}

func (e expectations) expectCreations(rs api.Key, n int, now int64) {
	e[rs] = &expectation{add: n, deletions: map[api.Key]bool{}, timestamp: now}
}

func (e expectations) expectDeletions(rs api.Key, pods []api.Key, now int64) {
	x := &expectation{deletions: map[api.Key]bool{}, timestamp: now}
	for _, p := range pods {
		x.deletions[p] = true
	}
	e[rs] = x
}

func (e expectations) creationObserved(rs api.Key) {
	if x, ok := e[rs]; ok {
		x.add--
	}
}

func (e expectations) deletionObserved(rs, pod api.Key) {
	if x, ok := e[rs]; ok {
		delete(x.deletions, pod)
	}
}

// Expectations reports what the last sync of rs still waits to see: the
// pod creations not yet observed and the pods whose deletion is not yet
// observed. ok is false when the ReplicaSet may be synced (no record, all
// observed, or expired at virtual time now). The differential harness
// gives the upstream controller the same state.
func (c *Controller) Expectations(rs api.Key, now int64) (adds int, deletions []api.Key, ok bool) {
	if c.exp.satisfied(rs, now) {
		return 0, nil, false
	}
	x := c.exp[rs]
	for k := range x.deletions {
		deletions = append(deletions, k)
	}
	sort.Slice(deletions, func(i, j int) bool { return deletions[i].Name < deletions[j].Name })
	return x.add, deletions, true
}
