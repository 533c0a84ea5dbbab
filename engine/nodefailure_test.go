package engine_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/internal/testkit"
)

func withActions(t *testing.T, actions string) *engine.Engine {
	t.Helper()
	src := strings.Replace(mustRead(t, seed), "  images:\n", "  actions:\n"+actions+"  images:\n", 1)
	e, _ := testkit.Load(t, []byte(src))
	return e
}

func node(t *testing.T, e *engine.Engine, name string) *api.Node {
	t.Helper()
	o, ok := e.Store().Get(api.Key{Kind: api.KindNode, Name: name})
	if !ok {
		t.Fatalf("node %s missing", name)
	}
	return o.(*api.Node)
}

func eventsWith(e *engine.Engine, reason string) []*api.Event {
	var out []*api.Event
	for _, o := range e.Store().List(api.KindEvent, "") {
		if ev := o.(*api.Event); ev.Reason == reason {
			out = append(out, ev)
		}
	}
	return out
}

// docs/fidelity.md S15: node-2 becomes unreachable at 30 s. After the 50 s grace
// (at the next 5 s monitor boundary after 80 s, 85 s; 75 s with the 40 s
// grace of older releases) its conditions go Unknown, the
// unreachable taints are added and its pod is marked not ready; 300 s
// later (the default toleration) the pod is marked for deletion, stays
// Terminating on the dead node, and a replacement runs elsewhere.
func TestNodeFailureS15(t *testing.T) {
	e := withActions(t, "    - at: 30s\n      node: node-2\n      condition: Unreachable\n")
	e.RunUntil(84_000)
	if c := node(t, e, "node-2").Status.Condition(api.NodeReady); c.Status != api.ConditionTrue {
		t.Fatalf("before the grace period ends node-2 is still Ready: %+v", c)
	}
	e.RunUntil(86_000)
	n := node(t, e, "node-2")
	c := n.Status.Condition(api.NodeReady)
	if c.Status != api.ConditionUnknown || c.Reason != "NodeStatusUnknown" || c.Message != "Kubelet stopped posting node status." {
		t.Fatalf("node-2 Ready = %+v", c)
	}
	taints := map[string]bool{}
	for _, tt := range n.Spec.Taints {
		taints[tt.Key+":"+tt.Effect] = true
	}
	if !taints["node.kubernetes.io/unreachable:NoExecute"] || !taints["node.kubernetes.io/unreachable:NoSchedule"] {
		t.Fatalf("taints %v", n.Spec.Taints)
	}
	var victim *api.Pod
	for _, p := range testkit.Pods(e, "codartium-team") {
		if p.Spec.NodeName == "node-2" {
			victim = p
		}
	}
	if victim == nil || api.IsPodReady(victim) {
		t.Fatalf("the pod on node-2 must be marked not ready: %+v", victim)
	}
	e.RunUntil(87_000)
	if d := testkit.Deployment(t, e, "codartium-team", "codartium-api"); d.Status.AvailableReplicas != 2 || d.Status.Condition(api.DeploymentAvailable).Status != api.ConditionFalse {
		t.Errorf("with 2 of 3 available the Deployment is not Available: %+v", d.Status)
	}
	e.RunUntil(384_000)
	if len(eventsWith(e, "TaintManagerEviction")) != 0 {
		t.Fatal("eviction must wait for the 300 s toleration")
	}
	if err := e.RunUntilSettled(engine.SettleLimits{MaxTime: 1_000_000}); err != nil {
		t.Fatal(err)
	}
	ev := eventsWith(e, "TaintManagerEviction")
	if len(ev) != 1 || ev[0].Message != "Marking for deletion Pod codartium-team/"+victim.Name || ev[0].FirstTimestamp.MS != 385_000 {
		t.Fatalf("eviction events %+v", ev)
	}
	o, ok := e.Store().Get(api.KeyOf(victim))
	if !ok || o.Meta().DeletionTimestamp == nil {
		t.Fatal("the evicted pod stays Terminating while its kubelet is unreachable")
	}
	running := 0
	for _, p := range testkit.Pods(e, "codartium-team") {
		if p.DeletionTimestamp == nil && api.IsPodReady(p) {
			running++
			if p.Spec.NodeName == "node-2" {
				t.Error("the replacement must avoid the NoSchedule-tainted node-2")
			}
		}
	}
	if running != 3 || testkit.Deployment(t, e, "codartium-team", "codartium-api").Status.AvailableReplicas != 3 {
		t.Fatalf("%d ready pods after the replacement", running)
	}
	if len(eventsWith(e, "NodeNotReady")) != 2 {
		t.Errorf("NodeNotReady events on the node and on its pod: %d", len(eventsWith(e, "NodeNotReady")))
	}
}

// When the node comes back before the tolerations expire, the scheduled
// eviction is cancelled, the taints go, and the pod is ready again.
func TestNodeReturnsCancelsEviction(t *testing.T) {
	e := withActions(t, "    - at: 30s\n      node: node-2\n      condition: Unreachable\n    - at: 200s\n      node: node-2\n      condition: Ready\n")
	if err := e.RunUntilSettled(engine.SettleLimits{MaxTime: 2_000_000}); err != nil {
		t.Fatal(err)
	}
	if len(eventsWith(e, "TaintManagerEviction")) != 1 || !strings.HasPrefix(eventsWith(e, "TaintManagerEviction")[0].Message, "Cancelling deletion of Pod codartium-team/") {
		t.Fatalf("events %+v", eventsWith(e, "TaintManagerEviction"))
	}
	n := node(t, e, "node-2")
	if len(n.Spec.Taints) != 0 || n.Status.Condition(api.NodeReady).Status != api.ConditionTrue || len(eventsWith(e, "NodeReady")) != 1 {
		t.Fatalf("node-2 after recovery: taints %v, conditions %+v", n.Spec.Taints, n.Status.Conditions)
	}
	for _, p := range testkit.Pods(e, "codartium-team") {
		if !api.IsPodReady(p) {
			t.Errorf("pod %s not ready after the node returned", p.Name)
		}
	}
	if len(testkit.Pods(e, "codartium-team")) != 3 {
		t.Errorf("no pod was replaced: %d pods", len(testkit.Pods(e, "codartium-team")))
	}
}

// NotReady: the kubelet reports Ready=False itself; the not-ready taints follow at once.
func TestNodeNotReady(t *testing.T) {
	e := withActions(t, "    - at: 30s\n      node: node-1\n      condition: NotReady\n")
	e.RunUntil(31_000)
	n := node(t, e, "node-1")
	if c := n.Status.Condition(api.NodeReady); c.Status != api.ConditionFalse || c.Reason != "KubeletNotReady" {
		t.Fatalf("%+v", c)
	}
	if len(n.Spec.Taints) != 2 || n.Spec.Taints[0].Key != "node.kubernetes.io/not-ready" {
		t.Fatalf("taints %+v", n.Spec.Taints)
	}
}
