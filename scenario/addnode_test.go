package scenario

import (
	"strings"
	"testing"
)

// add-node: a node like the generated ones (spec.nodes' capacity, labels
// and taints) plus the action's own, completed like the others (its own
// pod CIDR after theirs), joining at its time.
func TestAddNode(t *testing.T) {
	src := base + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  nodes: {count: 2, capacity: {cpu: \"8\"}, labels: {tier: a}}\n" +
		"  actions:\n  - {at: 30s, add-node: node-9, labels: {zone: b}, taints: [{key: new, effect: NoSchedule}]}\n"
	sc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Config.Nodes) != 2 || len(sc.Config.JoiningNodes) != 1 {
		t.Fatalf("%d nodes, %d joining", len(sc.Config.Nodes), len(sc.Config.JoiningNodes))
	}
	n := sc.Config.JoiningNodes[0]
	if n.Name != "node-9" || n.Labels["tier"] != "a" || n.Labels["zone"] != "b" || n.Labels["kubernetes.io/hostname"] != "node-9" ||
		n.Status.Capacity["cpu"].String() != "8" || len(n.Spec.Taints) != 1 || n.Spec.PodCIDR != "10.244.2.0/24" {
		t.Fatalf("joining node %+v", n)
	}
	found := false
	for _, a := range sc.Config.Actions {
		found = found || a.At == 30_000 && a.Object.Name == "node-9" && a.Fault != nil
	}
	if !found {
		t.Fatalf("no add-node action at 30s in %+v", sc.Config.Actions)
	}
	for _, tc := range []struct{ action, want string }{
		{"{at: 1s, add-node: node-1}", `line 21:24: spec.actions[0].add-node: nodes "node-1" already exists`},
		{"{at: 1s, labels: {a: b}}", "line 21:5: spec.actions[0]: labels and taints describe the node of an add-node action"},
		{"{at: 1s, add-node: n, kill-pod: x}", "an action does one thing"},
	} {
		_, err := Parse([]byte(base + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  actions:\n  - " + tc.action + "\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.action, err, tc.want)
		}
	}
}

// A node fault timed before the node joins has no node to act on.
func TestFaultBeforeJoin(t *testing.T) {
	src := base + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  actions:\n" +
		"  - {at: 10s, node: node-4, condition: Unreachable}\n  - {at: 30s, add-node: node-4}\n"
	_, err := Parse([]byte(src))
	if err == nil || !strings.Contains(err.Error(), `spec.actions[0].node: node "node-4" joins the cluster at 30.000s: a fault at 10.000s has no node to act on`) {
		t.Fatalf("error %v", err)
	}
	ok := strings.Replace(src, "at: 10s, node", "at: 40s, node", 1)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Fatalf("a fault after the node joins: %v", err)
	}
}
