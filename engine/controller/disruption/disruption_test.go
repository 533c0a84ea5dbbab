package disruption

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/trace"
)

// fakeTick is a reconcile.Tick that keeps every status write, or refuses
// them with updateErr.
type fakeTick struct {
	now       int64
	writes    []api.Object
	events    []string
	updateErr error
}

func (f *fakeTick) Now() int64       { return f.now }
func (f *fakeTick) Rand() *rand.Rand { return rand.New(rand.NewPCG(1, 2)) }
func (f *fakeTick) Create(_ trace.Class, o api.Object, _ string) (api.Object, error) {
	return nil, fmt.Errorf("unexpected create of %s", api.KeyOf(o))
}
func (f *fakeTick) Update(_ trace.Class, o api.Object, _ string) (api.Object, error) {
	return nil, fmt.Errorf("unexpected update of %s", api.KeyOf(o))
}
func (f *fakeTick) UpdateStatus(_ trace.Class, o api.Object, _ string) (api.Object, error) {
	if f.updateErr != nil {
		return nil, f.updateErr
	}
	f.writes = append(f.writes, o)
	return o, nil
}
func (f *fakeTick) PatchStatus(c trace.Class, o api.Object, s string) (api.Object, error) {
	return f.UpdateStatus(c, o, s)
}
func (f *fakeTick) Delete(trace.Class, api.Key, apiserver.DeleteOptions, string) error { return nil }
func (f *fakeTick) Bind(*api.Pod, string, string) error                                { return nil }
func (f *fakeTick) LiveGet(api.Key) (api.Object, bool)                                 { return nil, false }
func (f *fakeTick) LiveList(string, string) []api.Object                               { return nil }
func (f *fakeTick) Event(_ api.Object, _, typ, reason, msg string) {
	f.events = append(f.events, typ+" "+reason+" "+msg)
}
func (f *fakeTick) Read(api.Object)          {}
func (f *fakeTick) Program(trace.RuleChange) {}
func (f *fakeTick) Explain(string, ...any)   {}

// jobBudget is a controller whose cache holds PDB web-pdb
// (maxUnavailable 1) over one running pod of Job pi: a Job has no scale
// subresource, so the expected pod count cannot be computed.
func jobBudget() (*Controller, api.Key) {
	one := api.FromInt(1)
	pdb := &api.PodDisruptionBudget{ObjectMeta: api.ObjectMeta{Name: "web-pdb", Namespace: "default", UID: "pdb-uid", Generation: 1},
		Spec: api.PodDisruptionBudgetSpec{MaxUnavailable: &one, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	job := &api.Job{ObjectMeta: api.ObjectMeta{Name: "pi", Namespace: "default", UID: "job-uid"}}
	pod := &api.Pod{ObjectMeta: api.ObjectMeta{Name: "pi-abcde", Namespace: "default", UID: "pod-uid", Labels: map[string]string{"app": "web"},
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(job, "batch/v1")}}, Spec: &api.PodSpec{}}
	pod.Status.Phase = api.PodRunning
	c := New()
	v := apiserver.EmptyVersion().With(pdb).With(pod)
	c.Informer.Apply(apiserver.WatchEvent{Type: apiserver.Added, Object: pdb, Version: v})
	c.Informer.Apply(apiserver.WatchEvent{Type: apiserver.Added, Object: pod, Version: v})
	return c, api.KeyOf(pdb)
}

// Upstream's sync returns failSafe's result (disruption.go:719, `return
// dc.failSafe(ctx, pdb, err)`): once the SyncFailed status is written,
// the sync succeeded and the key is forgotten, not retried with backoff.
func TestFailSafeWrittenEndsTheSync(t *testing.T) {
	c, k := jobBudget()
	f := &fakeTick{now: 10_000}
	if _, err := c.Reconcile(f, k); err != nil {
		t.Fatalf("sync returned %v; upstream returns failSafe's nil once its write went through", err)
	}
	if len(f.writes) != 1 {
		t.Fatalf("%d status writes, want failSafe's one", len(f.writes))
	}
	st := f.writes[0].(*api.PodDisruptionBudget).Status
	cond := api.FindCondition(st.Conditions, api.DisruptionAllowedCondition)
	if st.DisruptionsAllowed != 0 || cond == nil || cond.Reason != api.SyncFailedReason || cond.Message != "jobs.batch does not implement the scale subresource" {
		t.Fatalf("status %+v, want disruptionsAllowed 0 and DisruptionAllowed False SyncFailed with the finder's error", st)
	}
	want := "Warning CalculateExpectedPodCountFailed Failed to calculate the number of expected pods: jobs.batch does not implement the scale subresource"
	if len(f.events) != 1 || f.events[0] != want {
		t.Fatalf("events %q, want %q", f.events, want)
	}
}

// When failSafe's write fails, the sync's error is that write's alone.
func TestFailSafeRefusedReturnsItsError(t *testing.T) {
	c, k := jobBudget()
	refused := &apiserver.StatusError{Reason: apiserver.ReasonConflict, Message: "conflict"}
	f := &fakeTick{now: 10_000, updateErr: refused}
	if _, err := c.Reconcile(f, k); err != refused {
		t.Fatalf("sync returned %v, want failSafe's write error %v alone", err, refused)
	}
}
