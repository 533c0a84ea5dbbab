package provenance_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/provenance"
)

// shape is a chain as a reader checks it by hand: per step, how many
// ticks it folds, the actor and the arrow of its class; "user" marks the
// user's action, "before" what existed before the first tick.
func shape(c *provenance.Chain) []string {
	var out []string
	for _, s := range c.Steps {
		switch {
		case s.Before:
			out = append(out, fmt.Sprintf("before %d %s", len(s.Objects), strings.SplitN(s.Objects[0], "/", 2)[0]))
		case s.User:
			out = append(out, fmt.Sprintf("user %d %s %s", len(s.Ticks), s.Component, s.Class.Symbol()))
		default:
			out = append(out, fmt.Sprintf("%d %s %s", len(s.Ticks), s.Component, s.Class.Symbol()))
		}
	}
	return out
}

// settled runs a scenario until it settles.
func settled(t *testing.T, e *engine.Engine) {
	t.Helper()
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
}

// taintedNodes is a cluster whose two nodes are tainted by kubectl before
// the Deployment asks for a pod: the pod fits no node.
const taintedNodes = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: example/web:v1}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
metadata: {name: tainted}
spec:
  nodes: {count: 2}
  images: {"example/web:v1": {pull: 1s, start: 1s}}
  actions:
    - {at: 1s, kubectl: taint nodes node-1 dedicated=gpu:NoSchedule}
    - {at: 1s, kubectl: taint nodes node-2 dedicated=gpu:NoSchedule}
    - {at: 5s, kubectl: scale deployment/web --replicas=1}
`

// The chains of the issue, checked by hand against the tick logs
// (stateflow run FILE): each step is one line of the story.
func TestWhyChains(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		object          func(e *engine.Engine) api.Key
		field           string
		value           string
		until           int64 // virtual ms to run to; 0 runs until settled
		want            []string
	}{{
		// The default example: three pods become ready, the ReplicaSet
		// counts them, the Deployment summarises its ReplicaSet.
		name: "default example availableReplicas", file: "../examples/codartium-api.yaml",
		object: key(api.KindDeployment, "codartium-team", "codartium-api"), field: "status.availableReplicas", value: "3",
		want: []string{
			"1 deployment-controller ↑", // summarised its ReplicaSets: 3 available
			"1 replicaset-controller ↑", // saw 3 of 3 pods (3 ready)
			"3 kubelet ●",               // readiness probes succeeded
			"3 kubelet ●",               // started api
			"3 kubelet ●",               // pulled; created container
			"3 kubelet ●",               // admitted; sandbox up
			"3 scheduler ⇣",             // bound to a node each
			"1 replicaset-controller ↓", // created 3 pods
			"1 deployment-controller ↓", // created the ReplicaSet
			"user 1 kubectl ↓",          // kubectl apply
		},
	}, {
		// A rolling update: the new ReplicaSet's fourth pod is counted
		// updated once the ReplicaSet reports it; the story goes back
		// through the ping-pong of scale-ups and scale-downs to set image.
		name: "rollout updatedReplicas", file: "../examples/rolling-update.yaml",
		object: key(api.KindDeployment, "demo", "web"), field: "status.updatedReplicas", value: "4",
		want: []string{
			"1 deployment-controller ↑", "1 replicaset-controller ↑", "1 replicaset-controller ↓",
			"1 deployment-controller ↓", "1 deployment-controller ↓", "2 replicaset-controller ↑",
			"1 replicaset-controller ↓", "1 deployment-controller ↓", "1 deployment-controller ↓",
			"1 replicaset-controller ↑", "1 kubelet ●", "1 kubelet ●", "1 kubelet ●", "1 scheduler ⇣",
			"1 replicaset-controller ↓", "1 deployment-controller ↓", "user 1 kubectl ↓",
		},
	}, {
		// FailedScheduling: the scheduler read both nodes, each tainted by
		// kubectl, and the pod the scale made.
		name: "FailedScheduling back to the taints", src: taintedNodes,
		object: firstPod("default"), field: "status.conditions[PodScheduled].reason", value: "Unschedulable", until: 10_000,
		want: []string{
			"1 scheduler ⇣",             // fits no node
			"1 replicaset-controller ↓", // created the pod
			"1 deployment-controller ↓", // scaled the ReplicaSet up
			"user 1 kubectl ↓",          // kubectl scale
			"user 2 kubectl ↓",          // kubectl taint, of each node
		},
	}, {
		// A PodDisruptionBudget allows a disruption again once the pod
		// that replaced the drained one is ready.
		name: "PDB disruptionsAllowed back to a pod's readiness", file: "../examples/pdb-drain.yaml",
		object: key(api.KindPodDisruptionBudget, "default", "web-pdb"), field: "status.disruptionsAllowed", value: "1",
		want: []string{
			"1 disruption-controller ↑", // 3 healthy: allows 1
			"1 kubelet ●",               // readiness probe succeeded
			"1 kubelet ●",               // started
			"1 kubelet ●",               // admitted
			"1 scheduler ⇣",             // bound
			"1 replicaset-controller ↓", // created the replacement
			"user 1 kubectl ↓",          // kubectl drain evicted its predecessor
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			var e *engine.Engine
			if tc.file != "" {
				e, _ = testkit.LoadFile(t, tc.file)
			} else {
				e, _ = testkit.Load(t, []byte(tc.src))
			}
			if tc.until > 0 {
				e.RunUntil(tc.until)
			} else {
				settled(t, e)
			}
			c, err := provenance.Why(e, provenance.Query{Object: tc.object(e), Field: tc.field, At: e.Tick()})
			if err != nil {
				t.Fatal(err)
			}
			if got := provenance.FormatValue(c.Value, c.Set); got != tc.value {
				t.Errorf("value = %s, want %s", got, tc.value)
			}
			if got := shape(c); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("chain:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"), c.Text())
			}
			if c.Steps[0].Change == nil || c.Steps[0].Change.Path != tc.field {
				t.Errorf("the first step does not show the field's change: %+v", c.Steps[0].Change)
			}
		})
	}
}

func key(kind, ns, name string) func(*engine.Engine) api.Key {
	return func(*engine.Engine) api.Key { return api.Key{Kind: kind, Namespace: ns, Name: name} }
}

func firstPod(ns string) func(*engine.Engine) api.Key {
	return func(e *engine.Engine) api.Key {
		pods := testkit.Pods(e, ns)
		if len(pods) == 0 {
			return api.Key{}
		}
		return api.KeyOf(pods[0])
	}
}

func TestWhyErrors(t *testing.T) {
	e, _ := testkit.LoadFile(t, "../examples/scale-up-down.yaml")
	settled(t, e)
	deploy := api.Key{Kind: api.KindDeployment, Namespace: "demo", Name: "web"}
	for _, tc := range []struct {
		name string
		q    provenance.Query
		want string
	}{
		{"tick past the end", provenance.Query{Object: deploy, Field: "spec.replicas", At: e.Tick() + 1}, "is not in the trace"},
		{"tick zero", provenance.Query{Object: deploy, Field: "spec.replicas", At: 0}, "is not in the trace"},
		{"no such object", provenance.Query{Object: api.Key{Kind: api.KindDeployment, Namespace: "demo", Name: "nope"}, Field: "spec.replicas", At: e.Tick()}, provenance.ErrNoWrites.Error()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := provenance.Why(e, tc.q)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	// A field never set: the chain says so, from the object's creation.
	c, err := provenance.Why(e, provenance.Query{Object: deploy, Field: "spec.paused", At: e.Tick()})
	if err != nil {
		t.Fatal(err)
	}
	if c.Set || len(c.Steps) == 0 || !c.Steps[len(c.Steps)-1].User {
		t.Errorf("spec.paused: set %v, steps %v", c.Set, shape(c))
	}
}

// The caption's question, "why did this tick do that?": the chain begins
// at the tick's first write, whatever it was (a create, or a deletion
// that leaves no object to ask a field of).
func TestWhyTick(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		// tick picks the tick asked about: the first that is by component
		// and does op to a kind.
		component, kind string
		op              trace.Op
		want            []string
	}{{
		name: "the ReplicaSet controller creates the pods", file: "../examples/codartium-api.yaml",
		component: "replicaset-controller", kind: api.KindPod, op: trace.Create,
		want: []string{"1 replicaset-controller ↓", "1 deployment-controller ↓", "user 1 kubectl ↓"},
	}, {
		name: "a scale-down deletes a pod", file: "../examples/scale-up-down.yaml",
		component: "replicaset-controller", kind: api.KindPod, op: trace.Delete,
		want: []string{"1 replicaset-controller ↓", "1 deployment-controller ↓", "user 1 kubectl ↓"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := testkit.LoadFile(t, tc.file)
			settled(t, e)
			n := 0
			for _, tk := range e.Trace() {
				if tk.Component == tc.component && len(tk.Effects) > 0 && tk.Effects[0].Object.Kind == tc.kind && tk.Effects[0].Op == tc.op {
					n = tk.Seq
					break
				}
			}
			if n == 0 {
				t.Fatalf("no tick where %s does %v to a %s", tc.component, tc.op, tc.kind)
			}
			c, err := provenance.WhyTick(e, n)
			if err != nil {
				t.Fatal(err)
			}
			if got := shape(c); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("chain:\n%s\nwant:\n%s\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"), c.Text())
			}
			if c.Steps[0].Ticks[0] != n || c.Field != "" || !strings.Contains(c.Text(), fmt.Sprintf("what tick %d wrote", n)) {
				t.Errorf("the chain does not begin at tick %d:\n%s", n, c.Text())
			}
		})
	}
}

// Every tick of an example answers, or says it wrote nothing; every
// answer begins at the tick, and each later step wrote what a step
// nearer the question read.
func TestWhyTickEveryTick(t *testing.T) {
	e, _ := testkit.LoadFile(t, "../examples/rolling-update.yaml")
	settled(t, e)
	tick := func(n int) *trace.Tick { return e.Trace()[n-e.FirstTick()-1] }
	answered := 0
	for _, tk := range e.Trace() {
		writes := false
		for _, ef := range tk.Effects {
			writes = writes || ef.Class != trace.Event
		}
		c, err := provenance.WhyTick(e, tk.Seq)
		if !writes {
			if !errors.Is(err, provenance.ErrNoWrites) {
				t.Errorf("#%d wrote nothing: err = %v", tk.Seq, err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("#%d: %v", tk.Seq, err)
		}
		answered++
		if c.Steps[0].Ticks[0] != tk.Seq {
			t.Errorf("#%d: the chain begins at %v", tk.Seq, c.Steps[0].Ticks)
		}
		for _, s := range c.Steps[1:] {
			for _, n := range s.Ticks {
				if n >= tk.Seq || s.Depth > 0 && !readByNearer(c, tick, s.Depth-1, tick(n)) {
					t.Errorf("#%d: step #%d (depth %d) is not a cause read before it\n%s", tk.Seq, n, s.Depth, c.Text())
				}
			}
		}
	}
	if answered < 50 {
		t.Fatalf("only %d ticks answered", answered)
	}
	if _, err := provenance.WhyTick(e, e.Tick()+1); err == nil {
		t.Error("a tick past the end answered")
	}
}
