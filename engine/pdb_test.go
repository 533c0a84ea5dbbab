package engine_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/eviction"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// The worked examples of docs/fidelity-workloads.md §7 (PodDisruptionBudget
// status, the Eviction API, kubectl drain) and the stories of the PDB
// examples, read from the trace, the API server and kubectl.

// pdbSetup is Deployment web (Replicas pods, image web:1 Ready 2 s after
// it starts) under PodDisruptionBudget web-pdb (Budget: its spec lines
// besides the selector), with Extra documents and the Scenario's spec
// Scenario (default: seed 2 and 2 nodes, which puts two of 3 pods on
// node-1).
type pdbSetup struct {
	Replicas        int
	Budget          string
	Extra, Scenario string
}

func (o pdbSetup) source() string {
	if o.Scenario == "" {
		o.Scenario = "  seed: 2\n  nodes: {count: 2}\n"
	}
	if !strings.Contains(o.Scenario, "images:\n") {
		o.Scenario += "  images:\n"
	}
	if !strings.Contains(o.Scenario, "\"web:1\"") {
		o.Scenario = strings.Replace(o.Scenario, "images:\n", "images:\n    \"web:1\": {pull: 1s, start: 1s, ready: 2s}\n", 1)
	}
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web-pdb}
spec:
  selector: {matchLabels: {app: web}}
%s
%s---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
%s`, o.Replicas, o.Budget, o.Extra, o.Scenario)
}

func (o pdbSetup) load(t *testing.T) (*engine.Engine, *kubectl.Session) {
	t.Helper()
	e, sc := testkit.Load(t, []byte(o.source()))
	return e, &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
}

// kubeProxyDS is the worked example's DaemonSet pod on every node.
const kubeProxyDS = `---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: kube-proxy, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: kube-proxy}}
  template:
    metadata: {labels: {k8s-app: kube-proxy}}
    spec:
      containers: [{name: kube-proxy, image: kube-proxy:1}]
`

func getPDB(t *testing.T, e *engine.Engine, name string) *api.PodDisruptionBudget {
	t.Helper()
	o, ok := e.Store().Get(api.Key{Kind: api.KindPodDisruptionBudget, Namespace: "default", Name: name})
	if !ok {
		t.Fatalf("no pdb/%s", name)
	}
	return o.(*api.PodDisruptionBudget)
}

func pdbNumbers(p *api.PodDisruptionBudget) string {
	st := p.Status
	c := api.FindCondition(st.Conditions, api.DisruptionAllowedCondition)
	cond := "no condition"
	if c != nil {
		cond = fmt.Sprintf("%s %s %q", c.Status, c.Reason, c.Message)
	}
	return fmt.Sprintf("expected %d desired %d current %d allowed %d; %s", st.ExpectedPods, st.DesiredHealthy, st.CurrentHealthy, st.DisruptionsAllowed, cond)
}

// podsOn lists the names of the live pods of ns on node, sorted.
func podsOn(e *engine.Engine, ns, node string) []string {
	var out []string
	for _, p := range testkit.Pods(e, ns) {
		if p.Spec.NodeName == node && p.DeletionTimestamp == nil {
			out = append(out, p.Name)
		}
	}
	sort.Strings(out)
	return out
}

// §7.1 and §7.5: 3 pods, minAvailable 2: expectedPods 3, desiredHealthy
// 2, currentHealthy 3, disruptionsAllowed 1, DisruptionAllowed True
// SufficientPods with an empty message; and the percentages' rounding.
func TestPDBWorkedStatus(t *testing.T) {
	for _, c := range []struct {
		budget, want string
	}{
		{"  minAvailable: 2", `expected 3 desired 2 current 3 allowed 1; True SufficientPods ""`},
		{"  minAvailable: 50%", `expected 3 desired 2 current 3 allowed 1; True SufficientPods ""`},
		{"  maxUnavailable: 50%", `expected 3 desired 1 current 3 allowed 2; True SufficientPods ""`},
		{"  maxUnavailable: 25%", `expected 3 desired 2 current 3 allowed 1; True SufficientPods ""`},
		{"  maxUnavailable: 1", `expected 3 desired 2 current 3 allowed 1; True SufficientPods ""`},
		{"  maxUnavailable: 0", `expected 3 desired 3 current 3 allowed 0; False InsufficientPods ""`},
		{"  minAvailable: 3", `expected 3 desired 3 current 3 allowed 0; False InsufficientPods ""`},
		{"  minAvailable: 100%", `expected 3 desired 3 current 3 allowed 0; False InsufficientPods ""`},
		{"  minAvailable: 0%", `expected 3 desired 0 current 3 allowed 3; True SufficientPods ""`},
	} {
		t.Run(strings.TrimSpace(c.budget), func(t *testing.T) {
			e, _ := pdbSetup{Replicas: 3, Budget: c.budget}.load(t)
			e.RunUntil(30_000)
			p := getPDB(t, e, "web-pdb")
			if got := pdbNumbers(p); got != c.want {
				t.Errorf("status %s, want %s", got, c.want)
			}
			if p.Status.ObservedGeneration != 1 || p.Status.DisruptedPods != nil {
				t.Errorf("observedGeneration %d, disruptedPods %v", p.Status.ObservedGeneration, p.Status.DisruptedPods)
			}
		})
	}
}

// §7.5: kubectl drain node-1 --ignore-daemonsets with web-a and web-b on
// node-1: web-a's eviction takes the one disruption, web-b's is refused
// (429) and retried 5 s later, after web-a's replacement is Ready.
func TestPDBWorkedDrain(t *testing.T) {
	e, k := pdbSetup{Replicas: 3, Budget: "  minAvailable: 2", Extra: kubeProxyDS}.load(t)
	e.RunUntil(30_000)
	web := podsOn(e, "default", "node-1")
	proxy := podsOn(e, "kube-system", "node-1")
	if len(web) != 2 || len(proxy) != 1 {
		t.Fatalf("node-1 runs %v and %v; the example needs two web pods and one kube-proxy", web, proxy)
	}
	if got := k.Run("get pdb").Stdout; got != "NAME      MIN AVAILABLE   MAX UNAVAILABLE   ALLOWED DISRUPTIONS   AGE\nweb-pdb   2               N/A               1                     30s\n" {
		t.Errorf("kubectl get pdb:\n%s", got)
	}
	res := k.Run("drain node-1 --ignore-daemonsets")
	a, b := web[0], web[1]
	want := fmt.Sprintf(`node/node-1 cordoned
Warning: ignoring DaemonSet-managed Pods: kube-system/%s
evicting pod default/%s
evicting pod default/%s
error when evicting pods/"%s" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.
pod/%s evicted
evicting pod default/%s
pod/%s evicted
node/node-1 drained
`, proxy[0], a, b, b, a, b, b)
	if res.Code != 0 || res.Output() != want {
		t.Fatalf("drain (exit %d):\n%s\nwant:\n%s", res.Code, res.Output(), want)
	}
	if !strings.Contains(res.Stdout, "evicting pod default/"+a+"\n") || strings.Contains(res.Stdout, "error when") || !strings.Contains(res.Stderr, "Warning: ignoring") {
		t.Errorf("streams: stdout %q stderr %q", res.Stdout, res.Stderr)
	}
	// web-a's eviction: disruptionsAllowed 1→0, InsufficientPods, web-a
	// in disruptedPods; its pod marked DisruptionTarget before deletion.
	var first *api.PodDisruptionBudget
	var target *api.PodCondition
	for _, tk := range e.Trace() {
		if tk.Component != engine.KubectlActor || tk.Time != 30_000 {
			continue
		}
		for _, eff := range tk.Effects {
			switch o := eff.After.(type) {
			case *api.PodDisruptionBudget:
				first = o
			case *api.Pod:
				if o.Name == a && target == nil {
					target = o.Status.Condition(api.DisruptionTarget)
				}
			}
		}
	}
	if first == nil || pdbNumbers(first) != `expected 3 desired 2 current 3 allowed 0; False InsufficientPods ""` || first.Status.DisruptedPods[a].MS != 30_000 {
		t.Errorf("the PDB the eviction wrote: %+v", first)
	}
	if target == nil || target.Status != api.ConditionTrue || target.Reason != "EvictionByEvictionAPI" || target.Message != "Eviction API: evicting" {
		t.Errorf("DisruptionTarget of %s: %+v", a, target)
	}
	// The refusal's cause is in the tick's explanation. web-b's eviction
	// reads the status web-a's just wrote: disruptionsAllowed 0 but
	// currentHealthy still 3, the disruption controller's count from
	// before (it drops web-a when it next syncs), so the cause says 3;
	// §7.5's "has 2" is what a retry refused after that sync says (the
	// pdb-drain example's).
	if !traceSays(e, engine.KubectlActor, "the API server's reason: The disruption budget web-pdb needs 2 healthy pods and has 3 currently") {
		t.Error("no tick explains the 429 with the budget's numbers")
	}
	if got := podsOn(e, "default", "node-1"); len(got) != 0 {
		t.Errorf("web pods left on node-1: %v", got)
	}
	if n := getNode(t, e, "node-1"); !n.Spec.Unschedulable {
		t.Error("node-1 is not cordoned")
	}
}

func traceSays(e *engine.Engine, component, text string) bool {
	for _, tk := range e.Trace() {
		if tk.Component == component && strings.Contains(tk.Explanation(), text) {
			return true
		}
	}
	return false
}

func getNode(t *testing.T, e *engine.Engine, name string) *api.Node {
	t.Helper()
	o, ok := e.Store().Get(api.Key{Kind: api.KindNode, Name: name})
	if !ok {
		t.Fatalf("no node/%s", name)
	}
	return o.(*api.Node)
}

// §7.3: the filters refuse before evicting anything, with kubectl's
// words (including upstream's doubled "cannot delete").
func TestDrainFilters(t *testing.T) {
	bare := `---
apiVersion: v1
kind: Pod
metadata: {name: bare}
spec:
  nodeName: node-1
  containers: [{name: c, image: web:1}]
`
	for _, c := range []struct {
		name, extra, args, want string
		code                    int
	}{
		{"daemonset", kubeProxyDS, "drain node-1", "node/node-1 cordoned\nerror: unable to drain node \"node-1\" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/%s, continuing command...\nThere are pending nodes to be drained:\n node-1\nerror: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/%s\n", 1},
		{"unmanaged", bare, "drain node-1 --pod-selector=app!=web", "node/node-1 cordoned\nerror: unable to drain node \"node-1\" due to error: cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare, continuing command...\nThere are pending nodes to be drained:\n node-1\nerror: cannot delete cannot delete Pods that declare no controller (use --force to override): default/bare\n", 1},
		{"forced", bare, "drain node-1 --force --pod-selector=app!=web", "node/node-1 cordoned\nWarning: deleting Pods that declare no controller: default/bare\nevicting pod default/bare\npod/bare evicted\nnode/node-1 drained\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, k := pdbSetup{Replicas: 3, Budget: "  minAvailable: 2", Extra: c.extra}.load(t)
			e.RunUntil(30_000)
			want := c.want
			if strings.Contains(want, "%s") {
				p := podsOn(e, "kube-system", "node-1")
				want = fmt.Sprintf(want, p[0], p[0])
			}
			res := k.Run(c.args)
			if res.Output() != want || res.Code != c.code {
				t.Errorf("exit %d:\n%s\nwant exit %d:\n%s", res.Code, res.Output(), c.code, want)
			}
		})
	}
}

// evict calls the Eviction API as a tick of its own and returns its
// answer.
func evict(e *engine.Engine, name string) error {
	var err error
	e.Act(engine.KubectlActor, api.Key{Kind: api.KindPod, Namespace: "default", Name: name}, func(tick reconcile.Tick) error {
		_, err = eviction.Evict(tick, api.Key{Kind: api.KindPod, Namespace: "default", Name: name}, apiserver.DeleteOptions{})
		return nil
	})
	return err
}

func statusErr(err error) string {
	if err == nil {
		return "ok"
	}
	se, ok := err.(*apiserver.StatusError)
	if !ok {
		return err.Error()
	}
	return fmt.Sprintf("%s: %s %v", se.Reason, se.Message, se.Causes)
}

// §7.2: the Eviction API's answers.
func TestEvictionAnswers(t *testing.T) {
	t.Run("allowed then 429", func(t *testing.T) {
		e, _ := pdbSetup{Replicas: 3, Budget: "  minAvailable: 2"}.load(t)
		e.RunUntil(30_000)
		pods := podsOn(e, "default", "node-1")
		if got := statusErr(evict(e, pods[0])); got != "ok" {
			t.Fatalf("first eviction: %s", got)
		}
		want := "TooManyRequests: Cannot evict pod as it would violate the pod's disruption budget. [The disruption budget web-pdb needs 2 healthy pods and has 3 currently]"
		if got := statusErr(evict(e, pods[1])); got != want {
			t.Errorf("second eviction: %s, want %s", got, want)
		}
		if got := statusErr(evict(e, "nope")); got != `NotFound: pods "nope" not found []` {
			t.Errorf("missing pod: %s", got)
		}
	})
	t.Run("two budgets", func(t *testing.T) {
		e, _ := pdbSetup{Replicas: 3, Budget: "  minAvailable: 1", Extra: "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: other}\nspec: {maxUnavailable: 1, selector: {}}\n"}.load(t)
		e.RunUntil(30_000)
		want := "InternalError: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support. []"
		if got := statusErr(evict(e, podsOn(e, "default", "node-1")[0])); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
	t.Run("still being processed", func(t *testing.T) {
		e, _ := pdbSetup{Replicas: 3, Budget: "  minAvailable: 1"}.load(t)
		e.RunUntil(30_000)
		var err error
		name := podsOn(e, "default", "node-1")[0]
		e.Act(engine.KubectlActor, api.Key{Kind: api.KindPod, Namespace: "default", Name: name}, func(tick reconcile.Tick) error {
			o, _ := tick.LiveGet(api.Key{Kind: api.KindPodDisruptionBudget, Namespace: "default", Name: "web-pdb"})
			p := o.(*api.PodDisruptionBudget).DeepCopy()
			p.Spec.MinAvailable = &api.IntOrString{IntVal: 2}
			if _, err := tick.Update(trace.Translate, p, "minAvailable 2"); err != nil {
				return err
			}
			_, err = eviction.Evict(tick, api.Key{Kind: api.KindPod, Namespace: "default", Name: name}, apiserver.DeleteOptions{})
			return nil
		})
		want := "TooManyRequests: Cannot evict pod as it would violate the pod's disruption budget. [The disruption budget web-pdb is still being processed by the server.]"
		if got := statusErr(err); got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	})
	t.Run("pending pods need no budget", func(t *testing.T) {
		// 3 replicas of 3 CPUs on two 4-CPU nodes: one stays Pending.
		src := pdbSetup{Replicas: 3, Budget: "  minAvailable: 3"}.source()
		src = strings.Replace(src, "image: web:1}", "image: web:1, resources: {requests: {cpu: '3'}}}", 1)
		e, _ := testkit.Load(t, []byte(src))
		e.RunUntil(30_000)
		var pending string
		for _, p := range testkit.Pods(e, "default") {
			if p.Spec.NodeName == "" {
				pending = p.Name
			}
		}
		if pending == "" {
			t.Fatal("no Pending pod")
		}
		if got := statusErr(evict(e, pending)); got != "ok" {
			t.Errorf("evicting Pending %s: %s", pending, got)
		}
		if got := statusErr(evict(e, podsOn(e, "default", "node-1")[0])); !strings.HasPrefix(got, "TooManyRequests") {
			t.Errorf("evicting a running pod: %s", got)
		}
	})
}

// unhealthyPodEvictionPolicy: a pod that is not Ready goes when the
// budget is healthy without it (IfHealthyBudget, the default) or always
// (AlwaysAllow); a Ready pod needs a disruption.
func TestEvictionOfUnreadyPods(t *testing.T) {
	for _, c := range []struct {
		policy, want string
	}{
		{"", "TooManyRequests"},
		{"  unhealthyPodEvictionPolicy: IfHealthyBudget", "TooManyRequests"},
		{"  unhealthyPodEvictionPolicy: AlwaysAllow", "ok"},
	} {
		t.Run(c.policy, func(t *testing.T) {
			// 3 pods, minAvailable 3: no disruption allowed; one pod's
			// readiness probe fails (the kubelet reports Ready=False), so
			// the budget is not healthy either.
			e, _ := pdbSetup{Replicas: 3, Budget: "  minAvailable: 3\n" + c.policy}.load(t)
			e.RunUntil(30_000)
			name := podsOn(e, "default", "node-1")[0]
			e.Act(engine.KubectlActor, api.Key{Kind: api.KindPod, Namespace: "default", Name: name}, func(tick reconcile.Tick) error {
				o, _ := tick.LiveGet(api.Key{Kind: api.KindPod, Namespace: "default", Name: name})
				p := o.(*api.Pod).DeepCopy()
				api.UpdatePodCondition(&p.Status, api.PodCondition{Type: api.PodReady, Status: api.ConditionFalse}, tick.Now())
				_, err := tick.UpdateStatus(trace.Realize, p, "not ready")
				return err
			})
			e.RunUntil(31_000)
			got := statusErr(evict(e, name))
			if !strings.HasPrefix(got, c.want) {
				t.Errorf("evicting the unready pod: %s, want %s", got, c.want)
			}
		})
	}
}

// §7.1's Events and failSafe: no pods, unmanaged pods under a
// percentage, and pods whose controller has no scale subresource.
func TestPDBControllerEvents(t *testing.T) {
	t.Run("NoPods", func(t *testing.T) {
		src := strings.Replace(pdbSetup{Replicas: 3, Budget: "  minAvailable: 1"}.source(), "selector: {matchLabels: {app: web}}\n  minAvailable", "selector: {matchLabels: {app: db}}\n  minAvailable", 1)
		e, _ := testkit.Load(t, []byte(src))
		e.RunUntil(10_000)
		if evs := eventsWith(e, "NoPods"); len(evs) != 1 || evs[0].Message != "No matching pods found" || evs[0].Type != api.EventNormal || evs[0].Source.Component != "controllermanager" {
			t.Errorf("NoPods events %+v", evs)
		}
	})
	t.Run("UnmanagedPods", func(t *testing.T) {
		bare := "---\napiVersion: v1\nkind: Pod\nmetadata: {name: bare, labels: {app: web}}\nspec:\n  containers: [{name: c, image: web:1}]\n"
		e, _ := pdbSetup{Replicas: 3, Budget: "  minAvailable: 50%", Extra: bare}.load(t)
		e.RunUntil(10_000)
		evs := eventsWith(e, "UnmanagedPods")
		want := `Pods selected by this PodDisruptionBudget (selector: &LabelSelector{MatchLabels:map[string]string{app: web,},MatchExpressions:[]LabelSelectorRequirement{},}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`
		if len(evs) == 0 || evs[0].Message != want || evs[0].Type != api.EventWarning {
			t.Fatalf("UnmanagedPods events %+v", evs)
		}
		// The bare pod counts as healthy but not as expected: 4 healthy,
		// ceil(50% × 3) = 2 desired.
		if got := pdbNumbers(getPDB(t, e, "web-pdb")); got != `expected 3 desired 2 current 4 allowed 2; True SufficientPods ""` {
			t.Errorf("status %s", got)
		}
	})
	t.Run("no scale subresource", func(t *testing.T) {
		job := "---\napiVersion: batch/v1\nkind: Job\nmetadata: {name: batch}\nspec:\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: job:1}]\n"
		e, _ := pdbSetup{Replicas: 3, Budget: "  maxUnavailable: 1", Extra: job, Scenario: "  seed: 2\n  nodes: {count: 2}\n  images:\n    \"job:1\": {start: 1s, exitAfter: 600s}\n"}.load(t)
		e.RunUntil(30_000)
		want := "Failed to calculate the number of expected pods: jobs.batch does not implement the scale subresource"
		if evs := eventsWith(e, "CalculateExpectedPodCountFailed"); len(evs) == 0 || evs[0].Message != want {
			t.Errorf("CalculateExpectedPodCountFailed events %+v", evs)
		}
		p := getPDB(t, e, "web-pdb")
		c := api.FindCondition(p.Status.Conditions, api.DisruptionAllowedCondition)
		if p.Status.DisruptionsAllowed != 0 || c == nil || c.Status != api.ConditionFalse || c.Reason != api.SyncFailedReason || c.Message != "jobs.batch does not implement the scale subresource" {
			t.Errorf("failSafe status %+v", p.Status)
		}
	})
}

// A pod marked DisruptionTarget that is not deleted has the condition set
// back to False by the disruption controller after 2 minutes.
func TestStaleDisruptionTarget(t *testing.T) {
	e, _ := pdbSetup{Replicas: 3, Budget: "  minAvailable: 1"}.load(t)
	e.RunUntil(30_000)
	name := podsOn(e, "default", "node-1")[0]
	key := api.Key{Kind: api.KindPod, Namespace: "default", Name: name}
	e.Act(engine.KubectlActor, key, func(tick reconcile.Tick) error {
		o, _ := tick.LiveGet(key)
		p := o.(*api.Pod).DeepCopy()
		api.UpdatePodCondition(&p.Status, api.PodCondition{Type: api.DisruptionTarget, Status: api.ConditionTrue, Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting"}, tick.Now())
		_, err := tick.UpdateStatus(trace.Translate, p, "marked")
		return err
	})
	e.RunUntil(149_000)
	cond := func() *api.PodCondition {
		o, _ := e.Store().Get(key)
		return o.(*api.Pod).Status.Condition(api.DisruptionTarget)
	}
	if c := cond(); c.Status != api.ConditionTrue {
		t.Fatalf("reset before 2m: %+v", c)
	}
	e.RunUntil(151_000)
	if c := cond(); c.Status != api.ConditionFalse || c.Reason != "" || c.LastTransitionTime.MS != 150_000 {
		t.Errorf("after 2m: %+v", c)
	}
}

// drainLines lists, in order, the kubectl drain ticks' explanations with
// their times ("30s: …").
func drainLines(e *engine.Engine) []string {
	var out []string
	for _, tk := range e.Trace() {
		if tk.Component == engine.KubectlActor && strings.HasPrefix(tk.Explanation(), "kubectl drain ") {
			out = append(out, trace.FormatTime(tk.Time)+": "+tk.Explanation())
		}
	}
	return out
}

// pdb-drain: one eviction at 30s, the other refused at 30s, 35s and 40s
// (the replacement is not Ready yet; from 35s the refusal says 2 healthy)
// and let through at 45s; node-1 drained at 46s.
func checkPDBDrain(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	lines := drainLines(e)
	refused := map[string]bool{}
	var evictedAt []string
	for _, l := range lines {
		at, _, _ := strings.Cut(l, ": ")
		if strings.Contains(l, "(will retry after 5s)") {
			refused[at] = true
		}
		if strings.Contains(l, " evicted") {
			evictedAt = append(evictedAt, at)
		}
	}
	if len(refused) != 3 || !refused["30.000s"] || !refused["35.000s"] || !refused["40.000s"] {
		t.Errorf("refusals at %v, want 30s, 35s, 40s:\n%s", refused, strings.Join(lines, "\n"))
	}
	if len(evictedAt) != 2 || evictedAt[0] != "31.000s" || evictedAt[1] != "46.000s" || !strings.HasSuffix(lines[len(lines)-1], "node/node-1 drained") {
		t.Errorf("evicted at %v; last line %q", evictedAt, lines[len(lines)-1])
	}
	if !traceSays(e, engine.KubectlActor, "needs 2 healthy pods and has 2 currently") {
		t.Error("no refusal after the controller's resync says 2 healthy")
	}
	if got := podsOn(e, "default", "node-1"); len(got) != 0 {
		t.Errorf("node-1 still runs %v", got)
	}
	if got := pdbNumbers(getPDB(t, e, "web-pdb")); got != `expected 3 desired 2 current 3 allowed 1; True SufficientPods ""` {
		t.Errorf("final status %s", got)
	}
}

// pdb-blocks-forever: every eviction refused, every 5 s from 30s to
// 2m25s; at 2m30s the drain gives up with the global timeout; the pod
// never leaves node-1 and the controller says why.
func checkPDBBlocksForever(t *testing.T, e *engine.Engine, k *kubectl.Session) {
	lines := drainLines(e)
	refusals := 0
	for _, l := range lines {
		if strings.Contains(l, "(will retry after 5s)") && strings.Contains(l, "needs 2 healthy pods and has 2 currently") {
			refusals++
		}
	}
	last := lines[len(lines)-1]
	if refusals != 24 || !strings.HasPrefix(last, "150.000s: ") || !strings.Contains(last, `global timeout reached: 2m0s`) || !strings.Contains(last, "There are pending nodes to be drained") {
		t.Errorf("%d refusals, last line %q", refusals, last)
	}
	if got := podsOn(e, "default", "node-1"); len(got) != 1 {
		t.Errorf("node-1 runs %v, want its one web pod", got)
	}
	if !getNode(t, e, "node-1").Spec.Unschedulable {
		t.Error("node-1 is not left cordoned")
	}
	if got := pdbNumbers(getPDB(t, e, "web-pdb")); got != `expected 2 desired 2 current 2 allowed 0; False InsufficientPods ""` {
		t.Errorf("status %s", got)
	}
	if !traceSays(e, "disruption-controller", "none to spare, so it allows no disruption now or ever") {
		t.Error("the disruption controller never says the budget can never allow a disruption")
	}
	res := k.Run("drain node-1 --ignore-daemonsets --timeout=10s")
	if res.Code != 1 || !strings.HasSuffix(res.Output(), "error: error when evicting pods/\""+podsOn(e, "default", "node-1")[0]+"\" -n \"default\": global timeout reached: 10s\n") {
		t.Errorf("a second drain from the console (exit %d):\n%s", res.Code, res.Output())
	}
}

// A node's failure is an involuntary disruption: the taint eviction
// controller deletes its pods after their 300 s tolerations whatever the
// budget says (it allows none here), as upstream.
func TestPDBDoesNotHoldInvoluntaryEvictions(t *testing.T) {
	e, _ := pdbSetup{Replicas: 3, Budget: "  minAvailable: 3",
		Scenario: "  seed: 2\n  nodes: {count: 2}\n  actions:\n    - {at: 10s, node: node-1, condition: Unreachable}\n"}.load(t)
	e.RunUntil(9_000)
	victims := podsOn(e, "default", "node-1")
	if len(victims) != 2 || getPDB(t, e, "web-pdb").Status.DisruptionsAllowed != 0 {
		t.Fatalf("node-1 runs %v; pdb %s", victims, pdbNumbers(getPDB(t, e, "web-pdb")))
	}
	e.RunUntil(420_000)
	deleted := map[string]bool{}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if p, ok := eff.After.(*api.Pod); ok && tk.Component == engine.TaintEvictionController && p.DeletionTimestamp != nil {
				deleted[p.Name] = true
			}
		}
	}
	for _, v := range victims {
		if !deleted[v] {
			t.Errorf("the taint eviction controller did not delete %s (deleted %v)", v, deleted)
		}
	}
}
