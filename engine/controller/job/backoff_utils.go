package job

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api"
)

// The pod failure backoff (DefaultJobPodFailureBackOff,
// MaxJobPodFailureBackOff; the documentation says 6 minutes, the code
// 10).
const (
	defaultPodFailureBackOff = 10_000
	maxPodFailureBackOff     = 10 * 60_000
)

// backoffRecord is backoffRecord: the failures since the last success
// and when the last of them finished (ms; lastFailure is -1 when none).
type backoffRecord struct {
	failuresAfterLastSuccess int32
	lastFailure              int64
	set                      bool
}

// newBackoffRecord is backoffStore.newBackoffRecord: the stored record
// brought up to date with the pods that finished since the last sync.
func newBackoffRecord(old backoffRecord, ok bool, succeeded, failed []*api.Pod) backoffRecord {
	b := backoffRecord{lastFailure: -1}
	if ok {
		b = old
	}
	sortByFinishedTime(succeeded)
	sortByFinishedTime(failed)
	switch {
	case len(succeeded) == 0 && len(failed) == 0:
		return b
	case len(succeeded) == 0:
		b.failuresAfterLastSuccess += int32(len(failed))
		b.lastFailure, b.set = getFinishedTime(failed[len(failed)-1]), true
		return b
	}
	b.failuresAfterLastSuccess, b.lastFailure, b.set = 0, -1, false
	lastSuccess := getFinishedTime(succeeded[len(succeeded)-1])
	for i := len(failed) - 1; i >= 0; i-- {
		t := getFinishedTime(failed[i])
		if t <= lastSuccess {
			break
		}
		if !b.set {
			b.lastFailure, b.set = t, true
		}
		b.failuresAfterLastSuccess++
	}
	return b
}

func sortByFinishedTime(pods []*api.Pod) {
	slices.SortStableFunc(pods, func(a, b *api.Pod) int {
		ta, tb := getFinishedTime(a), getFinishedTime(b)
		switch {
		case ta < tb:
			return -1
		case ta > tb:
			return 1
		}
		return 0
	})
}

// getFinishedTime is getFinishedTime: the last container's finishedAt,
// else when Ready turned False, else the deletion's start, else the
// pod's creation.
func getFinishedTime(p *api.Pod) int64 {
	if t, ok := finishTimeFromContainers(p); ok {
		return t
	}
	if c := p.Status.Condition(api.PodReady); c != nil && c.Status == api.ConditionFalse && c.LastTransitionTime.Set {
		return c.LastTransitionTime.MS
	}
	if p.DeletionTimestamp != nil {
		var grace int64
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		return p.DeletionTimestamp.MS - grace*1000
	}
	return p.CreationTimestamp.MS
}

// finishTimeFromContainers is latestFinishTime: only when every
// container has terminated.
func finishTimeFromContainers(p *api.Pod) (int64, bool) {
	var t int64
	found := false
	for _, cs := range p.Status.ContainerStatuses {
		term := cs.State.Terminated
		if term == nil || !term.FinishedAt.Set {
			return 0, false
		}
		if !found || term.FinishedAt.MS > t {
			t, found = term.FinishedAt.MS, true
		}
	}
	return t, found
}

// remainingTime is getRemainingTimeForFailuresCount: how long the next
// pod still waits after the record's failures, at now.
func (b backoffRecord) remainingTime(now int64) int64 {
	if b.failuresAfterLastSuccess == 0 || !b.set {
		return 0
	}
	d := int64(defaultPodFailureBackOff)
	for i := 1; i < int(b.failuresAfterLastSuccess); i++ {
		d *= 2
		if d >= maxPodFailureBackOff {
			d = maxPodFailureBackOff
			break
		}
	}
	elapsed := now - b.lastFailure
	if d < elapsed {
		return 0
	}
	return d - elapsed
}
