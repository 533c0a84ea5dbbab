package conformance

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/disruption"
	"github.com/stateflow/stateflow/engine/eviction"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// pdbCase is a workload web whose pods carry app=web (a Deployment, a
// ReplicaSet, a StatefulSet, bare Pods or a Job, and optionally bare
// pods solo-N of the same label beside it), a PodDisruptionBudget web-pdb
// with the given spec lines (indented two spaces; a selector of app=web
// unless they give one), the scenario's nodes and actions, and changes
// made through the API (acts) as kubectl would.
type pdbCase struct {
	name     string
	kind     string // Deployment (default), ReplicaSet, StatefulSet, Pod or Job
	replicas int
	// bare adds that many pods of no controller, labelled app=web.
	bare    int
	pdb     string
	nodes   string // the nodes line (default three nodes)
	image   string // web's image line (default pull 2s, start 1s, ready 3s)
	extra   string // more documents, each ending in "---\n"
	seed    int
	actions string
	acts    []timed
}

// podSpec is the pod spec of web's pods (indented by the caller).
const podSpec = "containers:\n  - {name: web, image: example/web:v1, resources: {requests: {cpu: 100m, memory: 64Mi}}}\n"

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	return pad + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+pad) + "\n"
}

// managed are the labels of a Deployment's, ReplicaSet's or
// StatefulSet's pods, and its selector: app=web, which the budgets
// select, and one the bare pods lack, so that the bare pods stay
// unmanaged (the budgets' UnmanagedPods cases need them; adoption has a
// case of its own, TestReplicaSetAdoptsBarePods).
const managed = `{app: web, managed: "yes"}`

func (c pdbCase) scenario() string {
	var docs strings.Builder
	kind := c.kind
	if kind == "" {
		kind = "Deployment"
	}
	switch kind {
	case "Deployment", "ReplicaSet", "StatefulSet":
		serviceName := ""
		if kind == "StatefulSet" {
			serviceName = "  serviceName: web\n"
		}
		fmt.Fprintf(&docs, "apiVersion: apps/v1\nkind: %s\nmetadata: {name: web}\nspec:\n  replicas: %d\n%s  selector: {matchLabels: %s}\n"+
			"  template:\n    metadata: {labels: %s}\n    spec:\n%s---\n", kind, c.replicas, serviceName, managed, managed, indent(podSpec, 6))
	case "Job":
		fmt.Fprintf(&docs, "apiVersion: batch/v1\nkind: Job\nmetadata: {name: web}\nspec:\n  parallelism: %d\n  completions: %d\n"+
			"  template:\n    metadata: {labels: {app: web}}\n    spec:\n      restartPolicy: Never\n%s---\n", c.replicas, c.replicas, indent(podSpec, 6))
	case "Pod":
		c.bare += c.replicas
	}
	for i := range c.bare {
		fmt.Fprintf(&docs, "apiVersion: v1\nkind: Pod\nmetadata: {name: solo-%d, labels: {app: web}}\nspec:\n%s---\n", i, indent(podSpec, 2))
	}
	pdb := c.pdb
	if !strings.Contains(pdb, "selector:") {
		pdb += "  selector: {matchLabels: {app: web}}\n"
	}
	nodes, image, actions := c.nodes, c.image, c.actions
	if nodes == "" {
		nodes = "{count: 3}"
	}
	if image == "" {
		image = "{pull: 2s, start: 1s, ready: 3s}"
	}
	if actions == "" {
		actions = "    []\n"
	}
	return fmt.Sprintf(`%sapiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec:
%s---
%sapiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: %d
  nodes: %s
  images:
    "example/web:v1": %s
  actions:
%s`, docs.String(), pdb, c.extra, c.seed, nodes, image, actions)
}

// drain is a kubectl drain of the node at a time, with more flags.
func drain(when, node string, flags ...string) string {
	return at(when, strings.Join(append([]string{"drain", node, "--ignore-daemonsets"}, flags...), " "))
}

// changePDB changes the PodDisruptionBudget through the API, as kubectl
// patch or edit would (kubectl's own pdb support is not assumed).
func changePDB(name string, change func(*api.PodDisruptionBudget)) func(t *testing.T, e *engine.Engine) {
	return func(t *testing.T, e *engine.Engine) {
		t.Helper()
		k := api.Key{Kind: api.KindPodDisruptionBudget, Namespace: "default", Name: name}
		o, ok := e.Store().Get(k)
		if !ok {
			return
		}
		p := o.(*api.PodDisruptionBudget).DeepCopy()
		change(p)
		tk := e.Act(engine.KubectlActor, k, func(tick reconcile.Tick) error {
			_, err := tick.Update(trace.Translate, p, "kubectl patch pdb "+name)
			return err
		})
		if tk.Err() != "" {
			t.Fatal(tk.Err())
		}
	}
}

// deletePDB deletes the PodDisruptionBudget, as kubectl delete pdb would.
func deletePDB(name string) func(t *testing.T, e *engine.Engine) {
	return func(t *testing.T, e *engine.Engine) {
		t.Helper()
		k := api.Key{Kind: api.KindPodDisruptionBudget, Namespace: "default", Name: name}
		if _, ok := e.Store().Get(k); !ok {
			return
		}
		tk := e.Act(engine.KubectlActor, k, func(tick reconcile.Tick) error {
			return tick.Delete(trace.Translate, k, apiserver.DeleteOptions{}, "kubectl delete pdb "+name)
		})
		if tk.Err() != "" {
			t.Fatal(tk.Err())
		}
	}
}

// failedDelete is the tick of an eviction whose pod deletion fails (an
// etcd timeout, say) after the Eviction API took the disruption from the
// budget and set the pod's DisruptionTarget condition.
type failedDelete struct{ reconcile.Tick }

func (failedDelete) Delete(trace.Class, api.Key, apiserver.DeleteOptions, string) error {
	return &apiserver.StatusError{Reason: apiserver.ReasonInternalError, Message: "etcdserver: request timed out"}
}

// interruptedEviction evicts the n-th running web pod (by name, modulo
// their number) through the engine's Eviction API, whose delete then
// fails: the budget's disruptedPods holds a pod that is not deleting,
// which the disruption controller rechecks when its DeletionTimeout is
// up and drops (NotDeleted), and the pod keeps a DisruptionTarget
// condition that the controller resets when it is two minutes old. The
// eviction may also be refused (429), as any.
func interruptedEviction(n int) func(t *testing.T, e *engine.Engine) {
	return func(t *testing.T, e *engine.Engine) {
		t.Helper()
		var pods []*api.Pod
		for _, o := range e.Store().List(api.KindPod, "default") {
			if p := o.(*api.Pod); p.Labels["app"] == "web" && p.DeletionTimestamp == nil && p.Status.Phase == api.PodRunning {
				pods = append(pods, p)
			}
		}
		if len(pods) == 0 {
			return
		}
		k := api.KeyOf(pods[n%len(pods)])
		e.Act(engine.KubectlActor, k, func(tick reconcile.Tick) error {
			_, err := eviction.Evict(failedDelete{tick}, k, apiserver.DeleteOptions{})
			return err
		})
	}
}

// selectorOf sets the PDB's selector to app=value.
func selectorOf(value string) func(*api.PodDisruptionBudget) {
	return func(p *api.PodDisruptionBudget) {
		p.Spec.Selector = &api.LabelSelector{MatchLabels: map[string]string{"app": value}}
	}
}

// intOrString is "2" as an integer, "50%" as a string.
func intOrString(s string) *api.IntOrString {
	v := api.FromString(s)
	if i, err := strconv.Atoi(s); err == nil {
		v = api.FromInt(int32(i))
	}
	return &v
}

// budget replaces the PDB's minAvailable or maxUnavailable ("min" or
// "max") with value (an integer or a percentage).
func budget(which, value string) func(*api.PodDisruptionBudget) {
	return func(p *api.PodDisruptionBudget) {
		p.Spec.MinAvailable, p.Spec.MaxUnavailable = nil, nil
		if which == "min" {
			p.Spec.MinAvailable = intOrString(value)
		} else {
			p.Spec.MaxUnavailable = intOrString(value)
		}
	}
}

// PodDisruptionBudget scenarios: every disruption-controller tick
// agrees with upstream's sync (or syncStalePodDisruption), with the same
// requeue, or differs only as allowances.go allows.
func TestDisruption(t *testing.T) {
	for _, tc := range []pdbCase{{
		// 3 pods, 2 of them needed: 1 disruption; a drain of node-1
		// takes it, the other eviction waits for the replacement.
		name: "min-available-int", replicas: 3, pdb: "  minAvailable: 2\n",
		actions: drain("30s", "node-1"),
	}, {
		// 50 % of the Deployment's 4 replicas (its scale, not the pods):
		// 2 needed.
		name: "min-available-percent", replicas: 4, pdb: "  minAvailable: 50%\n",
		actions: drain("30s", "node-1") + drain("2m", "node-2"),
	}, {
		name: "max-unavailable-int", replicas: 4, pdb: "  maxUnavailable: 1\n",
		actions: drain("30s", "node-1") + drain("90s", "node-2"),
	}, {
		// 40 % of 5 rounds up to 2 unavailable.
		name: "max-unavailable-percent", replicas: 5, pdb: "  maxUnavailable: 40%\n",
		actions: drain("30s", "node-2"),
	}, {
		// minAvailable equal to the replicas: no disruption ever; the
		// drain gives up after 30 s.
		name: "blocks-forever", replicas: 2, pdb: "  minAvailable: 2\n",
		actions: drain("30s", "node-1", "--timeout=30s"),
	}, {
		name: "replicaset", kind: "ReplicaSet", replicas: 3, pdb: "  maxUnavailable: 1\n",
		actions: drain("30s", "node-1"),
	}, {
		name: "statefulset", kind: "StatefulSet", replicas: 3, pdb: "  minAvailable: 60%\n",
		actions: drain("40s", "node-1") + drain("3m", "node-2"),
	}, {
		// Pods without a controller under a percentage: UnmanagedPods,
		// their count taken as 0 (expectedPods from the controllers).
		name: "unmanaged-pods", kind: "Pod", replicas: 3, pdb: "  maxUnavailable: 1\n",
		actions: drain("30s", "node-1", "--force"),
	}, {
		// An integer minAvailable counts bare pods as they are.
		name: "unmanaged-pods-min-int", kind: "Pod", replicas: 3, pdb: "  minAvailable: 1\n",
		actions: drain("30s", "node-1", "--force", "--timeout=30s"),
	}, {
		// A Deployment and bare pods under one budget.
		name: "deployment-and-bare", replicas: 2, bare: 2, pdb: "  minAvailable: 50%\n",
		actions: drain("30s", "node-2", "--force"),
	}, {
		// A Job has no scale subresource: getScaleController fails,
		// CalculateExpectedPodCountFailed, and failSafe writes
		// DisruptionAllowed False SyncFailed.
		name: "job-pods", kind: "Job", replicas: 3, pdb: "  maxUnavailable: 1\n",
		image:   "{pull: 2s, start: 1s, ready: 3s, exitAfter: 5m, exitCode: 0}",
		actions: drain("30s", "node-1"),
	}, {
		// A Job's pods under an integer minAvailable need no scale.
		name: "job-pods-min-int", kind: "Job", replicas: 3, pdb: "  minAvailable: 2\n",
		image:   "{pull: 2s, start: 1s, ready: 3s, exitAfter: 3m, exitCode: 0}",
		actions: drain("30s", "node-1"),
	}, {
		// No pod matches: NoPods, expectedPods 0; then the selector is
		// pointed at web (the generation bumps, observedGeneration
		// follows), then away again.
		name: "no-pods-then-selector", replicas: 3, pdb: "  maxUnavailable: 1\n  selector: {matchLabels: {app: nothing}}\n",
		acts: []timed{{at: 40_000, do: changePDB("web-pdb", selectorOf("web"))}, {at: 2 * 60_000, do: changePDB("web-pdb", selectorOf("db"))}},
	}, {
		// The budget changed mid-drain from minAvailable to
		// maxUnavailable percentages.
		name: "budget-changed", replicas: 4, pdb: "  minAvailable: 4\n",
		actions: drain("30s", "node-1", "--timeout=60s"),
		acts:    []timed{{at: 45_000, do: changePDB("web-pdb", budget("max", "50%"))}, {at: 3 * 60_000, do: changePDB("web-pdb", budget("min", "25%"))}},
	}, {
		// An empty selector selects every pod of the namespace.
		name: "empty-selector", replicas: 2, bare: 1, pdb: "  minAvailable: 1\n  selector: {}\n",
		actions: drain("30s", "node-1", "--force"),
	}, {
		// No selector at all selects nothing.
		name: "no-selector", replicas: 2, pdb: "  minAvailable: 1\n  selector: null\n",
	}, {
		// Pods not Ready: a node lost under them, then back.
		name: "node-not-ready", replicas: 4, pdb: "  maxUnavailable: 25%\n",
		actions: "    - {at: 30s, node: node-1, condition: NotReady}\n    - {at: 2m, node: node-1, condition: Ready}\n",
	}, {
		// The Deployment scaled under a percentage, and a pod killed.
		name: "scaled", replicas: 3, pdb: "  minAvailable: 67%\n",
		actions: at("30s", "scale deployment/web --replicas=6") + "    - {at: 1m, kill-pod: app=web}\n" + at("2m", "scale deployment/web --replicas=1"),
	}, {
		// The budget deleted mid-drain.
		name: "deleted", replicas: 3, pdb: "  minAvailable: 3\n",
		actions: drain("30s", "node-1", "--timeout=2m"),
		acts:    []timed{{at: 50_000, do: deletePDB("web-pdb")}},
	}, {
		// Evictions whose delete failed: the pods stay in disruptedPods
		// (not counted healthy) until their DeletionTimeout, when the
		// recheck finds them not deleted (NotDeleted); their
		// DisruptionTarget conditions are reset after two minutes.
		name: "eviction-not-deleted", replicas: 4, pdb: "  maxUnavailable: 2\n",
		acts: []timed{{at: 30_000, do: interruptedEviction(0)}, {at: 45_500, do: interruptedEviction(1)},
			{at: 100_250, do: interruptedEviction(2)}, {at: 3 * 60_000, do: interruptedEviction(0)}},
	}, {
		// The same under a percentage of a StatefulSet, with a drain of
		// the node meanwhile: some are deleted before their timeout.
		name: "eviction-not-deleted-drained", kind: "StatefulSet", replicas: 3, pdb: "  minAvailable: 30%\n",
		acts:    []timed{{at: 30_000, do: interruptedEviction(0)}, {at: 31_000, do: interruptedEviction(2)}},
		actions: drain("60s", "node-1") + drain("70s", "node-2", "--timeout=30s"),
	}, {
		// The Deployment deleted under a percentage: while the garbage
		// collector deletes its ReplicaSet and then its pods, the pods'
		// controller is gone (found no controllers for pod), then there
		// are no pods.
		name: "deployment-deleted", replicas: 3, pdb: "  maxUnavailable: 34%\n",
		actions: at("40s", "delete deployment/web"),
	}, {
		// The ReplicaSet deleted, its pods orphaned: unmanaged once the
		// garbage collector has removed their ownerReferences.
		name: "replicaset-orphaned", kind: "ReplicaSet", replicas: 3, pdb: "  minAvailable: 50%\n",
		actions: at("40s", "delete rs/web --cascade=orphan"),
	}, {
		// A StatefulSet deleted in the foreground.
		name: "statefulset-deleted", kind: "StatefulSet", replicas: 2, pdb: "  maxUnavailable: 1\n",
		actions: at("40s", "delete sts/web --cascade=foreground"),
	}, {
		// DaemonSet pods under the budget: no scale subresource
		// (daemonsets.apps), SyncFailed; the drain leaves them.
		name: "daemonset-pods", replicas: 2, pdb: "  minAvailable: 80%\n",
		extra: "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: web, agent: \"yes\"}}\n" +
			"  template:\n    metadata: {labels: {app: web, agent: \"yes\"}}\n    spec:\n" + indent(podSpec, 6) + "---\n",
		actions: drain("30s", "node-1"),
	}, {
		// Unready pods evicted under AlwaysAllow.
		name: "always-allow", replicas: 3, pdb: "  minAvailable: 3\n  unhealthyPodEvictionPolicy: AlwaysAllow\n",
		image:   "{pull: 2s, start: 1s, ready: 1h}",
		actions: drain("30s", "node-1"),
	}, {
		// Two budgets over the same pods: the Eviction API refuses
		// (500), kubectl gives up on the pod.
		name: "two-budgets", replicas: 3, pdb: "  minAvailable: 1\n",
		extra:   "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: also}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: web}}\n---\n",
		actions: drain("30s", "node-1"),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			src := tc.scenario()
			rep := runActing(t, src, 10*60_000, tc.acts...)
			if len(rep.Unexplained()) > 0 {
				t.Logf("scenario:\n%s", src)
			}
			reportFor(t, rep, "disruption-controller")
		})
	}
}

// randomPDBCase is a generated budget over a generated workload: a
// Deployment, ReplicaSet, StatefulSet, bare pods or a Job of 0 to 6
// pods, sometimes with bare pods beside it; minAvailable or
// maxUnavailable, as an integer or a percentage (or neither); sometimes
// AlwaysAllow, a selector of nothing or of everything, a second budget;
// and drains (with or without --timeout, --force), kills, scales, node
// faults, selector and budget changes, the budget's deletion, evictions
// whose delete failed and the workload's deletion in its first five
// minutes.
func randomPDBCase(rng *rand.Rand) pdbCase {
	c := pdbCase{name: "random", replicas: rng.IntN(7), seed: rng.IntN(1000)}
	c.kind = []string{"Deployment", "Deployment", "ReplicaSet", "StatefulSet", "Pod", "Job"}[rng.IntN(6)]
	if rng.IntN(5) == 0 {
		c.bare = 1 + rng.IntN(2)
	}
	value := func() string {
		if rng.IntN(2) == 0 {
			return fmt.Sprint(rng.IntN(c.replicas + c.bare + 2))
		}
		return fmt.Sprintf("%d%%", []int{0, 10, 25, 33, 50, 60, 75, 100}[rng.IntN(8)])
	}
	var b strings.Builder
	switch rng.IntN(7) {
	case 0, 1, 2:
		fmt.Fprintf(&b, "  minAvailable: %s\n", value())
	case 3, 4, 5:
		fmt.Fprintf(&b, "  maxUnavailable: %s\n", value())
	}
	if rng.IntN(6) == 0 {
		b.WriteString("  unhealthyPodEvictionPolicy: " + []string{"AlwaysAllow", "IfHealthyBudget"}[rng.IntN(2)] + "\n")
	}
	switch rng.IntN(10) {
	case 0:
		b.WriteString("  selector: {matchLabels: {app: nothing}}\n")
	case 1:
		b.WriteString("  selector: {}\n")
	case 2:
		b.WriteString("  selector: {matchExpressions: [{key: app, operator: In, values: [web, db]}]}\n")
	}
	c.pdb = b.String()
	if rng.IntN(8) == 0 {
		c.extra = "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: also}\nspec:\n  maxUnavailable: 1\n  selector: {matchLabels: {app: web}}\n---\n"
	}
	switch c.kind {
	case "Job":
		c.image = fmt.Sprintf("{pull: 2s, start: 1s, ready: %ds, exitAfter: %ds, exitCode: 0}", rng.IntN(10), 60+rng.IntN(300))
	default:
		if rng.IntN(4) == 0 {
			c.image = fmt.Sprintf("{pull: 2s, start: 1s, ready: %ds}", rng.IntN(60))
		}
	}
	if rng.IntN(4) == 0 {
		c.nodes = fmt.Sprintf("{count: %d}", 2+rng.IntN(3))
	}
	var actions strings.Builder
	for range rng.IntN(5) {
		ms := 10_000 + rng.IntN(290_000)
		when := fmt.Sprintf("%dms", ms)
		switch rng.IntN(11) {
		case 0, 1, 2:
			var flags []string
			if rng.IntN(2) == 0 {
				flags = append(flags, fmt.Sprintf("--timeout=%ds", []int{10, 30, 60, 120}[rng.IntN(4)]))
			}
			if rng.IntN(2) == 0 {
				flags = append(flags, "--force")
			}
			actions.WriteString(drain(when, fmt.Sprintf("node-%d", 1+rng.IntN(2)), flags...))
		case 3:
			fmt.Fprintf(&actions, "    - {at: %s, kill-pod: app=web}\n", when)
		case 4:
			if c.kind == "Deployment" || c.kind == "ReplicaSet" || c.kind == "StatefulSet" {
				actions.WriteString(at(when, fmt.Sprintf("scale %s/web --replicas=%d", strings.ToLower(c.kind), rng.IntN(7))))
			}
		case 5:
			fmt.Fprintf(&actions, "    - {at: %s, node: node-%d, condition: %s}\n", when, 1+rng.IntN(2), []string{"NotReady", "Unreachable", "Ready"}[rng.IntN(3)])
		case 6:
			c.acts = append(c.acts, timed{at: int64(ms), do: changePDB("web-pdb", selectorOf([]string{"web", "db", "nothing"}[rng.IntN(3)]))})
		case 7:
			c.acts = append(c.acts, timed{at: int64(ms), do: changePDB("web-pdb", budget([]string{"min", "max"}[rng.IntN(2)], value()))})
		case 8:
			if rng.IntN(3) == 0 {
				c.acts = append(c.acts, timed{at: int64(ms), do: deletePDB("web-pdb")})
			}
		case 9:
			c.acts = append(c.acts, timed{at: int64(ms), do: interruptedEviction(rng.IntN(7))})
		case 10:
			if c.kind != "Pod" && rng.IntN(2) == 0 {
				actions.WriteString(at(when, fmt.Sprintf("delete %s/web --cascade=%s", strings.ToLower(c.kind), []string{"background", "foreground", "orphan"}[rng.IntN(3)])))
			}
		}
	}
	c.actions = actions.String()
	return c
}

// Generated budgets: random workloads, budgets and selectors under
// drains, kills, scales, node faults and changes of the budget.
func TestRandomDisruption(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 15))
	for i := range scenarios() {
		c := randomPDBCase(rng)
		src := c.scenario()
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			rep := runActing(t, src, 10*60_000, c.acts...)
			if len(rep.Unexplained()) > 0 {
				t.Logf("scenario:\n%s", src)
			}
			reportFor(t, rep, "disruption-controller")
		})
	}
}

// A ReplicaSet whose selector matches a bare pod adopts it, as
// upstream's PodControllerRefManager.AdoptPod (controller_ref_manager.go
// 222-233) does: a strategic merge patch of the ownerReferences guarded
// by the pod's uid alone (ownerRefControllerPatch), which a stale cached
// copy cannot make conflict (here the scheduler has just bound the pod),
// and which adopting twice leaves as it is. The PodDisruptionBudget
// scenarios found the engine updating its cached copy instead.
func TestReplicaSetAdoptsBarePods(t *testing.T) {
	src := strings.Replace(pdbCase{kind: "ReplicaSet", replicas: 4, bare: 1, pdb: "  maxUnavailable: 1\n", seed: 752}.scenario(), managed, "{app: web}", 2)
	reportFor(t, run(t, []byte(src), 60_000), "replicaset-controller")
}

// The disruption replay speaks up: after an eviction whose delete
// failed, the sync that finds the pod in disruptedPods but not deleting
// rechecks the budget when the entry expires, DeletionTimeout after it
// was written, plus the first step of the rate limiter; an engine that
// came back 5 ms early (without that step) must show. When the recheck
// finds the pod still not deleted it drops it with a NotDeleted Event;
// an engine that kept it must show.
func TestCatchesDisruptionRecheck(t *testing.T) {
	src := pdbCase{replicas: 4, pdb: "  maxUnavailable: 2\n"}.scenario()
	e := load(t, []byte(src))
	e.RunUntil(30_000)
	interruptedEviction(0)(t, e)
	pdb := api.Key{Kind: api.KindPodDisruptionBudget, Namespace: "default", Name: "web-pdb"}
	rechecks := func(tk *trace.Tick) bool {
		o, ok := component(e, disruption.Name).Cache().Get(pdb)
		return ok && tk.Object == pdb && tk.Err() == "" && len(o.(*api.PodDisruptionBudget).Status.DisruptedPods) > 0
	}
	ours, theirs, names := replayNext(t, e, disruption.Name, rechecks)
	if lines := compare(ours, theirs, names); len(lines) > 0 {
		t.Fatalf("the recheck should agree with upstream:\n%s", strings.Join(lines, "\n"))
	}
	if !strings.HasPrefix(theirs.requeue, "requeue: after ") {
		t.Fatalf("upstream's sync asked for no recheck: %q", theirs.requeue)
	}
	d, err := time.ParseDuration(strings.TrimPrefix(theirs.engineRequeue, "requeue: after "))
	if err != nil {
		t.Fatal(err)
	}
	early := theirs
	early.engineRequeue = requeueLine(d.Milliseconds()-5, true)
	if lines := compare(ours, early, names); len(lines) == 0 || allowed(lines, ours, early) != "" {
		t.Fatalf("a recheck 5 ms early went unnoticed or excused: %q", lines)
	}

	notDeleted := func(tk *trace.Tick) bool {
		for _, ef := range tk.Effects {
			if ev, ok := api.EventOf(ef.After); ok && ev.Reason == "NotDeleted" {
				return true
			}
		}
		return false
	}
	ours, theirs, names = replayNext(t, e, disruption.Name, notDeleted)
	if lines := compare(ours, theirs, names); len(lines) > 0 {
		t.Fatalf("the expiry should agree with upstream:\n%s", strings.Join(lines, "\n"))
	}
	kept := ours
	kept.events = slices.DeleteFunc(slices.Clone(ours.events), func(l string) bool { return strings.Contains(l, " NotDeleted ") })
	kept.changes = nil
	if lines := compare(kept, theirs, names); len(lines) == 0 || allowed(lines, kept, theirs) != "" {
		t.Fatalf("an engine that kept the expired entry went unnoticed or excused: %q", lines)
	}
}
