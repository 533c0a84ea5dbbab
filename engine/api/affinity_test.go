package api_test

import (
	"math/rand/v2"
	"testing"

	k8slabels "k8s.io/apimachinery/pkg/labels"

	"github.com/stateflow/stateflow/engine/api"
)

// A nodeSelector matches as apimachinery's labels.SelectorFromSet does:
// the oracle is apimachinery itself, over random sets and node labels
// drawn from a few keys and values, "" among them (a missing label is not
// the value "").
func TestMatchesSetIsSelectorFromSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := []string{"disktype", "node-role.kubernetes.io/control-plane", "zone"}
	values := []string{"", "ssd", "a"}
	draw := func() map[string]string {
		m := map[string]string{}
		for _, k := range keys {
			if r.IntN(2) == 0 {
				m[k] = values[r.IntN(len(values))]
			}
		}
		return m
	}
	for i := 0; i < 5000; i++ {
		set, node := draw(), draw()
		want := k8slabels.SelectorFromSet(set).Matches(k8slabels.Set(node))
		if got := api.MatchesSet(set, node); got != want {
			t.Fatalf("nodeSelector %v on node labels %v: %v, apimachinery says %v", set, node, got, want)
		}
	}
}

// A DaemonSet meant for control-plane nodes (a nodeSelector of an empty
// value, as the manifests of many add-ons write it) does not match a
// worker without the label; required node affinity is ANDed with it.
func TestRequiredNodeAffinity(t *testing.T) {
	worker := &api.Node{ObjectMeta: api.ObjectMeta{Name: "node-1", Labels: map[string]string{"kubernetes.io/hostname": "node-1"}}}
	cp := &api.Node{ObjectMeta: api.ObjectMeta{Name: "cp", Labels: map[string]string{"node-role.kubernetes.io/master": ""}}}
	spec := &api.PodSpec{NodeSelector: map[string]string{"node-role.kubernetes.io/master": ""}}
	if spec.RequiredNodeAffinity().Match(worker) || !spec.RequiredNodeAffinity().Match(cp) {
		t.Error("an empty-valued nodeSelector matches a node without the label, or not the one with it")
	}
	spec.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
		NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: api.ObjectNameField, Operator: "In", Values: []string{"node-1"}}}}}}}}
	if spec.RequiredNodeAffinity().Match(cp) {
		t.Error("the required node affinity (node-1 only) is not ANDed with the nodeSelector")
	}
}
