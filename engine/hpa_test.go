package engine_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// The worked examples of docs/fidelity-workloads.md §6.8 and the stories of
// the HPA examples, read from the trace and the API server.

// hpaSetup is the scenario the HPA tests build on: Deployment web
// (Replicas pods requesting 500m of CPU) under an HPA (Min–Max, cpu at
// Target %, Behavior as given), with the CPU load Load on web.
type hpaSetup struct {
	Replicas, Min, Max, Target int
	Behavior, Load             string
	// Scenario is the rest of the Scenario's spec (nodes, seed, images).
	Scenario string
}

func (o hpaSetup) source() string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, resources: {requests: {cpu: 500m}}}]
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: %d
  maxReplicas: %d
  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: %d}}}]
%s---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
%s  load:
    - workload: deployment/web
      cpu: %s
`, o.Replicas, o.Min, o.Max, o.Target, o.Behavior, o.Scenario, o.Load)
}

// hpaWorld is hpaSetup with the §6.8 HPA (1–10, cpu 50 %) on 4 nodes.
func hpaWorld(t *testing.T, replicas int, behavior, load string) (*engine.Engine, *kubectl.Session) {
	t.Helper()
	src := hpaSetup{Replicas: replicas, Min: 1, Max: 10, Target: 50, Behavior: behavior, Load: load, Scenario: "  nodes: {count: 4}\n"}.source()
	e, sc := testkit.Load(t, []byte(src))
	return e, &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
}

// rescales lists the SuccessfulRescale messages with their times.
func rescales(e *engine.Engine) []string {
	var out []string
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if ev, ok := api.EventOf(eff.After); ok && ev.Reason == "SuccessfulRescale" && eff.Op == trace.Create {
				out = append(out, fmt.Sprintf("%s@%s", ev.Message, trace.FormatTime(tk.Time)))
			}
		}
	}
	return out
}

func getHPA(t *testing.T, e *engine.Engine) *api.HorizontalPodAutoscaler {
	t.Helper()
	o, ok := e.Store().Get(api.Key{Kind: api.KindHorizontalPodAutoscaler, Namespace: "default", Name: "web"})
	if !ok {
		t.Fatal("no hpa/web")
	}
	return o.(*api.HorizontalPodAutoscaler)
}

func condition(h *api.HorizontalPodAutoscaler, c string) string {
	if x := h.Condition(c); x != nil {
		return x.Status + " " + x.Reason
	}
	return ""
}

// §6.8: 4 pods at 450m of 500m: utilization 90, ratio 1.8, ceil(7.2) = 8,
// which the scale-up limit (max(2 × 4, 4) = 8) allows: DesiredWithinRange
// and "New size: 8; reason: cpu resource utilization (percentage of
// request) above target"; REPLICAS reads 4 until the next sync.
func TestHPAWorkedScaleUp(t *testing.T) {
	e, k := hpaWorld(t, 4, "", "[{at: 0s, perPod: 450m}]")
	e.RunUntil(36_000)
	got := rescales(e)
	if len(got) != 1 || !strings.HasPrefix(got[0], "New size: 8; reason: cpu resource utilization (percentage of request) above target@") {
		t.Fatalf("rescales %v", got)
	}
	h := getHPA(t, e)
	m := h.Status.CurrentMetrics[0].Resource.Current
	if h.Status.CurrentReplicas != 4 || h.Status.DesiredReplicas != 8 || *m.AverageUtilization != 90 || m.AverageValue.String() != "450m" {
		t.Errorf("status %+v, metric %d%% %s", h.Status, *m.AverageUtilization, m.AverageValue)
	}
	if got := condition(h, api.HPAScalingLimited); got != "False DesiredWithinRange" {
		t.Errorf("ScalingLimited %s", got)
	}
	if got := condition(h, api.HPAAbleToScale) + " / " + condition(h, api.HPAScalingActive); got != "True SucceededRescale / True ValidMetricFound" {
		t.Errorf("conditions %s", got)
	}
	if got := kubectlLine(t, k, "hpa web"); !strings.HasPrefix(got, "web Deployment/web cpu: 90%/50% 1 10 4 ") {
		t.Errorf("kubectl: %q", got)
	}
}

// §6.8: 52 % is within the 0.1 tolerance of 50 %: no rescale.
func TestHPAWorkedTolerance(t *testing.T) {
	e, _ := hpaWorld(t, 4, "", "[{at: 0s, perPod: 260m}]")
	e.RunUntil(120_000)
	if got := rescales(e); len(got) != 0 {
		t.Errorf("rescales %v at 52 %%", got)
	}
}

// §6.8: 8 pods at 20 %: the raw proposal is 4, but 8 was recommended in
// the last 5 minutes, so 8 stays (ScaleDownStabilized) until about 300 s
// after the last high value; then "New size: 4; reason: All metrics
// below target".
func TestHPAWorkedScaleDownStabilized(t *testing.T) {
	e, _ := hpaWorld(t, 8, "", "[{at: 0s, perPod: 250m}, {at: 2m, perPod: 100m}]")
	e.RunUntil(200_000)
	if got := condition(getHPA(t, e), api.HPAAbleToScale); got != "True ScaleDownStabilized" || len(rescales(e)) != 0 {
		t.Fatalf("at 200s: AbleToScale %s, rescales %v", got, rescales(e))
	}
	e.RunUntil(480_000)
	got := rescales(e)
	if len(got) != 1 || !strings.HasPrefix(got[0], "New size: 4; reason: All metrics below target@") {
		t.Fatalf("rescales %v", got)
	}
	// The load drops at 2m: the sync at 1m45.1s was the last to see 50 %
	// and recommend 8; 5 minutes later that sample leaves the window (a
	// sample exactly one window old is out of it, as upstream, whose
	// time.Now() is read after the sync began).
	if down := rescaleTime(e, 0); down != 405_100 {
		t.Errorf("scaled down at %s, want 6m45.1s (1m45.1s + 5m)", trace.FormatTime(down))
	}
}

func rescaleTime(e *engine.Engine, i int) int64 {
	n := 0
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if ev, ok := api.EventOf(eff.After); ok && ev.Reason == "SuccessfulRescale" && eff.Op == trace.Create {
				if n == i {
					return tk.Time
				}
				n++
			}
		}
	}
	return -1
}

// §6.8: with behavior: {} and a raw proposal of 20 from 4, the default
// scale-up policies allow max(4 + 4, ceil(4 × 2)) = 8 (ScaleUpLimit); at
// the next sync the event is no longer newer than 15 s, so the limit is
// 16, more than the maximum: 10 (TooManyReplicas).
func TestHPAWorkedBehaviorLimits(t *testing.T) {
	e, _ := hpaWorld(t, 4, "  behavior: {}\n", "[{at: 0s, perPod: 1250m}]")
	e.RunUntil(36_000)
	if got := rescales(e); len(got) != 1 || !strings.HasPrefix(got[0], "New size: 8;") || condition(getHPA(t, e), api.HPAScalingLimited) != "True ScaleUpLimit" {
		t.Fatalf("first: %v, ScalingLimited %s", got, condition(getHPA(t, e), api.HPAScalingLimited))
	}
	e.RunUntil(51_000)
	if got := rescales(e); len(got) != 2 || !strings.HasPrefix(got[1], "New size: 10;") || condition(getHPA(t, e), api.HPAScalingLimited) != "True TooManyReplicas" {
		t.Errorf("second: %v, ScalingLimited %s", got, condition(getHPA(t, e), api.HPAScalingLimited))
	}
	h := getHPA(t, e)
	if b := h.Spec.Behavior; b == nil || *b.ScaleUp.StabilizationWindowSeconds != 0 || len(b.ScaleUp.Policies) != 2 || b.ScaleDown.StabilizationWindowSeconds != nil {
		t.Errorf("defaulted behavior %+v", b)
	}
}

// checkHPALoadSpike: up 2 → 4 → 8 → 10 in three syncs, never past 10 or
// under 2; down to 2 at once only after the 5-minute window past the
// last high recommendation (about 11m).
func checkHPALoadSpike(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	got := rescales(e)
	want := []string{"New size: 4; reason: cpu resource utilization (percentage of request) above target", "New size: 8; reason: cpu resource utilization (percentage of request) above target", "New size: 10; reason: ", "New size: 2; reason: All metrics below target"}
	if len(got) != len(want) {
		t.Fatalf("rescales %v", got)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]+"@") {
			t.Errorf("rescale %d: %s, want %s", i, got[i], want[i])
		}
	}
	if down := rescaleTime(e, 3); down < 645_000 || down > 675_000 {
		t.Errorf("scaled down at %s, want about 11m (the last high recommendation at 5m45s + 5m)", trace.FormatTime(down))
	}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if d, ok := eff.After.(*api.Deployment); ok && (d.Replicas() < 2 || d.Replicas() > 10) {
				t.Errorf("tick %d: deploy/web wants %d replicas, outside [2, 10]", tk.Seq, d.Replicas())
			}
		}
	}
}

// checkHPANotReady: one rescale, 3 → 5; before node-2 joins, the HPA
// says 5 current and 5 desired while 3 pods run Ready and 2 are Pending;
// then 5 Ready at 48 %.
func checkHPANotReady(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	if got := rescales(e); len(got) != 1 || !strings.HasPrefix(got[0], "New size: 5; reason: cpu resource utilization (percentage of request) above target@") {
		t.Fatalf("rescales %v", got)
	}
	pods := map[string]*api.Pod{}
	var hpa *api.HorizontalPodAutoscaler
	for _, tk := range e.Trace() {
		if tk.Time >= 120_000 {
			break
		}
		for _, eff := range tk.Effects {
			switch o := eff.After.(type) {
			case *api.Pod:
				pods[o.Name] = o
			case *api.HorizontalPodAutoscaler:
				hpa = o
			}
		}
	}
	ready, pending := 0, 0
	for _, p := range pods {
		switch {
		case api.IsPodReady(p):
			ready++
		case p.Spec.NodeName == "":
			pending++
		}
	}
	if hpa == nil {
		t.Fatal("no HPA status written before 2m")
	}
	if hpa.Status.CurrentReplicas != 5 || hpa.Status.DesiredReplicas != 5 || ready != 3 || pending != 2 {
		t.Errorf("before node-2 joins: hpa %+v, %d Ready, %d Pending; want 5 current, 5 desired, 3 Ready, 2 Pending", hpa.Status, ready, pending)
	}
	h := getHPA(t, e)
	if m := h.Status.CurrentMetrics[0].Resource.Current; h.Status.CurrentReplicas != 5 || h.Status.DesiredReplicas != 5 || *m.AverageUtilization != 48 {
		t.Errorf("status at the end %+v, utilization %d", h.Status, *m.AverageUtilization)
	}
	ready = 0
	for _, p := range testkit.Pods(e, "default") {
		if api.IsPodReady(p) {
			ready++
		}
	}
	if ready != 5 {
		t.Errorf("%d pods Ready at the end, want 5", ready)
	}
}
