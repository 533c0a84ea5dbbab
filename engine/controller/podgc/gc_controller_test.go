package podgc_test

import (
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

const scenario = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 4
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  nodes: {count: 2}
  actions:
    - {at: 30s, kubectl: delete node node-2}
`

// kubectl delete node: the pods bound to node-2 stay until the pod
// garbage collector's sweep 40 s after the one that first saw the node
// gone (sweeps every 20 s: 40 s, then 80 s); then each is marked Failed
// with DisruptionTarget DeletionByPodGC and force deleted, and the
// ReplicaSet replaces them on node-1. Pods of node-1 are never touched.
func TestOrphanedPodsDeletedAfterQuarantine(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	onNode2 := map[string]bool{}
	deleted := 0
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if p, ok := eff.After.(*api.Pod); ok && p.Spec.NodeName == "node-2" {
				onNode2[p.Name] = true
			}
			if tk.Component != engine.PodGarbageCollector {
				continue
			}
			if tk.Time != 80_000 {
				t.Errorf("tick %d: the pod garbage collector wrote at %s, want 80s (the sweep after the 40 s quarantine that began at the 40s sweep)", tk.Seq, trace.FormatTime(tk.Time))
			}
			switch p := eff.After.(type) {
			case *api.Pod:
				c := p.Status.Condition(api.DisruptionTarget)
				if p.Status.Phase != api.PodFailed || c == nil || c.Reason != "DeletionByPodGC" || c.Message != "PodGC: node no longer exists" || p.Spec.NodeName != "node-2" {
					t.Errorf("tick %d: pod %s marked %s, %+v", tk.Seq, p.Name, p.Status.Phase, c)
				}
			case nil:
				if eff.Op == trace.Delete {
					deleted++
					if !onNode2[eff.Object.Name] {
						t.Errorf("tick %d: deleted %s, which was not on node-2", tk.Seq, eff.Object.Name)
					}
				}
			}
		}
	}
	if deleted == 0 || deleted != len(onNode2) {
		t.Errorf("%d pods force deleted, want the %d that were on node-2", deleted, len(onNode2))
	}
	pods := testkit.Pods(e, "default")
	if len(pods) != 4 {
		t.Fatalf("%d pods at the end, want 4", len(pods))
	}
	for _, p := range pods {
		if p.Spec.NodeName != "node-1" || p.Status.Phase != api.PodRunning {
			t.Errorf("pod %s on %q is %s, want Running on node-1", p.Name, p.Spec.NodeName, p.Status.Phase)
		}
	}
}
