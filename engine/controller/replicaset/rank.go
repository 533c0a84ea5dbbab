package replicaset

import (
	"math"
	"sort"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// podDeletionCost is the annotation that lets users pick victims.
const podDeletionCost = "controller.kubernetes.io/pod-deletion-cost"

var phaseOrdinal = map[string]int{api.PodPending: 0, api.PodUnknown: 1, api.PodRunning: 2}

// rankedPods orders pods for deletion (controller_utils.go
// ActivePodsWithRanks.Less, with PodDeletionCost and LogarithmicScaleDown
// on, as by default). The sort is stable, so pods equal under every rule
// keep their name order: upstream's sort.Sort gives no such guarantee.
type rankedPods struct {
	pods []*api.Pod
	rank []int
	now  int64
}

// getPodsToDelete returns the diff pods to delete first.
func getPodsToDelete(filtered, related []*api.Pod, diff int, now int64) []*api.Pod {
	if diff < len(filtered) {
		r := rankedPods{pods: filtered, rank: ranksBySameNode(filtered, related), now: now}
		sort.Stable(r)
	}
	return filtered[:diff]
}

// ranksBySameNode counts, for each pod, the active related pods on its node.
func ranksBySameNode(pods, related []*api.Pod) []int {
	onNode := map[string]int{}
	for _, p := range related {
		if api.IsPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(pods))
	for i, p := range pods {
		ranks[i] = onNode[p.Spec.NodeName]
	}
	return ranks
}

func (r rankedPods) Len() int { return len(r.pods) }

func (r rankedPods) Swap(i, j int) {
	r.pods[i], r.pods[j] = r.pods[j], r.pods[i]
	r.rank[i], r.rank[j] = r.rank[j], r.rank[i]
}

func (r rankedPods) Less(i, j int) bool {
	a, b := r.pods[i], r.pods[j]
	if a.Spec.NodeName != b.Spec.NodeName && (a.Spec.NodeName == "" || b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	if pa, pb := phaseOrdinal[a.Status.Phase], phaseOrdinal[b.Status.Phase]; pa != pb {
		return pa < pb
	}
	if ra, rb := api.IsPodReady(a), api.IsPodReady(b); ra != rb {
		return !ra
	}
	if ca, cb := deletionCost(a), deletionCost(b); ca != cb {
		return ca < cb
	}
	if r.rank[i] != r.rank[j] {
		return r.rank[i] > r.rank[j]
	}
	if api.IsPodReady(a) && api.IsPodReady(b) {
		ta, tb := readyTime(a), readyTime(b)
		if ta != tb {
			return r.newerFirst(ta, tb, a, b)
		}
	}
	if ma, mb := maxRestarts(a), maxRestarts(b); ma != mb {
		return ma > mb
	}
	if ta, tb := a.CreationTimestamp.MS, b.CreationTimestamp.MS; ta != tb {
		return r.newerFirst(ta, tb, a, b)
	}
	return false
}

// newerFirst compares two instants in log2 buckets of their age in
// nanoseconds; equal buckets fall back to the smaller UID.
func (r rankedPods) newerFirst(ta, tb int64, a, b *api.Pod) bool {
	diff := logBucket(r.now-ta) - logBucket(r.now-tb)
	if diff == 0 {
		return a.UID < b.UID
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

func deletionCost(p *api.Pod) int64 {
	v, err := strconv.ParseInt(p.Annotations[podDeletionCost], 10, 32)
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
