package scheduler

import (
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func dongleNode(name, dongles string) *api.Node {
	n := node(name, "4")
	if dongles != "" {
		n.Status.Allocatable["example.com/dongle"] = api.MustQuantity(dongles)
	}
	return n
}

func donglePod(cpu, dongles string) *api.Pod {
	p := cpuPod(cpu)
	q := api.MustQuantity(dongles)
	p.Spec.Containers[0].Resources.Requests["example.com/dongle"] = q
	p.Spec.Containers[0].Resources.Limits = api.ResourceList{"example.com/dongle": q}
	return p
}

// The documentation's "Assign Extended Resources to a Container": a node
// advertises four dongles; a pod asking for three fits, a second asking
// for two does not, and a node that advertises none never fits.
func TestExtendedResourcesFit(t *testing.T) {
	busy := &nodeInfo{}
	first := donglePod("100m", "3")
	busy.add(first, usageOf(first), 1)
	for _, tc := range []struct {
		name         string
		pod          *api.Pod
		node         *api.Node
		info         *nodeInfo
		want         []string
		unresolvable bool
	}{
		{"fits an idle node", donglePod("100m", "3"), dongleNode("a", "4"), &nodeInfo{}, nil, false},
		{"one left of four", donglePod("100m", "2"), dongleNode("a", "4"), busy, []string{"Insufficient example.com/dongle"}, false},
		{"exactly what is left", donglePod("100m", "1"), dongleNode("a", "4"), busy, nil, false},
		{"a node without dongles", donglePod("100m", "1"), dongleNode("b", ""), &nodeInfo{}, []string{"Insufficient example.com/dongle"}, true},
		{"more than the node has", donglePod("100m", "5"), dongleNode("a", "4"), &nodeInfo{}, []string{"Insufficient example.com/dongle"}, true},
		{"cpu first, then the dongle", donglePod("8", "2"), dongleNode("a", "4"), busy, []string{"Insufficient cpu", "Insufficient example.com/dongle"}, true},
		{"a pod without dongles ignores them", cpuPod("1"), dongleNode("b", ""), &nodeInfo{}, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := filterPod(tc.pod, tc.node, tc.info)
			if got := st.texts(); !slices.Equal(got, tc.want) {
				t.Fatalf("reasons %q, want %q", got, tc.want)
			}
			if st.fails() && st.unresolvable != tc.unresolvable {
				t.Fatalf("unresolvable %v, want %v", st.unresolvable, tc.unresolvable)
			}
		})
	}
}

// The FailedScheduling message names the extended resource, counted per
// node like cpu.
func TestExtendedResourcesFitError(t *testing.T) {
	busy := &nodeInfo{}
	first := donglePod("100m", "3")
	busy.add(first, usageOf(first), 1)
	p := donglePod("100m", "2")
	fails := []status{filterPod(p, dongleNode("a", "4"), busy), filterPod(p, dongleNode("b", ""), &nodeInfo{}), filterPod(p, dongleNode("c", ""), &nodeInfo{})}
	want := "0/3 nodes are available: 3 Insufficient example.com/dongle. no new claims to deallocate, preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
	if got := fitError(3, fails); got != want {
		t.Fatalf("got  %q\nwant %q", got, want)
	}
	// Removing the first pod frees its dongles.
	busy.add(first, usageOf(first), -1)
	if st := filterPod(p, dongleNode("a", "4"), busy); st.fails() {
		t.Fatalf("after the first pod left: %q", st.texts())
	}
	// A checkpoint's copy counts apart from the original.
	c := busy.clone()
	c.add(first, usageOf(first), 1)
	if busy.scalar["example.com/dongle"] != 0 || c.scalar["example.com/dongle"] != 3 {
		t.Fatalf("clone shares its counts: %v %v", busy.scalar, c.scalar)
	}
}

func TestScalarResourceNames(t *testing.T) {
	for name, want := range map[string]bool{
		"cpu": false, "memory": false, "pods": false, "ephemeral-storage": false,
		"example.com/dongle": true, "nvidia.com/gpu": true, "hugepages-2Mi": true,
		"kubernetes.io/batch-cpu": true, "attachable-volumes-csi-x": true,
		"example.com/bad name": false,
	} {
		if got := api.IsScalarResourceName(name); got != want {
			t.Errorf("IsScalarResourceName(%q) = %v, want %v", name, got, want)
		}
	}
}
