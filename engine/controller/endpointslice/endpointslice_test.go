package endpointslice_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

// scenario is a Deployment of n pods behind Service web; extra is
// appended to its Scenario document's spec.
func scenario(n int, extra string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, ports: [{name: http, containerPort: 8080}], resources: {requests: {cpu: 1m, memory: 1Mi}}}]
---
apiVersion: v1
kind: Service
metadata: {name: web, labels: {tier: front}}
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: http}]
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 3
  nodes: {count: 3, capacity: {cpu: "64", memory: 64Gi, pods: 250}}
%s`, n, extra)
}

func webSlices(e *engine.Engine) []*api.EndpointSlice {
	var out []*api.EndpointSlice
	for _, s := range testkit.List[*api.EndpointSlice](e, api.KindEndpointSlice, "default") {
		if s.Labels[api.LabelServiceName] == "web" {
			out = append(out, s)
		}
	}
	return out
}

func sizes(ss []*api.EndpointSlice) []int {
	var n []int
	for _, s := range ss {
		n = append(n, len(s.Endpoints))
	}
	slices.Sort(n)
	return n
}

// The worked numbers of docs/fidelity-workloads.md §1.8: 250 ready pods
// fill slices of 100, 100 and 50, each owned by the Service, labelled as
// upstream labels them, listing the named target port resolved.
func TestSlicesHoldAtMost100Endpoints(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(250, "")))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	ss := webSlices(e)
	if got := sizes(ss); !slices.Equal(got, []int{50, 100, 100}) {
		t.Fatalf("slice sizes %v, want [50 100 100]", got)
	}
	seen := map[string]bool{}
	for _, s := range ss {
		if ref := s.ControllerRef(); ref == nil || ref.Kind != "Service" || ref.Name != "web" {
			t.Errorf("%s: owner %+v", s.Name, s.OwnerReferences)
		}
		if !strings.HasPrefix(s.Name, "web-") || s.Labels["tier"] != "front" || s.Labels[api.LabelManagedBy] != api.ManagedByEndpointSlice {
			t.Errorf("%s: name or labels %v", s.Name, s.Labels)
		}
		if len(s.Ports) != 1 || *s.Ports[0].Port != 8080 || *s.Ports[0].Name != "http" || *s.Ports[0].Protocol != "TCP" {
			t.Errorf("%s: ports %+v", s.Name, s.Ports)
		}
		for _, ep := range s.Endpoints {
			if seen[ep.TargetRef.Name] {
				t.Errorf("pod %s listed twice", ep.TargetRef.Name)
			}
			seen[ep.TargetRef.Name] = true
			if !*ep.Conditions.Ready || !*ep.Conditions.Serving || *ep.Conditions.Terminating || ep.NodeName == nil {
				t.Errorf("%s: endpoint %+v", s.Name, ep)
			}
		}
	}
	if len(seen) != 250 {
		t.Errorf("%d pods listed, want 250", len(seen))
	}
}

// Scaled to zero, the Service keeps exactly one empty placeholder slice:
// the last slice is emptied in place, the others deleted.
func TestScaleToZeroLeavesOnePlaceholder(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(120, "  actions:\n    - at: 60s\n      kubectl: scale deployment/web --replicas=0\n")))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	ss := webSlices(e)
	if len(ss) != 1 || len(ss[0].Endpoints) != 0 || len(ss[0].Ports) != 0 {
		t.Fatalf("want one placeholder slice with no endpoints and no ports, got %d slices: %v", len(ss), sizes(ss))
	}
}

// A slice the controller wrote but has not seen yet makes the next sync
// fail with upstream's stale-cache error and retry after 1 s, the
// controller's own back-off: eventual consistency made visible.
func TestStaleSliceCacheRetries(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(3, "  latency: {endpointslice-controller: 2s}\n")))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	var failed []int64
	for _, tk := range e.Trace() {
		if tk.Component == engine.EndpointSliceController && strings.Contains(tk.Err(), "EndpointSlice informer cache is out of date") {
			failed = append(failed, tk.Time)
		}
	}
	if len(failed) == 0 {
		t.Fatal("with a 2 s watch latency the controller never met its own write in a stale cache")
	}
	if got := webSlices(e); len(got) != 1 || got[0].ReadyCount() != 3 {
		t.Errorf("the retries end with one slice of 3 ready endpoints, got %v", sizes(got))
	}
}

// A slice someone deletes by hand comes back: the controller forgets it
// and syncs the Service again a second later.
func TestDeletedSliceIsRecreated(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(3, "")))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	gone := webSlices(e)[0]
	if tk := e.Act(engine.KubectlActor, api.KeyOf(gone), func(tick reconcile.Tick) error {
		return tick.Delete(trace.Translate, api.KeyOf(gone), apiserver.DeleteOptions{}, "kubectl delete endpointslice")
	}); tk.Err() != "" {
		t.Fatal(tk.Err())
	}
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	if got := webSlices(e); len(got) != 1 || got[0].Name == gone.Name || got[0].ReadyCount() != 3 {
		t.Errorf("want a new slice of 3 ready endpoints in place of %s, got %v", gone.Name, sizes(got))
	}
}

// A preStop sleep keeps a deleted pod's container serving before SIGTERM:
// its endpoint stays in the slice as terminating (serving, not ready)
// for the sleep, the time kube-proxies have to stop sending it traffic.
func TestPreStopSleepKeepsTheEndpointServing(t *testing.T) {
	for _, tc := range []struct {
		hook           string
		atLeast, below int64
	}{
		{"", 0, 2_000},
		{"\n      lifecycle: {preStop: {sleep: {seconds: 5}}}", 5_000, 7_000},
		{"\n      lifecycle: {preStop: {exec: {command: [/bin/sh, -c, sleep 3]}}}", 3_000, 5_000},
	} {
		src := strings.Replace(scenario(1, ""), "resources: {requests: {cpu: 1m, memory: 1Mi}}}]", "resources: {requests: {cpu: 1m, memory: 1Mi}}"+strings.ReplaceAll(tc.hook, "\n      ", ", ")+"}]", 1)
		e, _ := testkit.Load(t, []byte(src))
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
		victim := testkit.Pods(e, "default")[0]
		if tk := e.Act(engine.KubectlActor, api.KeyOf(victim), func(tick reconcile.Tick) error {
			return tick.Delete(trace.Translate, api.KeyOf(victim), apiserver.DeleteOptions{}, "kubectl delete pod")
		}); tk.Err() != "" {
			t.Fatal(tk.Err())
		}
		start := e.Now()
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			t.Fatal(err)
		}
		var gone int64
		for _, tk := range e.Trace() {
			for _, eff := range tk.Effects {
				if eff.Object.Name == victim.Name && eff.Op == trace.Delete && eff.After == nil {
					gone = tk.Time - start
				}
			}
		}
		if gone < tc.atLeast || gone >= tc.below {
			t.Errorf("hook %q: the pod was gone %d ms after its deletion, want [%d, %d)", tc.hook, gone, tc.atLeast, tc.below)
		}
	}
}
