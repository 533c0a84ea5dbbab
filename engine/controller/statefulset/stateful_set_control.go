package statefulset

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// setSync is one updateStatefulSet: the set, its revisions and the tick.
type setSync struct {
	c               *Controller
	tick            reconcile.Tick
	set             *api.StatefulSet
	current, update *api.ControllerRevision
	replicas        []*api.Pod // by ordinal - start
	condemned       []*api.Pod // out of range, highest ordinal first
	firstUnhealthy  *api.Pod
	note            string
}

// monotonic is !allowsBurst: OrderedReady.
func (s *setSync) monotonic() bool {
	return s.set.Spec.PodManagementPolicy != api.ParallelPodManagement
}

// updateStatefulSet is updateStatefulSet (stateful_set_control.go, the
// MaxUnavailableStatefulSet gate off as in 1.34): every slot in order,
// then the condemned pods, then the rolling update; it returns the
// status the sync leaves and what it did.
func (s *setSync) updateStatefulSet(pods []*api.Pod) (api.StatefulSetStatus, string, error) {
	s.slots(pods)
	if s.set.DeletionTimestamp != nil {
		return s.status(), "; it is being deleted", nil
	}
	// runForAll: in OrderedReady a pod can stop the sync; in Parallel
	// the pods go in slow-start batches and only a batch with errors
	// does, with all of them.
	mono := s.monotonic()
	if mono {
		for i := range s.replicas {
			if exit, err := s.processReplica(i); err != nil || exit {
				return s.status(), s.note, err
			}
		}
	} else if err := slowStartBatch(len(s.replicas), func(i int) error { _, err := s.processReplica(i); return err }); err != nil {
		return s.status(), s.note, err
	}
	// Claims of condemned pods take the pod as owner first
	// (whenScaled: Delete), so they go with it.
	for _, p := range s.condemned {
		if err := s.c.fixPodClaims(s.tick, s.set, p); err != nil {
			return s.status(), s.note, err
		}
	}
	if mono {
		for i := range s.condemned {
			if exit, err := s.processCondemned(i); err != nil || exit {
				return s.status(), s.note, err
			}
		}
	} else if err := slowStartBatch(len(s.condemned), func(i int) error { _, err := s.processCondemned(i); return err }); err != nil {
		return s.status(), s.note, err
	}
	status := s.status()
	if s.set.Spec.UpdateStrategy.Type == api.StatefulSetOnDelete {
		return status, s.note, nil
	}
	updateMin := 0
	if ru := s.set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		updateMin = int(*ru.Partition)
	}
	for target := len(s.replicas) - 1; target >= updateMin; target-- {
		p := s.replicas[target]
		if podRevision(p) != s.update.Name && !isTerminating(p) {
			err := s.c.deleteStatefulPod(s.tick, s.set, p, "rolling update to "+s.update.Name)
			status.CurrentReplicas--
			s.note = fmt.Sprintf("; rolling update: replaces pod/%s (highest ordinal first)", p.Name)
			return status, s.note, err
		}
		if isUnavailable(p, s.set.Spec.MinReadySeconds, s.tick.Now()) {
			s.note = fmt.Sprintf("; rolling update waits for pod/%s to be Running and available", p.Name)
			return status, s.note, nil
		}
	}
	return status, s.note, nil
}

// slots places the pods by ordinal: in range, or condemned; a missing
// ordinal gets a new pod of the right revision; and finds the first
// unavailable pod (firstUnavailablePod), in range first, then the
// condemned from the lowest.
func (s *setSync) slots(pods []*api.Pod) {
	start, n := int(s.set.StartOrdinal()), int(s.set.Replicas())
	s.replicas = make([]*api.Pod, n)
	for _, p := range pods {
		switch ord := getOrdinal(p); {
		case ord >= start && ord < start+n:
			s.replicas[ord-start] = p
		case ord >= 0:
			s.condemned = append(s.condemned, p)
		}
	}
	labels := map[*api.ControllerRevision]map[string]string{}
	for i := range s.replicas {
		if s.replicas[i] == nil {
			s.replicas[i] = placeholderPod(s.set, s.current, s.update, start+i, labels)
		}
	}
	slices.SortFunc(s.condemned, func(a, b *api.Pod) int { return cmp.Compare(getOrdinal(b), getOrdinal(a)) })
	now := s.tick.Now()
	for _, p := range s.replicas {
		if isUnavailable(p, s.set.Spec.MinReadySeconds, now) {
			s.firstUnhealthy = p
			return
		}
	}
	for i := len(s.condemned) - 1; i >= 0; i-- {
		if isUnavailable(s.condemned[i], s.set.Spec.MinReadySeconds, now) {
			s.firstUnhealthy = s.condemned[i]
			return
		}
	}
}

// processReplica is processReplica: recreate a finished pod, create a
// missing one (OrderedReady: one per sync), and in OrderedReady stop at
// a pod that is terminating or not yet Running, Ready and available.
func (s *setSync) processReplica(i int) (bool, error) {
	p := s.replicas[i]
	mono := s.monotonic()
	switch {
	case isFailed(p) || isSucceeded(p):
		if p.DeletionTimestamp == nil {
			if err := s.c.deleteStatefulPod(s.tick, s.set, p, "it finished: "+p.Status.Phase); err != nil {
				return true, err
			}
		}
		s.note = fmt.Sprintf("; pod/%s finished (%s): deleted, recreated once gone", p.Name, p.Status.Phase)
		return true, nil
	case !isCreated(p):
		// The slot keeps its placeholder, which the status does not
		// count; the pod created is built whole now.
		full := newVersionedStatefulSetPod(s.set, s.current, s.update, getOrdinal(p))
		if err := s.c.createStatefulPod(s.tick, s.set, full); err != nil {
			return true, err
		}
		s.note += fmt.Sprintf("; created pod/%s", p.Name)
		return mono, nil
	}
	if isPending(p) {
		if err := s.c.createMissingClaims(s.tick, s.set, p); err != nil {
			return true, err
		}
	}
	now := s.tick.Now()
	switch {
	case mono && isTerminating(p):
		s.note = fmt.Sprintf("; waits for pod/%s to terminate (OrderedReady)", p.Name)
		return true, nil
	case mono && !isRunningAndReady(p):
		s.note += fmt.Sprintf("; waits for pod/%s to be Running and Ready (OrderedReady)", p.Name)
		return true, nil
	case mono && !isRunningAndAvailable(p, s.set.Spec.MinReadySeconds, now):
		s.note += fmt.Sprintf("; waits for pod/%s to be available (OrderedReady)", p.Name)
		return true, nil
	}
	if err := s.c.fixPodClaims(s.tick, s.set, p); err != nil {
		return true, err
	}
	if identityMatches(s.set, p) && storageMatches(s.set, p) {
		return false, nil
	}
	if err := s.c.updateStatefulPod(s.tick, s.set, p.DeepCopy()); err != nil {
		return true, err
	}
	return false, nil
}

// processCondemned is processCondemned: scale down from the highest
// ordinal, in OrderedReady one pod per sync and only once the others
// are healthy (or it is the first unhealthy one itself).
func (s *setSync) processCondemned(i int) (bool, error) {
	p := s.condemned[i]
	mono := s.monotonic()
	if isTerminating(p) {
		s.note = fmt.Sprintf("; waits for pod/%s to terminate", p.Name)
		return mono, nil
	}
	now := s.tick.Now()
	if mono && p != s.firstUnhealthy && (!isRunningAndReady(p) || !isRunningAndAvailable(p, s.set.Spec.MinReadySeconds, now)) {
		s.note = fmt.Sprintf("; scale down waits for pod/%s to be Running and Ready", p.Name)
		return true, nil
	}
	if err := s.c.deleteStatefulPod(s.tick, s.set, p, "scale down"); err != nil {
		return true, err
	}
	s.note += fmt.Sprintf("; scale down: deleted pod/%s", p.Name)
	return mono, nil
}

// slowStartBatch runs fn for 0…n-1 in batches of 1, 2, 4, …: a batch
// runs whole, and the first batch with failures ends the run with them
// (utilerrors.NewAggregate: one error as is, more as "[a, b]").
func slowStartBatch(n int, fn func(int) error) error {
	for batch, next := 1, 0; next < n; batch *= 2 {
		end := min(next+batch, n)
		var errs []string
		for i := next; i < end; i++ {
			if err := fn(i); err != nil {
				errs = append(errs, err.Error())
			}
		}
		next = end
		switch len(errs) {
		case 0:
		case 1:
			return errors.New(errs[0])
		default:
			return errors.New("[" + strings.Join(errs, ", ") + "]")
		}
	}
	return nil
}
