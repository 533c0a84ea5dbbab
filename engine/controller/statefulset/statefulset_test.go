package statefulset_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
)

func scenario(replicas int, policy, strategy string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  replicas: %d
  podManagementPolicy: %s
  updateStrategy: %s
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: "db:1", resources: {requests: {cpu: 1m, memory: 1Mi}}}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 4
  nodes: {count: 3}
  images:
    "db:1": {pull: 1s, start: 1s, ready: 1s}
    "db:2": {pull: 1s, start: 1s, ready: 1s}
    "db:bad": {pullError: "manifest unknown"}
`, replicas, policy, strategy)
}

func settle(t *testing.T, e *engine.Engine) {
	t.Helper()
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
}

// act runs f as a kubectl tick on the set.
func act(t *testing.T, e *engine.Engine, f func(*api.StatefulSet)) {
	t.Helper()
	key := api.Key{Kind: api.KindStatefulSet, Namespace: "default", Name: "db"}
	tk := e.Act(engine.KubectlActor, key, func(tick reconcile.Tick) error {
		o, _ := tick.LiveGet(key)
		set := o.(*api.StatefulSet).DeepCopy()
		f(set)
		_, err := tick.Update(trace.Translate, set, "edit")
		return err
	})
	if tk.Err() != "" {
		t.Fatal(tk.Err())
	}
}

// events lists the set's pod and claim Events in order.
func events(e *engine.Engine, from int) []string {
	var out []string
	for _, tk := range e.Trace()[from-e.FirstTick():] {
		for _, eff := range tk.Effects {
			if ev, ok := api.EventOf(eff.After); ok && eff.Op == trace.Create && ev.InvolvedObject.Kind == api.KindStatefulSet {
				out = append(out, ev.Message)
			}
		}
	}
	return out
}

// readyAt is when each pod first turned Ready, from the trace.
func readyAt(e *engine.Engine) map[string]int64 {
	out := map[string]int64{}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if p, ok := eff.After.(*api.Pod); ok && api.IsPodReady(p) {
				if _, seen := out[p.Name]; !seen {
					out[p.Name] = tk.Time
				}
			}
		}
	}
	return out
}

func createdAt(e *engine.Engine) map[string]int64 {
	out := map[string]int64{}
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if eff.Op == trace.Create && eff.Object.Kind == api.KindPod {
				if _, seen := out[eff.Object.Name]; !seen {
					out[eff.Object.Name] = tk.Time
				}
			}
		}
	}
	return out
}

// OrderedReady: each claim before its pod, each pod only after the one
// before it is Ready (docs/fidelity-workloads.md §3.10's Events,
// verbatim).
func TestOrderedReadyStartsInOrder(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(3, "OrderedReady", "{type: RollingUpdate}")))
	settle(t, e)
	want := []string{
		"create Claim data-db-0 Pod db-0 in StatefulSet db success", "create Pod db-0 in StatefulSet db successful",
		"create Claim data-db-1 Pod db-1 in StatefulSet db success", "create Pod db-1 in StatefulSet db successful",
		"create Claim data-db-2 Pod db-2 in StatefulSet db success", "create Pod db-2 in StatefulSet db successful",
	}
	if got := events(e, 0); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	ready, created := readyAt(e), createdAt(e)
	for i := 1; i < 3; i++ {
		prev, cur := fmt.Sprintf("db-%d", i-1), fmt.Sprintf("db-%d", i)
		if created[cur] < ready[prev] {
			t.Errorf("%s created at %d ms, before %s was Ready at %d ms", cur, created[cur], prev, ready[prev])
		}
	}
	for _, c := range testkit.List[*api.PersistentVolumeClaim](e, api.KindPersistentVolumeClaim, "default") {
		if c.Status.Phase != api.ClaimBound || c.Labels["app"] != "db" || len(c.OwnerReferences) != 0 {
			t.Errorf("claim %s: phase %s labels %v owners %v", c.Name, c.Status.Phase, c.Labels, c.OwnerReferences)
		}
	}
	for _, p := range testkit.Pods(e, "default") {
		if p.Spec.Hostname != p.Name || p.Spec.Subdomain != "db" || p.Labels[api.LabelStatefulSetPodName] != p.Name || p.Spec.Volumes[0].PersistentVolumeClaim.ClaimName != "data-"+p.Name {
			t.Errorf("pod %s identity: hostname %q subdomain %q labels %v volumes %+v", p.Name, p.Spec.Hostname, p.Spec.Subdomain, p.Labels, p.Spec.Volumes)
		}
	}
}

// Parallel creates every pod in one sync.
func TestParallelCreatesAllAtOnce(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(3, "Parallel", "{type: RollingUpdate}")))
	settle(t, e)
	created := createdAt(e)
	if created["db-0"] != created["db-2"] {
		t.Errorf("Parallel created db-0 at %d ms and db-2 at %d ms, want one sync", created["db-0"], created["db-2"])
	}
}

// Scaling down removes the highest ordinal first, one at a time, and
// keeps the claims.
func TestScaleDownInReverseKeepsClaims(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(3, "OrderedReady", "{type: RollingUpdate}")))
	settle(t, e)
	from := e.Tick()
	act(t, e, func(s *api.StatefulSet) { s.Spec.Replicas = api.Int32(1) })
	settle(t, e)
	want := "delete Pod db-2 in StatefulSet db successful\ndelete Pod db-1 in StatefulSet db successful"
	if got := strings.Join(events(e, from), "\n"); got != want {
		t.Errorf("scale-down events:\n%s\nwant:\n%s", got, want)
	}
	if n := len(testkit.List[*api.PersistentVolumeClaim](e, api.KindPersistentVolumeClaim, "default")); n != 3 {
		t.Errorf("%d claims left, want all 3 (whenScaled: Retain)", n)
	}
}

// A rolling update replaces pods from the highest ordinal down, one at a
// time; with a partition, ordinals below it keep the old revision.
func TestRollingUpdateHighestFirstAndPartition(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(3, "OrderedReady", "{type: RollingUpdate, rollingUpdate: {partition: 1}}")))
	settle(t, e)
	from := e.Tick()
	act(t, e, func(s *api.StatefulSet) { s.Spec.Template.Spec.Containers[0].Image = "db:2" })
	settle(t, e)
	var deleted []string
	for _, m := range events(e, from) {
		if strings.HasPrefix(m, "delete Pod") {
			deleted = append(deleted, strings.Fields(m)[2])
		}
	}
	if strings.Join(deleted, ",") != "db-2,db-1" {
		t.Errorf("replaced %v, want db-2 then db-1 (partition 1 keeps db-0)", deleted)
	}
	set := testkit.List[*api.StatefulSet](e, api.KindStatefulSet, "default")[0]
	if set.Status.CurrentReplicas != 1 || set.Status.UpdatedReplicas != 2 || set.Status.CurrentRevision == set.Status.UpdateRevision {
		t.Errorf("status %+v: want 1 current, 2 updated, revisions apart while partitioned", set.Status)
	}
	for _, p := range testkit.Pods(e, "default") {
		want := "db:2"
		if p.Name == "db-0" {
			want = "db:1"
		}
		if p.Spec.Containers[0].Image != want {
			t.Errorf("%s runs %s, want %s", p.Name, p.Spec.Containers[0].Image, want)
		}
	}
}

// A broken pod blocks the rollout (§3.9): the update replaces db-2,
// whose image cannot be pulled, so it never becomes Ready, so db-1 and db-0 are never touched; reverting the
// template does not replace it either; deleting it does.
func TestBrokenPodBlocksRollout(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(3, "OrderedReady", "{type: RollingUpdate}")))
	settle(t, e)
	act(t, e, func(s *api.StatefulSet) { s.Spec.Template.Spec.Containers[0].Image = "db:bad" })
	e.RunUntil(e.Now() + 120_000)
	images := map[string]string{}
	for _, p := range testkit.Pods(e, "default") {
		images[p.Name] = p.Spec.Containers[0].Image
	}
	if images["db-2"] != "db:bad" || images["db-1"] != "db:1" || images["db-0"] != "db:1" {
		t.Fatalf("after 2 minutes: %v; want db-2 broken and the rest untouched", images)
	}
	act(t, e, func(s *api.StatefulSet) { s.Spec.Template.Spec.Containers[0].Image = "db:1" })
	e.RunUntil(e.Now() + 60_000)
	if p := podNamed(e, "db-2"); p == nil || p.Spec.Containers[0].Image != "db:bad" {
		t.Fatalf("reverting the template replaced the broken pod: %v", p)
	}
	victim := podNamed(e, "db-2")
	tk := e.Act(engine.KubectlActor, api.KeyOf(victim), func(tick reconcile.Tick) error {
		return tick.Delete(trace.Translate, api.KeyOf(victim), apiserver.DeleteOptions{}, "kubectl delete pod db-2")
	})
	if tk.Err() != "" {
		t.Fatal(tk.Err())
	}
	settle(t, e)
	for _, p := range testkit.Pods(e, "default") {
		if p.Spec.Containers[0].Image != "db:1" || !api.IsPodReady(p) {
			t.Errorf("%s: %s ready %v after the forced rollback", p.Name, p.Spec.Containers[0].Image, api.IsPodReady(p))
		}
	}
}

func podNamed(e *engine.Engine, name string) *api.Pod {
	for _, p := range testkit.Pods(e, "default") {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// Deleting a set with --cascade=orphan and creating it again (the
// StatefulSet Basics tutorial): the new set adopts the pods it finds,
// creating none and failing no sync.
func TestRecreatedSetAdoptsOrphans(t *testing.T) {
	e, _ := testkit.Load(t, []byte(scenario(3, "OrderedReady", "{type: RollingUpdate}")))
	settle(t, e)
	key := api.Key{Kind: api.KindStatefulSet, Namespace: "default", Name: "db"}
	o, _ := e.Store().Get(key)
	orig := o.(*api.StatefulSet)
	tk := e.Act(engine.KubectlActor, key, func(tick reconcile.Tick) error {
		return tick.Delete(trace.Translate, key, apiserver.DeleteOptions{Propagation: "orphan"}, "kubectl delete sts db --cascade=orphan")
	})
	if tk.Err() != "" {
		t.Fatal(tk.Err())
	}
	settle(t, e)
	if n := len(testkit.Pods(e, "default")); n != 3 {
		t.Fatalf("%d pods after the orphaning delete, want the 3 left behind", n)
	}
	from := e.Tick()
	tk = e.Act(engine.KubectlActor, key, func(tick reconcile.Tick) error {
		set := &api.StatefulSet{ObjectMeta: api.ObjectMeta{Name: "db", Namespace: "default"}, Spec: orig.DeepCopy().Spec}
		_, err := tick.Create(trace.Translate, set, "kubectl apply")
		return err
	})
	if tk.Err() != "" {
		t.Fatal(tk.Err())
	}
	settle(t, e)
	adopted := 0
	for _, tk := range e.Trace()[from-e.FirstTick():] {
		if tk.Err() != "" && tk.Component == engine.StatefulSetController {
			t.Errorf("tick %d: %s", tk.Seq, tk.Err())
		}
		for _, eff := range tk.Effects {
			if eff.Object.Kind == api.KindPod && eff.Op == trace.Create {
				t.Errorf("tick %d: created %s; the pods were there to adopt", tk.Seq, eff.Object.Name)
			}
			if strings.Contains(eff.Summary(), "adopted orphan pod/") {
				adopted++
			}
		}
	}
	if adopted != 3 {
		t.Errorf("%d pods adopted, want 3", adopted)
	}
}

// persistentVolumeClaimRetentionPolicy: with whenScaled Delete, the
// claims of scaled-away pods go with their pods; with whenDeleted
// Delete, every claim goes with the set (the garbage collector follows
// the owner references the controller writes).
func TestClaimRetentionPolicy(t *testing.T) {
	claimsLeft := func(e *engine.Engine) []string {
		var out []string
		for _, c := range testkit.List[*api.PersistentVolumeClaim](e, api.KindPersistentVolumeClaim, "default") {
			out = append(out, c.Name)
		}
		return out
	}
	withPolicy := func(policy string) string {
		return strings.Replace(scenario(3, "OrderedReady", "{type: RollingUpdate}"), "  serviceName: db\n", "  serviceName: db\n  persistentVolumeClaimRetentionPolicy: "+policy+"\n", 1)
	}
	e, _ := testkit.Load(t, []byte(withPolicy("{whenScaled: Delete}")))
	settle(t, e)
	act(t, e, func(s *api.StatefulSet) { s.Spec.Replicas = api.Int32(1) })
	settle(t, e)
	if got := strings.Join(claimsLeft(e), ","); got != "data-db-0" {
		t.Errorf("whenScaled Delete: claims %s after scaling to 1, want data-db-0", got)
	}
	e, _ = testkit.Load(t, []byte(withPolicy("{whenDeleted: Delete}")))
	settle(t, e)
	act(t, e, func(s *api.StatefulSet) { s.Spec.Replicas = api.Int32(1) })
	settle(t, e)
	if n := len(claimsLeft(e)); n != 3 {
		t.Errorf("whenDeleted Delete, whenScaled Retain: %d claims after scaling to 1, want 3", n)
	}
	key := api.Key{Kind: api.KindStatefulSet, Namespace: "default", Name: "db"}
	if tk := e.Act(engine.KubectlActor, key, func(tick reconcile.Tick) error {
		return tick.Delete(trace.Translate, key, apiserver.DeleteOptions{}, "kubectl delete sts db")
	}); tk.Err() != "" {
		t.Fatal(tk.Err())
	}
	settle(t, e)
	if got := claimsLeft(e); len(got) != 0 {
		t.Errorf("whenDeleted Delete: claims %v left after deleting the set", got)
	}
}
