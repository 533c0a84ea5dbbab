package refmanager

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/trace"
)

// tick records the pods written; every write succeeds. live holds the
// API server's pods (LiveGet), which may be newer than the cached ones.
type tick struct{ writes, live map[string]*api.Pod }

func (t *tick) Now() int64       { return 0 }
func (t *tick) Rand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
func (t *tick) Create(_ trace.Class, o api.Object, _ string) (api.Object, error) {
	return o, nil
}
func (t *tick) Update(_ trace.Class, o api.Object, _ string) (api.Object, error) {
	t.writes[o.Meta().Name] = o.(*api.Pod)
	return o, nil
}
func (t *tick) UpdateStatus(c trace.Class, o api.Object, s string) (api.Object, error) {
	return t.Update(c, o, s)
}
func (t *tick) PatchStatus(c trace.Class, o api.Object, s string) (api.Object, error) {
	return t.Update(c, o, s)
}
func (t *tick) Delete(trace.Class, api.Key, apiserver.DeleteOptions, string) error { return nil }
func (t *tick) Bind(*api.Pod, string, string) error                                { return nil }
func (t *tick) LiveGet(k api.Key) (api.Object, bool) {
	p, ok := t.live[k.Name]
	return p, ok
}
func (t *tick) LiveList(string, string) []api.Object             { return nil }
func (t *tick) Event(api.Object, string, string, string, string) {}
func (t *tick) Read(api.Object)                                  {}
func (t *tick) Explain(string, ...any)                           {}
func (t *tick) Program(trace.RuleChange)                         {}

func pod(name string, labels map[string]string, owner *api.DaemonSet) *api.Pod {
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default", Labels: labels}, Spec: &api.PodSpec{}}
	if owner != nil {
		p.OwnerReferences = []api.OwnerReference{api.NewControllerRef(owner, "apps/v1")}
	}
	return p
}

// ClaimPods keeps owned pods that match, adopts matching orphans (not
// when the owner or the orphan is being deleted, nor a non-member),
// and releases owned pods that no longer match.
func TestClaimPods(t *testing.T) {
	ds := &api.DaemonSet{TypeMeta: api.TypeMeta{Kind: api.KindDaemonSet}, ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default", UID: "u1"}}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}
	app := map[string]string{"app": "agent"}
	now := api.At(5)
	deleting := pod("orphan-deleting", app, nil)
	deleting.DeletionTimestamp = &now
	owned := []*api.Pod{pod("keep", app, ds), pod("relabelled", map[string]string{"app": "debug"}, ds)}
	orphans := []*api.Pod{pod("adopt", app, nil), pod("other", map[string]string{"app": "web"}, nil), deleting, pod("not-a-member", app, nil)}
	tk := &tick{writes: map[string]*api.Pod{}, live: map[string]*api.Pod{}}
	for _, p := range append(slices.Clone(owned), orphans...) {
		tk.live[p.Name] = p
	}
	// The API server's copy of the orphan is newer than the cached one
	// (the scheduler bound it since): the adoption patches that one.
	bound := orphans[0].DeepCopy()
	bound.Spec.NodeName = "node-1"
	tk.live["adopt"] = bound
	got, err := ClaimPods(tk, ds, sel, owned, orphans, func(p *api.Pod) bool { return p.Name != "not-a-member" })
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range got {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"adopt", "keep"}) {
		t.Errorf("claimed %v, want [adopt keep]", names)
	}
	if ref := tk.writes["adopt"].ControllerRef(); ref == nil || ref.UID != "u1" || ref.Kind != api.KindDaemonSet {
		t.Errorf("adopted pod's owners: %+v", tk.writes["adopt"].OwnerReferences)
	}
	if tk.writes["adopt"].Spec.NodeName != "node-1" {
		t.Error("the adoption wrote the stale cached pod, not a patch of the API server's")
	}
	if r, ok := tk.writes["relabelled"]; !ok || len(r.OwnerReferences) != 0 {
		t.Errorf("the relabelled pod is not released: %+v", r)
	}
	if len(tk.writes) != 2 {
		t.Errorf("wrote %d pods, want the adoption and the release only", len(tk.writes))
	}
	// An owner being deleted adopts nothing.
	gone := *ds
	gone.DeletionTimestamp = &now
	tk = &tick{writes: map[string]*api.Pod{}, live: tk.live}
	got, _ = ClaimPods(tk, &gone, sel, nil, []*api.Pod{pod("adopt", app, nil)}, nil)
	if len(got) != 0 || len(tk.writes) != 0 {
		t.Errorf("an owner being deleted claimed %d pods", len(got))
	}
}

// An owner being deleted releases nothing; an orphan another controller
// adopted in the meantime (the API server's pod has its reference) is
// refused as the API server refuses a second controller, and the other
// pods are still claimed.
func TestClaimPodsRace(t *testing.T) {
	ds := &api.DaemonSet{TypeMeta: api.TypeMeta{Kind: api.KindDaemonSet}, ObjectMeta: api.ObjectMeta{Name: "agent", Namespace: "default", UID: "u1"}}
	other := &api.DaemonSet{TypeMeta: api.TypeMeta{Kind: api.KindDaemonSet}, ObjectMeta: api.ObjectMeta{Name: "rival", Namespace: "default", UID: "u2"}}
	sel := &api.LabelSelector{MatchLabels: map[string]string{"app": "agent"}}
	app := map[string]string{"app": "agent"}
	now := api.At(5)

	gone := *ds
	gone.DeletionTimestamp = &now
	relabelled := pod("relabelled", map[string]string{"app": "debug"}, ds)
	tk := &tick{writes: map[string]*api.Pod{}, live: map[string]*api.Pod{"relabelled": relabelled}}
	got, err := ClaimPods(tk, &gone, sel, []*api.Pod{relabelled}, nil, nil)
	if err != nil || len(got) != 0 || len(tk.writes) != 0 {
		t.Errorf("an owner being deleted: claimed %d, wrote %d, %v", len(got), len(tk.writes), err)
	}

	taken, free := pod("taken", app, nil), pod("free", app, nil)
	tk = &tick{writes: map[string]*api.Pod{}, live: map[string]*api.Pod{"taken": pod("taken", app, other), "free": free}}
	got, err = ClaimPods(tk, ds, sel, nil, []*api.Pod{taken, free}, nil)
	if err == nil || !strings.Contains(err.Error(), `only one reference can have Controller set to true. Found "true" in references for DaemonSet/rival and DaemonSet/agent`) {
		t.Errorf("adopting a pod another controller took: %v", err)
	}
	if len(got) != 1 || got[0].Name != "free" || tk.writes["taken"] != nil {
		t.Errorf("claimed %v, wrote %v", got, tk.writes)
	}
}
