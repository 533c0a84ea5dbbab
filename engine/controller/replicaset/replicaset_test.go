package replicaset

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func pod(name, uid, node, phase string, readySince int64, restarts int32, created int64) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, UID: uid, CreationTimestamp: api.At(created)}, Spec: &api.PodSpec{}}
	p.Spec.NodeName = node
	p.Status.Phase = phase
	if readySince >= 0 {
		p.Status.Conditions = []api.PodCondition{{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: api.At(readySince)}}
	}
	p.Status.ContainerStatuses = []api.ContainerStatus{{Name: "c", RestartCount: restarts}}
	return p
}

const minute = 60_000

// docs/fidelity.md S7: scaling 5 → 2 deletes p1 (unassigned), p2
// (pending) and p4 (ready most recently); p5 survives its 3 restarts
// because ready time is compared before restarts.
func TestPodsToDeleteS7(t *testing.T) {
	now := int64(10*60+10) * minute // 10:10
	p1 := pod("p1", "u1", "", api.PodPending, -1, 0, 0)
	p2 := pod("p2", "u2", "n1", api.PodPending, -1, 0, 0)
	p3 := pod("p3", "u3", "n1", api.PodRunning, 600*minute, 0, 0)
	p4 := pod("p4", "u4", "n2", api.PodRunning, 605*minute, 0, 0)
	p5 := pod("p5", "u5", "n2", api.PodRunning, 540*minute, 3, 0)
	all := []*api.Pod{p3, p5, p1, p4, p2}
	got := getPodsToDelete(append([]*api.Pod(nil), all...), sameNodeCounts(all), 3, now)
	want := []string{"p1", "p2", "p4"}
	for i, p := range got {
		if p.Name != want[i] {
			t.Fatalf("deleted %v, want %v", names(got), want)
		}
	}
}

// Two pods ready 300 s and 400 s ago share a log2 bucket: the smaller UID goes first.
func TestPodsToDeleteLogBucketTieBreak(t *testing.T) {
	now := int64(1_000_000)
	a := pod("a", "uid-b", "n1", api.PodRunning, now-300_000, 0, 0)
	b := pod("b", "uid-a", "n1", api.PodRunning, now-400_000, 0, 0)
	got := getPodsToDelete([]*api.Pod{a, b}, sameNodeCounts([]*api.Pod{a, b}), 1, now)
	if got[0].Name != "b" {
		t.Fatalf("deleted %s, want b (uid-a < uid-b)", got[0].Name)
	}
}

func names(ps []*api.Pod) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Name)
	}
	return out
}

func TestCalculateStatusCountsOnlyActiveReadyAndAvailable(t *testing.T) {
	rs := &api.ReplicaSet{}
	rs.Spec.Replicas = api.Int32(3)
	rs.Spec.MinReadySeconds = 10
	rs.Spec.Template.Labels = map[string]string{"app": "web"}
	now := int64(100_000)
	ready := func(since int64) *api.Pod {
		p := pod("p", "u", "n", api.PodRunning, since, 0, 0)
		p.Labels = map[string]string{"app": "web"}
		return p
	}
	st := calculateStatus(targetOf(rs), []*api.Pod{ready(now - 20_000), ready(now - 5_000), pod("x", "x", "n", api.PodPending, -1, 0, 0)}, nil, now)
	if st.Replicas != 3 || st.ReadyReplicas != 2 || st.AvailableReplicas != 1 || st.FullyLabeledReplicas != 2 {
		t.Fatalf("status %+v", st)
	}
}

// TestFullyLabeledNeedsEveryTemplateLabelPresent: a pod counts as fully
// labeled when it carries every label of the template, as upstream's
// labels.Set(template).AsSelectorPreValidated() tests it
// (replica_set_utils.go calculateStatus). A template label with an empty
// value still needs the key on the pod: one that lost it (kubectl label
// pod p tier-) is not counted, though its missing value reads as "".
func TestFullyLabeledNeedsEveryTemplateLabelPresent(t *testing.T) {
	rs := &api.ReplicaSet{}
	rs.Spec.Replicas = api.Int32(3)
	rs.Spec.Template.Labels = map[string]string{"app": "web", "tier": ""}
	labeled := func(name string, l map[string]string) *api.Pod {
		p := pod(name, name, "n", api.PodRunning, -1, 0, 0)
		p.Labels = l
		return p
	}
	pods := []*api.Pod{
		labeled("a", map[string]string{"app": "web", "tier": ""}),
		labeled("b", map[string]string{"app": "web", "tier": "", "extra": "1"}),
		labeled("c", map[string]string{"app": "web"}), // tier removed
	}
	if st := calculateStatus(targetOf(rs), pods, nil, 0); st.FullyLabeledReplicas != 2 {
		t.Fatalf("fullyLabeledReplicas %d, want 2 (the pod without tier is not fully labeled)", st.FullyLabeledReplicas)
	}
}

// sameNodeCounts counts the active related pods on each node, as
// relatedNodeCounts does over the cache.
func sameNodeCounts(related []*api.Pod) map[string]int {
	onNode := map[string]int{}
	for _, p := range related {
		if api.IsPodActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	return onNode
}
