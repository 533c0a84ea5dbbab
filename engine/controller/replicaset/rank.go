package replicaset

import (
	"math"
	"sort"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// podDeletionCost is the annotation that lets users pick victims.
const podDeletionCost = "controller.kubernetes.io/pod-deletion-cost"

// rankedPods are the ranks that order pods for deletion (controller_utils.go
// ActivePodsWithRanks.Less, with PodDeletionCost and LogarithmicScaleDown
// on, as by default); byRank sorts by them. The sort is stable, so pods
// equal under every rule keep their name order: upstream's sort.Sort
// gives no such guarantee.
//
// Each pod's sort key is read once (podRank) rather than in every
// comparison: at 10,000 pods a comparison that walks each pod's
// conditions and parses its annotations costs more than the sort.
type rankedPods struct {
	keys []podRank // one per pod, in the pods' order
	now  int64
}

// podRank is what less compares, read from one pod.
type podRank struct {
	unassigned bool
	phase      int
	ready      bool
	cost       int64
	sameNode   int // active related pods on the pod's node
	readyMS    int64
	restarts   int32
	createdMS  int64
	uid        string
}

// getPodsToDelete returns the diff pods to delete first, ranking filtered
// in place; onNode counts the active related pods on each node.
//
// The stable sort orders a permutation of indexes, not the pods and their
// ranks: sort.Stable swaps O(n·log²n) times, and a swap of two indexes
// moves 8 bytes instead of two pods and two 80-byte ranks. Its calls to
// Less, and so the order it makes, are the same either way.
func getPodsToDelete(filtered []*api.Pod, onNode map[string]int, diff int, now int64) []*api.Pod {
	if diff < len(filtered) {
		r := newRankedPods(filtered, onNode, now)
		perm := byRank{ranked: r, perm: make([]int32, len(filtered))}
		for i := range perm.perm {
			perm.perm[i] = int32(i)
		}
		sort.Stable(perm)
		ordered := make([]*api.Pod, len(filtered))
		for i, j := range perm.perm {
			ordered[i] = filtered[j]
		}
		copy(filtered, ordered)
	}
	return filtered[:diff]
}

// byRank sorts a permutation of ranked's pods by their ranks.
type byRank struct {
	ranked rankedPods
	perm   []int32
}

func (b byRank) Len() int      { return len(b.perm) }
func (b byRank) Swap(i, j int) { b.perm[i], b.perm[j] = b.perm[j], b.perm[i] }
func (b byRank) Less(i, j int) bool {
	return b.ranked.less(&b.ranked.keys[b.perm[i]], &b.ranked.keys[b.perm[j]])
}

func newRankedPods(pods []*api.Pod, onNode map[string]int, now int64) rankedPods {
	keys := make([]podRank, len(pods))
	for i, p := range pods {
		keys[i] = podRank{
			unassigned: p.Spec.NodeName == "",
			phase:      phaseOrdinal(p.Status.Phase),
			ready:      api.IsPodReady(p),
			cost:       deletionCost(p),
			sameNode:   onNode[p.Spec.NodeName],
			readyMS:    readyTime(p),
			restarts:   maxRestarts(p),
			createdMS:  p.CreationTimestamp.MS,
			uid:        p.UID,
		}
	}
	return rankedPods{keys: keys, now: now}
}

func phaseOrdinal(phase string) int {
	switch phase {
	case api.PodUnknown:
		return 1
	case api.PodRunning:
		return 2
	}
	return 0 // Pending, and anything else
}

// less is ActivePodsWithRanks.Less of two pods' ranks.
func (r rankedPods) less(a, b *podRank) bool {
	if a.unassigned != b.unassigned {
		return a.unassigned
	}
	if a.phase != b.phase {
		return a.phase < b.phase
	}
	if a.ready != b.ready {
		return !a.ready
	}
	if a.cost != b.cost {
		return a.cost < b.cost
	}
	if a.sameNode != b.sameNode {
		return a.sameNode > b.sameNode
	}
	if a.ready && b.ready && a.readyMS != b.readyMS {
		return r.newerFirst(a.readyMS, b.readyMS, a, b)
	}
	if a.restarts != b.restarts {
		return a.restarts > b.restarts
	}
	if a.createdMS != b.createdMS {
		return r.newerFirst(a.createdMS, b.createdMS, a, b)
	}
	return false
}

// newerFirst compares two instants in log2 buckets of their age in
// nanoseconds; equal buckets fall back to the smaller UID.
func (r rankedPods) newerFirst(ta, tb int64, a, b *podRank) bool {
	diff := logBucket(r.now-ta) - logBucket(r.now-tb)
	if diff == 0 {
		return a.uid < b.uid
	}
	return diff < 0
}

func logBucket(ageMS int64) int64 {
	if ageMS <= 0 {
		return -1
	}
	return int64(math.Log2(float64(ageMS) * 1e6))
}

func readyTime(p *api.Pod) int64 {
	if c := p.Status.Condition(api.PodReady); c != nil {
		return c.LastTransitionTime.MS
	}
	return 0
}

// deletionCost is the pod-deletion-cost annotation, 0 when it is absent
// or not a 32-bit integer.
func deletionCost(p *api.Pod) int64 {
	s, ok := p.Annotations[podDeletionCost]
	if !ok {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0
	}
	return v
}

func maxRestarts(p *api.Pod) int32 {
	var m int32
	for _, c := range p.Status.ContainerStatuses {
		m = max(m, c.RestartCount)
	}
	return m
}
