package conformance

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// hpaCase is a workload web (a Deployment unless kind says otherwise)
// whose pods request 500m of CPU and 64Mi of memory, an autoscaler web
// on it with the given spec lines (after scaleTargetRef, indented two
// spaces), the load on web (lines under the load entry, indented six),
// and the scenario's nodes and actions.
type hpaCase struct {
	name     string
	kind     string // Deployment, StatefulSet or ReplicaSet
	replicas int
	target   string // scaleTargetRef's name (default web)
	ref      string // the whole scaleTargetRef, if given
	hpa      string
	load     string
	nodes    string // the nodes line (default three nodes)
	image    string // the image's line (default pull 2s, start 1s, ready 2s)
	// sidecar adds a container without requests to web's pods.
	sidecar bool
	// extra are more documents (each ending in "---\n").
	extra   string
	actions string
}

// cpuTarget is an HPA of 1–10 pods keeping their CPU at 50 % of their
// request.
const cpuTarget = "  minReplicas: 1\n  maxReplicas: 10\n  metrics: [{type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}}]\n"

func (c hpaCase) scenario() string {
	kind, target, nodes, image := c.kind, c.target, c.nodes, c.image
	if kind == "" {
		kind = "Deployment"
	}
	if target == "" {
		target = "web"
	}
	if nodes == "" {
		nodes = "{count: 3}"
	}
	if image == "" {
		image = "{pull: 2s, start: 1s, ready: 2s}"
	}
	ref := c.ref
	if ref == "" {
		ref = fmt.Sprintf("{apiVersion: apps/v1, kind: %s, name: %s}", kind, target)
	}
	actions := c.actions
	if actions == "" {
		actions = "    []\n"
	}
	serviceName, sidecar := "", ""
	if kind == "StatefulSet" {
		serviceName = "  serviceName: web\n"
	}
	if c.sidecar {
		sidecar = "        - {name: proxy, image: example/proxy:v1}\n"
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: %s
metadata: {name: web}
spec:
  replicas: %d
%s  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - {name: web, image: example/web:v1, resources: {requests: {cpu: 500m, memory: 64Mi}}}
%s---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: %s
%s---
%sapiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 4
  nodes: %s
  images:
    "example/web:v1": %s
    "example/proxy:v1": {pull: 1s, start: 1s}
  load:
    - workload: %s/web
%s  actions:
%s`, kind, c.replicas, serviceName, sidecar, ref, c.hpa, c.extra, nodes, image, strings.ToLower(kind), c.load, actions)
}

// HPA scenarios: every horizontal-pod-autoscaler tick agrees with
// upstream's reconcileKey, with the recommendations and scale events it
// keeps, or differs only as allowances.go allows.
func TestHPAs(t *testing.T) {
	cpu := func(steps ...string) string {
		return "      cpu:\n" + strings.Join(steps, "")
	}
	step := func(at, what string) string { return fmt.Sprintf("        - {at: %s, %s}\n", at, what) }
	behavior := func(lines string) string { return cpuTarget + "  behavior:\n" + lines }
	for _, tc := range []hpaCase{{
		// docs/fidelity-workloads.md §6.8: 4 pods at 450m of a 500m
		// request, 90 % against 50 %: ceil(1.8 × 4) = 8.
		name: "worked-scale-up", replicas: 4, hpa: cpuTarget,
		load: cpu(step("0s", "perPod: 450m")),
	}, {
		// 52 %: a ratio of 1.04, within the tolerance.
		name: "worked-tolerance", replicas: 4, hpa: cpuTarget,
		load: cpu(step("0s", "perPod: 260m")),
	}, {
		// 20 % at 8 pods: the metrics ask for 4, the 5-minute window
		// keeps 8 (ScaleDownStabilized), then 4.
		name: "worked-stabilized", replicas: 8, hpa: cpuTarget,
		load: cpu(step("0s", "perPod: 250m"), step("2m", "perPod: 100m")),
	}, {
		// behavior: {} and a raw 20 from 4: ScaleUpLimit at 8, then
		// TooManyReplicas at 10.
		name: "worked-behavior-limits", replicas: 4, hpa: behavior("    {}\n"),
		load: cpu(step("0s", "perPod: 1250m")),
	}, {
		// 1 of 4 Pending (room for 3), 80 % over the 3: the Pending pod
		// counts as idle, 1.6 × 3/4 = 1.2, ceil(1.2 × 4) = 5.
		name: "worked-pending", replicas: 4, hpa: cpuTarget,
		nodes: `{count: 1, capacity: {cpu: 1600m, memory: 8Gi, pods: "110"}}`,
		load:  cpu(step("0s", "perPod: 400m")),
	}, {
		// Pods and Percent policies, the biggest change (Max), a
		// scale-down window of 60 s and one pod per 30 s down.
		name: "behavior-max", replicas: 2,
		hpa: behavior("    scaleUp: {selectPolicy: Max, policies: [{type: Pods, value: 2, periodSeconds: 30}, {type: Percent, value: 50, periodSeconds: 60}]}\n" +
			"    scaleDown: {stabilizationWindowSeconds: 60, policies: [{type: Pods, value: 1, periodSeconds: 30}]}\n"),
		load: cpu(step("0s", "total: 4"), step("5m", "total: 500m")),
	}, {
		// The smallest change (Min) both ways.
		name: "behavior-min", replicas: 3,
		hpa: behavior("    scaleUp: {selectPolicy: Min, policies: [{type: Pods, value: 4, periodSeconds: 60}, {type: Percent, value: 100, periodSeconds: 15}]}\n" +
			"    scaleDown: {selectPolicy: Min, stabilizationWindowSeconds: 0, policies: [{type: Pods, value: 3, periodSeconds: 60}, {type: Percent, value: 10, periodSeconds: 30}]}\n"),
		load: cpu(step("0s", "total: 5"), step("4m", "total: 200m")),
	}, {
		// Scale-down disabled: it only ever grows.
		name: "behavior-disabled", replicas: 2,
		hpa:  behavior("    scaleDown: {selectPolicy: Disabled}\n"),
		load: cpu(step("0s", "total: 2"), step("3m", "total: 100m")),
	}, {
		// A scale-up window: a spike shorter than it moves nothing, a
		// longer one does; no scale-down window.
		name: "behavior-up-window", replicas: 2,
		hpa:  behavior("    scaleUp: {stabilizationWindowSeconds: 60}\n    scaleDown: {stabilizationWindowSeconds: 0}\n"),
		load: cpu(step("0s", "total: 400m"), step("1m", "total: 2"), step("1m30s", "total: 400m"), step("3m", "total: 3"), step("6m", "total: 300m")),
	}, {
		// A load that flaps every 45 s under the default window.
		name: "flapping", replicas: 2, hpa: cpuTarget,
		load: cpu(step("0s", "total: 500m"), step("45s", "total: 2"), step("1m30s", "total: 500m"), step("2m15s", "total: 2"), step("3m", "total: 500m")),
	}, {
		// Memory against an average value: 150Mi each against 100Mi.
		name: "memory-average-value", replicas: 2,
		hpa:  "  maxReplicas: 8\n  metrics: [{type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: 100Mi}}}]\n",
		load: "      memory:\n" + step("0s", "perPod: 150Mi") + step("4m", "total: 200Mi"),
	}, {
		// Memory against its request and CPU together: the larger
		// proposal wins.
		name: "memory-and-cpu", replicas: 3,
		hpa: "  maxReplicas: 12\n  metrics:\n    - {type: Resource, resource: {name: memory, target: {type: Utilization, averageUtilization: 80}}}\n" +
			"    - {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}}\n",
		load: cpu(step("0s", "perPod: 200m"), step("3m", "total: 3")) + "      memory:\n" + step("0s", "total: 300Mi"),
	}, {
		// More replicas than the maximum: down to it without metrics.
		name: "above-max", replicas: 12, hpa: cpuTarget,
		load: cpu(step("0s", "perPod: 100m")),
	}, {
		// Fewer than the minimum: up to it.
		name: "below-min", replicas: 1, hpa: strings.Replace(cpuTarget, "minReplicas: 1", "minReplicas: 3", 1),
		load: cpu(step("0s", "perPod: 100m")),
	}, {
		// Zero replicas: scaling disabled until the workload is scaled.
		name: "zero-replicas", replicas: 0, hpa: cpuTarget,
		load:    cpu(step("0s", "perPod: 400m")),
		actions: at("2m", "scale deployment/web --replicas=2"),
	}, {
		// Pods that take 40 s to be Ready and burn CPU meanwhile: within
		// their CPU initialization period their samples do not count.
		name: "cpu-initialization", replicas: 2, hpa: cpuTarget,
		image:   "{pull: 2s, start: 1s, ready: 40s}",
		load:    "      idle: 900m\n" + cpu(step("0s", "total: 1500m"), step("8m", "total: 4")),
		actions: "    - {at: 3m, kill-pod: app=web}\n",
	}, {
		// Pods without metrics: scaled while the new pods have none yet,
		// and a node lost under some.
		name: "missing-metrics", replicas: 3, hpa: cpuTarget,
		load:    cpu(step("0s", "total: 3"), step("4m", "total: 600m")),
		actions: "    - {at: 1m, node: node-1, condition: NotReady}\n    - {at: 5m, node: node-1, condition: Ready}\n",
	}, {
		// The target does not exist: FailedGetScale, until the
		// autoscaler is pointed at web.
		name: "missing-target", replicas: 2, target: "ghost", hpa: cpuTarget,
		load:    cpu(step("0s", "perPod: 400m")),
		actions: at("2m", `patch hpa web -p '{"spec":{"scaleTargetRef":{"name":"web"}}}'`),
	}, {
		// References the RESTMapper or the scale subresource refuse: a
		// DaemonSet (no scale subresource), a kind no group serves, a
		// Deployment in the core group, an apiVersion that does not
		// parse; and a kind in lower case, which the discovery mapper
		// knows.
		name: "no-scale-subresource", replicas: 2, hpa: cpuTarget, ref: "{apiVersion: apps/v1, kind: DaemonSet, name: web}",
		load: cpu(step("0s", "perPod: 400m")),
	}, {
		name: "unknown-kind", replicas: 2, hpa: cpuTarget, ref: "{apiVersion: apps/v1, kind: Rollout, name: web}",
		load: cpu(step("0s", "perPod: 400m")),
	}, {
		name: "wrong-group", replicas: 2, hpa: cpuTarget, ref: "{apiVersion: v1, kind: Deployment, name: web}",
		load: cpu(step("0s", "perPod: 400m")),
	}, {
		name: "bad-api-version", replicas: 2, hpa: cpuTarget, ref: "{apiVersion: apps/v1/beta, kind: Deployment, name: web}",
		load: cpu(step("0s", "perPod: 400m")),
	}, {
		name: "lower-case-kind", replicas: 2, hpa: cpuTarget, ref: "{apiVersion: apps/v1, kind: deployment, name: web}",
		load: cpu(step("0s", "perPod: 400m")),
	}, {
		// A container without a CPU request: FailedGetResourceMetric.
		name: "missing-request", replicas: 2, hpa: cpuTarget, sidecar: true,
		load: cpu(step("0s", "perPod: 400m")),
	}, {
		// A second autoscaler on web: both find its pods controlled by
		// two (AmbiguousSelector) until the second goes; then one made
		// by kubectl autoscale.
		name: "ambiguous-selector", replicas: 2, hpa: cpuTarget,
		extra: "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: again}\nspec:\n" +
			"  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n" + cpuTarget + "---\n",
		load: cpu(step("0s", "perPod: 400m")),
		actions: at("2m", "delete hpa again") + at("4m", "autoscale deployment web --name=third --max=6 --cpu-percent=70") +
			at("6m", "delete hpa third"),
	}, {
		name: "statefulset", kind: "StatefulSet", replicas: 2, hpa: cpuTarget,
		load: cpu(step("0s", "total: 2"), step("6m", "total: 300m")),
	}, {
		name: "replicaset", kind: "ReplicaSet", replicas: 2, hpa: cpuTarget,
		load: cpu(step("0s", "total: 2"), step("6m", "total: 300m")),
	}, {
		// The autoscaler patched 50 ms before a sync that rescales: its
		// cache has not seen the patch, so its status write conflicts
		// (FailedUpdateStatus) after the scale was written.
		name: "status-conflict", replicas: 2, hpa: cpuTarget,
		load:    cpu(step("0s", "perPod: 400m")),
		actions: at("30050ms", `patch hpa web -p '{"spec":{"maxReplicas":9}}'`),
	}, {
		// The bounds changed mid-run, then the autoscaler deleted.
		name: "patched-and-deleted", replicas: 3, hpa: cpuTarget,
		load: cpu(step("0s", "total: 3")),
		actions: at("2m", `patch hpa web -p '{"spec":{"maxReplicas":4}}'`) + at("4m", `patch hpa web -p '{"spec":{"minReplicas":6,"maxReplicas":8}}'`) +
			at("7m", "delete hpa web"),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.scenario()
			rep := run(t, []byte(src), 15*60_000)
			if len(rep.Unexplained()) > 0 {
				t.Logf("scenario:\n%s", src)
			}
			reportFor(t, rep, "horizontal-pod-autoscaler")
		})
	}
}

// randomHPAScenario is a generated autoscaler on a generated workload:
// a Deployment, StatefulSet or ReplicaSet of 0 to 6 pods; bounds;
// CPU and memory targets (utilization or average value); a behavior or
// none (windows, Pods and Percent policies, Max, Min or Disabled); a
// load of up to five steps in its first ten minutes; and kills, scales,
// node faults and changes of the autoscaler.
func randomHPAScenario(rng *rand.Rand) hpaCase {
	c := hpaCase{name: "random", replicas: rng.IntN(7)}
	c.kind = []string{"Deployment", "Deployment", "StatefulSet", "ReplicaSet"}[rng.IntN(4)]
	var b strings.Builder
	line := func(f string, args ...any) { fmt.Fprintf(&b, "  "+f+"\n", args...) }
	minR := 1 + rng.IntN(3)
	if rng.IntN(4) > 0 {
		line("minReplicas: %d", minR)
	} else {
		minR = 1
	}
	line("maxReplicas: %d", minR+rng.IntN(10))
	b.WriteString("  metrics:\n")
	metrics := 0
	if rng.IntN(4) > 0 {
		fmt.Fprintf(&b, "    - {type: Resource, resource: {name: cpu, target: {type: Utilization, averageUtilization: %d}}}\n", 20+rng.IntN(80))
		metrics++
	}
	if metrics == 0 || rng.IntN(3) == 0 {
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "    - {type: Resource, resource: {name: memory, target: {type: AverageValue, averageValue: %dMi}}}\n", 40+rng.IntN(120))
		} else {
			fmt.Fprintf(&b, "    - {type: Resource, resource: {name: memory, target: {type: Utilization, averageUtilization: %d}}}\n", 50+rng.IntN(100))
		}
	}
	if rng.IntN(3) > 0 {
		b.WriteString("  behavior:\n")
		rules := 0
		for _, dir := range []string{"scaleUp", "scaleDown"} {
			if rng.IntN(3) == 0 {
				continue
			}
			rules++
			var parts []string
			if rng.IntN(2) == 0 {
				parts = append(parts, fmt.Sprintf("stabilizationWindowSeconds: %d", []int{0, 15, 30, 60, 120, 300}[rng.IntN(6)]))
			}
			if rng.IntN(2) == 0 {
				parts = append(parts, "selectPolicy: "+[]string{"Max", "Min", "Disabled"}[rng.IntN(3)])
			}
			if rng.IntN(3) > 0 {
				var policies []string
				for range 1 + rng.IntN(2) {
					typ, value := "Pods", 1+rng.IntN(4)
					if rng.IntN(2) == 0 {
						typ, value = "Percent", []int{10, 25, 50, 100, 200}[rng.IntN(5)]
					}
					policies = append(policies, fmt.Sprintf("{type: %s, value: %d, periodSeconds: %d}", typ, value, []int{15, 30, 45, 60, 120}[rng.IntN(5)]))
				}
				parts = append(parts, "policies: ["+strings.Join(policies, ", ")+"]")
			}
			fmt.Fprintf(&b, "    %s: {%s}\n", dir, strings.Join(parts, ", "))
		}
		if rules == 0 {
			b.WriteString("    {}\n")
		}
	}
	c.hpa = b.String()
	curve := func(unit string, scale int) string {
		var s strings.Builder
		when := 0
		for range 1 + rng.IntN(5) {
			if rng.IntN(2) == 0 {
				fmt.Fprintf(&s, "        - {at: %dms, perPod: %d%s}\n", when, 1+rng.IntN(scale), unit)
			} else {
				fmt.Fprintf(&s, "        - {at: %dms, total: %d%s}\n", when, rng.IntN(6*scale), unit)
			}
			when += 15_000 + rng.IntN(180_000)
		}
		return s.String()
	}
	c.load = "      cpu:\n" + curve("m", 800)
	if rng.IntN(2) == 0 {
		c.load += "      memory:\n" + curve("Mi", 150)
	}
	if rng.IntN(4) == 0 {
		c.load += fmt.Sprintf("      idle: %dm\n", rng.IntN(600))
	}
	if rng.IntN(4) == 0 {
		c.image = fmt.Sprintf("{pull: 2s, start: 1s, ready: %ds}", rng.IntN(60))
	}
	if rng.IntN(4) == 0 {
		c.nodes = fmt.Sprintf(`{count: %d, capacity: {cpu: "%d", memory: 8Gi, pods: "110"}}`, 1+rng.IntN(3), 1+rng.IntN(3))
	}
	var actions strings.Builder
	kind := strings.ToLower(c.kind)
	for range rng.IntN(5) {
		when := fmt.Sprintf("%dms", 10_000+rng.IntN(590_000))
		switch rng.IntN(6) {
		case 0:
			fmt.Fprintf(&actions, "    - {at: %s, kill-pod: app=web}\n", when)
		case 1:
			actions.WriteString(at(when, fmt.Sprintf("scale %s/web --replicas=%d", kind, rng.IntN(8))))
		case 2:
			fmt.Fprintf(&actions, "    - {at: %s, node: node-1, condition: %s}\n", when, []string{"NotReady", "Unreachable", "Ready"}[rng.IntN(3)])
		case 3:
			actions.WriteString(at(when, fmt.Sprintf(`patch hpa web -p '{"spec":{"maxReplicas":%d}}'`, 1+rng.IntN(12))))
		case 4:
			actions.WriteString(at(when, fmt.Sprintf(`patch hpa web -p '{"spec":{"minReplicas":%d}}'`, 1+rng.IntN(4))))
		case 5:
			if rng.IntN(3) == 0 {
				actions.WriteString(at(when, "delete hpa web"))
			}
		}
	}
	c.actions = actions.String()
	return c
}

// Generated autoscalers: random targets, bounds, metrics, behaviors and
// loads, under kills, scales, node faults and changes of the autoscaler.
func TestRandomHPAs(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 14))
	for i := range scenarios() {
		src := randomHPAScenario(rng).scenario()
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			rep := run(t, []byte(src), 15*60_000)
			if len(rep.Unexplained()) > 0 {
				t.Logf("scenario:\n%s", src)
			}
			reportFor(t, rep, "horizontal-pod-autoscaler")
		})
	}
}
