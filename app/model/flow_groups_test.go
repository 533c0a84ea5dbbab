package model

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// TestPodGroupsMatchEveryNodeCounted checks podGroups against counting
// every node's pods by state, sorting all the nodes and drawing the first
// eight (what it did before it kept counts only for those): random pods
// on few and many nodes, some unscheduled, terminating, failed or not
// ready.
func TestPodGroupsMatchEveryNodeCounted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, nodes := range []int{1, 3, 8, 9, 40, 1500} {
		for _, n := range []int{GroupPodsAbove + 1, 300, 3000} {
			pods := randomPods(rng, n, nodes)
			l := &layout{f: &Flow{}, boxes: map[string]*Box{}}
			bottom := l.podGroups("uid", pods, 100, 400)
			want, wantBottom := groupsCountingEveryNode(pods, 100, 400)
			if bottom != wantBottom {
				t.Errorf("%d pods on %d nodes: bottom %d, want %d", n, nodes, bottom, wantBottom)
			}
			if len(l.boxes) != len(want) {
				t.Errorf("%d pods on %d nodes: %d boxes, want %d", n, nodes, len(l.boxes), len(want))
			}
			for id, w := range want {
				got, ok := l.boxes[id]
				if !ok || got.Title != w.Title || got.X != w.X || got.Y != w.Y || got.W != w.W || !slices.Equal(got.Lines, w.Lines) {
					t.Errorf("%d pods on %d nodes: box %s is %+v, want %+v", n, nodes, id, got, w)
				}
			}
		}
	}
}

// randomPods are n pods on up to nodes nodes, in random states.
func randomPods(rng *rand.Rand, n, nodes int) []*api.Pod {
	ready := []api.PodCondition{{Type: "Ready", Status: "True"}}
	pods := make([]*api.Pod, n)
	for i := range pods {
		p := &api.Pod{Spec: &api.PodSpec{}}
		p.Name = fmt.Sprintf("web-%d", i)
		if rng.IntN(20) > 0 {
			p.Spec.NodeName = fmt.Sprintf("node-%d", rng.IntN(nodes))
		}
		switch rng.IntN(6) {
		case 0:
			p.Status.Phase = api.PodPending
		case 1:
			p.Status.Phase = api.PodFailed
		case 2:
			p.Status.Phase = api.PodRunning
		default:
			p.Status.Phase, p.Status.Conditions = api.PodRunning, ready
		}
		if rng.IntN(30) == 0 {
			p.DeletionTimestamp = &api.Time{MS: 1000, Set: true}
		}
		pods[i] = p
	}
	return pods
}

// groupsCountingEveryNode is the boxes of pods grouped by node, counted
// for every node.
func groupsCountingEveryNode(pods []*api.Pod, x, width int) (map[string]Box, int) {
	byNode := map[string]map[string]int{}
	for _, p := range pods {
		node := p.Spec.NodeName
		if node == "" {
			node = "unscheduled"
		}
		if byNode[node] == nil {
			byNode[node] = map[string]int{}
		}
		s, _ := podState(p)
		byNode[node][s]++
	}
	var nodes []string
	for n := range byNode {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	out := map[string]Box{}
	bottom := rowPods
	shown := min(len(nodes), 8)
	for i, n := range nodes[:shown] {
		py := rowPods + (i/2)*(podH+podGap)
		out["group/uid/"+n] = Box{Title: n, X: x + (i%2)*(width/2), Y: py, W: width/2 - podGap, Lines: strings.SplitN(countsLine(byNode[n]), ": ", 2)}
		bottom = max(bottom, py+podH)
	}
	if shown < len(nodes) {
		rest := map[string]int{}
		for _, n := range nodes[shown:] {
			for s, c := range byNode[n] {
				rest[s] += c
			}
		}
		out["group/uid/rest"] = Box{Title: fmt.Sprintf("%d more nodes", len(nodes)-shown), X: x, Y: bottom + podGap, W: width, Lines: strings.SplitN(countsLine(rest), ": ", 2)}
		bottom += podGap + podH
	}
	return out, bottom
}

func TestPhaseStateReadsAsThePhase(t *testing.T) {
	for _, phase := range []string{api.PodPending, api.PodRunning, api.PodUnknown, "Odd"} {
		for _, ready := range []bool{false, true} {
			want := phase + " · not ready"
			if ready {
				want = phase + " · ready"
			}
			if got := phaseState(phase, ready); got != want {
				t.Errorf("phaseState(%q, %v) = %q, want %q", phase, ready, got, want)
			}
		}
	}
}
