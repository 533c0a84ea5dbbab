package scheduler

import (
	"math"
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func node(name, cpu string, taints ...api.Taint) *api.Node {
	n := &api.Node{ObjectMeta: api.ObjectMeta{Name: name}}
	n.Status.Allocatable = api.ResourceList{"cpu": api.MustQuantity(cpu), "memory": api.MustQuantity("8Gi"), "pods": api.MustQuantity("110")}
	n.Spec.Taints = taints
	return n
}

func cpuPod(cpu string) *api.Pod {
	return &api.Pod{Spec: &api.PodSpec{Containers: []api.Container{{Name: "c", Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": api.MustQuantity(cpu)}}}}}}
}

// docs/fidelity.md S9: the FailedScheduling message, with its sorted
// histogram and the PostFilter plugins' suffix, which v1.34 ends with a
// single period (v1.32's ended with two, docs/fidelity.md §4.3).
func TestFitErrorS9(t *testing.T) {
	p := cpuPod("3")
	var fails []status
	for _, n := range []*api.Node{node("a", "2"), node("b", "2"), node("c", "2")} {
		fails = append(fails, filterPod(p, n, &nodeInfo{}))
	}
	// The pod asks for more than any node's allocatable: preemption cannot help.
	want := "0/3 nodes are available: 3 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	if got := fitError(3, fails); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	cp := node("cp", "8", api.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintNoSchedule})
	fails = []status{filterPod(p, cp, &nodeInfo{}), filterPod(p, node("a", "2"), &nodeInfo{}), filterPod(p, node("b", "2"), &nodeInfo{})}
	want = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
	if got := fitError(3, fails); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// Nodes big enough but full: preemption is tried, and finds no victim
	// among pods of equal priority.
	busy := &nodeInfo{}
	busy.add(cpuPod("2"), usageOf(cpuPod("2")), 1)
	fails = []status{filterPod(p, cp, &nodeInfo{}), filterPod(p, node("a", "4"), busy), filterPod(p, node("b", "4"), busy)}
	want = "0/3 nodes are available: 1 node(s) had untolerated taint(s), 2 Insufficient cpu. no new claims to deallocate, preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod."
	if got := fitError(3, fails); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
}

// The first failing filter stops the evaluation of a node.
func TestFilterOrder(t *testing.T) {
	n := node("n", "1", api.Taint{Key: "dedicated", Value: "db", Effect: api.TaintNoSchedule})
	n.Spec.Unschedulable = true
	if st := filterPod(cpuPod("3"), n, &nodeInfo{}); st.reasons.texts()[0] != "node(s) were unschedulable" {
		t.Fatalf("reasons %v", st.reasons)
	}
	n.Spec.Unschedulable = false
	if st := filterPod(cpuPod("3"), n, &nodeInfo{}); len(st.reasons.texts()) != 1 || st.reasons.texts()[0] != "node(s) had untolerated taint(s)" {
		t.Fatalf("reasons %v", st.reasons)
	}
}

func TestLeastAllocatedPrefersEmptierNodes(t *testing.T) {
	p := cpuPod("1")
	busy := &nodeInfo{}
	busy.add(cpuPod("2"), usageOf(cpuPod("2")), 1)
	if scorePod(p, node("a", "4"), &nodeInfo{}) <= scorePod(p, node("b", "4"), busy) {
		t.Fatal("an empty node must score higher than a busy one")
	}
}

func TestNumFeasibleNodesToFind(t *testing.T) {
	for _, tc := range []struct{ nodes, want int }{{3, 3}, {99, 99}, {100, 100}, {1000, 420}, {5000, 500}} {
		if got := numFeasibleNodesToFind(tc.nodes); got != tc.want {
			t.Errorf("%d nodes: %d, want %d", tc.nodes, got, tc.want)
		}
	}
}

func TestBackoff(t *testing.T) {
	for i, want := range []int64{1000, 1000, 2000, 4000, 8000, 10000, 10000} {
		if got := backoff(i); got != want {
			t.Errorf("attempt %d: %d, want %d", i, got, want)
		}
	}
}

// filterPod and scorePod run the filters and the score for one pod, as
// one scheduling attempt does.
func filterPod(p *api.Pod, n *api.Node, info *nodeInfo) status {
	u := usageOf(p)
	return filter(p, &u, n, info, prefiltered{})
}

func scorePod(p *api.Pod, n *api.Node, info *nodeInfo) int64 {
	u := usageOf(p)
	info.node = n
	return New().scores(p, &u, []*nodeInfo{info})[0]
}

// PodTopologySpread's normalisation (podtopologyspread/scoring.go): raw
// scores rounded, then 100 × (max + min − score) / max, so the nodes with
// the fewest matching pods score 100.
func TestNormalizeSpread(t *testing.T) {
	for _, tc := range []struct {
		raw  []float64
		want []int64
	}{
		{[]float64{0, 0, 0}, []int64{100, 100, 100}},
		{[]float64{2, 2 + math.Log(5), 2}, []int64{100, 50, 100}},
		{[]float64{2 + 2*math.Log(5), 2 + math.Log(5), 2}, []int64{40, 60, 100}},
	} {
		if got := normalizeSpread(tc.raw, make([]int64, len(tc.raw))); !slices.Equal(got, tc.want) {
			t.Errorf("normalizeSpread(%v) = %v, want %v", tc.raw, got, tc.want)
		}
	}
}
