package daemon_test

import (
	"fmt"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/daemon"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

func node(name string, labels map[string]string, taints ...api.Taint) *api.Node {
	return &api.Node{ObjectMeta: api.ObjectMeta{Name: name, Labels: labels}, Spec: api.NodeSpec{Taints: taints}}
}

// NodeShouldRunDaemonPod, case by case (docs/fidelity-workloads.md §2.2).
func TestNodeShouldRunDaemonPod(t *testing.T) {
	ds := func(f func(*api.PodSpec)) *api.DaemonSet {
		d := &api.DaemonSet{}
		if f != nil {
			f(&d.Spec.Template.Spec)
		}
		return d
	}
	noSchedule := api.Taint{Key: "dedicated", Value: "x", Effect: api.TaintNoSchedule}
	noExecute := api.Taint{Key: "dedicated", Value: "x", Effect: api.TaintNoExecute}
	for _, tc := range []struct {
		name                 string
		node                 *api.Node
		ds                   *api.DaemonSet
		run, continueRunning bool
	}{
		{"plain node", node("n", nil), ds(nil), true, true},
		{"nodeSelector does not match", node("n", map[string]string{"disk": "hdd"}), ds(func(s *api.PodSpec) { s.NodeSelector = map[string]string{"disk": "ssd"} }), false, false},
		{"nodeSelector matches", node("n", map[string]string{"disk": "ssd"}), ds(func(s *api.PodSpec) { s.NodeSelector = map[string]string{"disk": "ssd"} }), true, true},
		{"another nodeName", node("n", nil), ds(func(s *api.PodSpec) { s.NodeName = "m" }), false, false},
		{"untolerated NoSchedule: no new pod, the old one stays", node("n", nil, noSchedule), ds(nil), false, true},
		{"untolerated NoExecute: the pod goes", node("n", nil, noExecute), ds(nil), false, false},
		{"tolerated NoExecute", node("n", nil, noExecute), ds(func(s *api.PodSpec) {
			s.Tolerations = []api.Toleration{{Key: "dedicated", Operator: "Exists"}}
		}), true, true},
		{"not-ready and cordoned nodes are tolerated", node("n", nil, api.Taint{Key: "node.kubernetes.io/not-ready", Effect: api.TaintNoExecute},
			api.Taint{Key: "node.kubernetes.io/unschedulable", Effect: api.TaintNoSchedule}), ds(nil), true, true},
		{"control plane", node("cp", nil, api.Taint{Key: "node-role.kubernetes.io/control-plane", Effect: api.TaintNoSchedule}), ds(nil), false, true},
		{"required node affinity does not match", node("n", map[string]string{"zone": "a"}), ds(func(s *api.PodSpec) {
			s.Affinity = &api.Affinity{NodeAffinity: &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &api.NodeSelector{
				NodeSelectorTerms: []api.NodeSelectorTerm{{MatchExpressions: []api.NodeSelectorRequirement{{Key: "zone", Operator: "In", Values: []string{"b"}}}}}}}}
		}), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			run, cont := daemon.NodeShouldRunDaemonPod(tc.node, tc.ds)
			if run != tc.run || cont != tc.continueRunning {
				t.Errorf("(shouldRun, shouldContinueRunning) = (%v, %v), want (%v, %v)", run, cont, tc.run, tc.continueRunning)
			}
		})
	}
}

func scenario(strategy string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  updateStrategy: %s
  template:
    metadata: {labels: {app: agent}}
    spec:
      containers: [{name: agent, image: "agent:1", resources: {requests: {cpu: 1m, memory: 1Mi}}}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 2
  nodes: {count: 4}
  images:
    "agent:1": {pull: 1s, start: 1s, ready: 2s}
    "agent:2": {pull: 1s, start: 1s, ready: 2s}
`, strategy)
}

// setImage changes the DaemonSet's image as kubectl set image would.
func setImage(t *testing.T, e *engine.Engine, image string) {
	t.Helper()
	key := api.Key{Kind: api.KindDaemonSet, Namespace: "default", Name: "agent"}
	tk := e.Act(engine.KubectlActor, key, func(tick reconcile.Tick) error {
		o, _ := tick.LiveGet(key)
		ds := o.(*api.DaemonSet).DeepCopy()
		ds.Spec.Template.Spec.Containers[0].Image = image
		_, err := tick.Update(trace.Translate, ds, "set image")
		return err
	})
	if tk.Err() != "" {
		t.Fatal(tk.Err())
	}
}

// availableNodes counts, after every tick, the nodes running an
// available (ready, not deleting) agent pod, from the pods' versions in
// the trace: an oracle apart from the controller's status.
func availableNodes(e *engine.Engine, from int) (lowest int, images map[string]string) {
	type state struct {
		node  string
		up    bool
		image string
	}
	pods := map[string]state{}
	lowest = 1 << 30
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if eff.Object.Kind != api.KindPod {
				continue
			}
			if p, ok := eff.After.(*api.Pod); ok {
				pods[p.Name] = state{p.Spec.NodeName, api.IsPodReady(p) && p.DeletionTimestamp == nil, p.Spec.Containers[0].Image}
			} else {
				delete(pods, eff.Object.Name)
			}
		}
		if tk.Seq < from {
			continue
		}
		nodes := map[string]bool{}
		for _, s := range pods {
			if s.up {
				nodes[s.node] = true
			}
		}
		lowest = min(lowest, len(nodes))
	}
	images = map[string]string{}
	for _, s := range pods {
		images[s.node] = s.image
	}
	return lowest, images
}

func settle(t *testing.T, e *engine.Engine) {
	t.Helper()
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
}

// With maxSurge 1 and maxUnavailable 0, every node keeps an available
// pod throughout the update: the new pod starts beside the old one,
// which goes only once the new one is available.
func TestRollingUpdateWithSurgeKeepsEveryNode(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario("{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}")))
	settle(t, e)
	start := e.Tick()
	setImage(t, e, "agent:2")
	settle(t, e)
	lowest, images := availableNodes(e, start)
	if lowest != 4 {
		t.Errorf("at some tick only %d of 4 nodes had an available pod; surge keeps all 4", lowest)
	}
	for n, img := range images {
		if img != "agent:2" {
			t.Errorf("%s runs %s after the update", n, img)
		}
	}
}

// With maxUnavailable 2 of 4, at least 2 nodes keep an available pod.
func TestRollingUpdateWithinMaxUnavailable(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario("{type: RollingUpdate, rollingUpdate: {maxUnavailable: 2}}")))
	settle(t, e)
	start := e.Tick()
	setImage(t, e, "agent:2")
	settle(t, e)
	lowest, images := availableNodes(e, start)
	if lowest != 2 {
		t.Errorf("lowest %d nodes available during the update, want exactly 2 (maxUnavailable 2 of 4, used)", lowest)
	}
	if len(images) != 4 {
		t.Errorf("pods on %d nodes, want 4", len(images))
	}
}

// OnDelete: a template change replaces nothing until a pod is deleted;
// its replacement runs the new template, the others keep the old.
func TestOnDeleteWaitsForDeletion(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario("{type: OnDelete}")))
	settle(t, e)
	setImage(t, e, "agent:2")
	settle(t, e)
	pods := testkit.Pods(e, "default")
	for _, p := range pods {
		if p.Spec.Containers[0].Image != "agent:1" {
			t.Fatalf("OnDelete replaced %s without a deletion", p.Name)
		}
	}
	victim := pods[0]
	tk := e.Act(engine.KubectlActor, api.KeyOf(victim), func(tick reconcile.Tick) error {
		return tick.Delete(trace.Translate, api.KeyOf(victim), apiserver.DeleteOptions{}, "kubectl delete pod")
	})
	if tk.Err() != "" {
		t.Fatal(tk.Err())
	}
	settle(t, e)
	byImage := map[string]int{}
	for _, p := range testkit.Pods(e, "default") {
		byImage[p.Spec.Containers[0].Image]++
		if p.Spec.NodeName == victim.Spec.NodeName && p.Spec.Containers[0].Image != "agent:2" {
			t.Errorf("the replacement on %s runs %s", p.Spec.NodeName, p.Spec.Containers[0].Image)
		}
	}
	if byImage["agent:1"] != 3 || byImage["agent:2"] != 1 {
		t.Errorf("images %v, want 3 old and 1 new", byImage)
	}
}

// With surge, a deleted pod is replaced at once, beside the one still
// terminating (podsShouldBeOnNode: a node without a pod that is not
// going needs one); without surge, only once the old one is gone.
func TestSurgeReplacesADeletedPodAtOnce(t *testing.T) {
	for _, tc := range []struct {
		strategy string
		early    bool
	}{
		{"{type: RollingUpdate, rollingUpdate: {maxSurge: 1, maxUnavailable: 0}}", true},
		{"{type: RollingUpdate}", false},
	} {
		e, _ := testkit.Load(t, []byte(scenario(tc.strategy)))
		settle(t, e)
		victim := testkit.Pods(e, "default")[0]
		tk := e.Act(engine.KubectlActor, api.KeyOf(victim), func(tick reconcile.Tick) error {
			return tick.Delete(trace.Translate, api.KeyOf(victim), apiserver.DeleteOptions{}, "kubectl delete pod")
		})
		if tk.Err() != "" {
			t.Fatal(tk.Err())
		}
		settle(t, e)
		var gone, created int64
		for _, tk := range e.Trace() {
			for _, eff := range tk.Effects {
				if eff.Object.Name == victim.Name && eff.Op == trace.Delete && eff.After == nil {
					gone = tk.Time
				}
				if p, ok := eff.After.(*api.Pod); ok && eff.Op == trace.Create && p.Name != victim.Name && created == 0 && tk.Seq > e.FirstTick() && p.CreationTimestamp.MS > victim.CreationTimestamp.MS {
					created = tk.Time
				}
			}
		}
		if early := created < gone; early != tc.early || created == 0 {
			t.Errorf("%s: replacement created at %d ms, the old pod gone at %d ms; want the replacement first: %v", tc.strategy, created, gone, tc.early)
		}
	}
}

// A pod whose labels stop matching is released and replaced; the
// released pod keeps running, an orphan (ClaimPods).
func TestRelabelledPodIsReleasedAndReplaced(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario("{type: RollingUpdate}")))
	settle(t, e)
	victim := testkit.Pods(e, "default")[0]
	tk := e.Act(engine.KubectlActor, api.KeyOf(victim), func(tick reconcile.Tick) error {
		o, _ := tick.LiveGet(api.KeyOf(victim))
		p := o.(*api.Pod).DeepCopy()
		p.Labels = map[string]string{"app": "debug"}
		_, err := tick.Update(trace.Translate, p, "kubectl label pod app=debug --overwrite")
		return err
	})
	if tk.Err() != "" {
		t.Fatal(tk.Err())
	}
	settle(t, e)
	owned, orphans := 0, 0
	for _, p := range testkit.Pods(e, "default") {
		switch {
		case p.Name == victim.Name && p.ControllerRef() == nil:
			orphans++
		case p.ControllerRef() != nil && p.Spec.NodeName == victim.Spec.NodeName:
			owned++
		}
	}
	if orphans != 1 || owned != 1 {
		t.Errorf("on %s: %d released pods and %d owned, want the relabelled pod released and a new one owned", victim.Spec.NodeName, orphans, owned)
	}
}
