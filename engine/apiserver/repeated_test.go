package apiserver

import (
	"reflect"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// createPod stores a pod named name with one container.
func createPod(t *testing.T, s *Store, name string) *api.Pod {
	t.Helper()
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: &api.PodSpec{}}
	p.Spec.Containers = []api.Container{{Name: "web", Image: "web:1"}}
	out, err := s.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	return out.(*api.Pod)
}

// patchConditions writes conds as the pod's conditions, as the kubelet's
// status patch does, and returns the stored pod.
func patchConditions(t *testing.T, s *Store, p *api.Pod, conds []api.PodCondition) *api.Pod {
	t.Helper()
	c := *p
	c.Status.Conditions = conds
	out, err := s.PatchStatus(&c)
	if err != nil {
		t.Fatal(err)
	}
	return out.(*api.Pod)
}

// ready is a pod's conditions once it is Ready, made anew at each call
// as a kubelet makes them at each report.
func ready(sec int64) []api.PodCondition {
	at := api.At(sec * 1000)
	return []api.PodCondition{
		{Type: api.PodReady, Status: api.ConditionTrue, LastTransitionTime: at},
		{Type: api.PodScheduled, Status: api.ConditionTrue, LastTransitionTime: api.At(0)},
	}
}

// Pods whose conditions are equal share one stored list; pods whose
// lists differ in any field keep their own; what a reader sees is
// exactly what was written.
func TestPodsShareEqualConditions(t *testing.T) {
	s := newStore(t)
	a := patchConditions(t, s, createPod(t, s, "a"), ready(5))
	b := patchConditions(t, s, createPod(t, s, "b"), ready(5))
	c := patchConditions(t, s, createPod(t, s, "c"), ready(6))
	other := ready(5)
	other[0].Reason = "Other"
	d := patchConditions(t, s, createPod(t, s, "d"), other)

	if &a.Status.Conditions[0] != &b.Status.Conditions[0] {
		t.Error("pods a and b wrote equal conditions but keep two lists")
	}
	for _, p := range []*api.Pod{c, d} {
		if &a.Status.Conditions[0] == &p.Status.Conditions[0] {
			t.Errorf("pod %s shares pod a's conditions, which differ", p.Name)
		}
	}
	for _, p := range []*api.Pod{a, b, c, d} {
		if got := cap(p.Status.Conditions); got != len(p.Status.Conditions) {
			t.Errorf("pod %s: kept list has room for %d conditions, holds %d: an append would write into a shared array", p.Name, got, len(p.Status.Conditions))
		}
	}
	wants := map[string][]api.PodCondition{"a": ready(5), "b": ready(5), "c": ready(6), "d": other}
	for name, want := range wants {
		got, _ := s.Get(api.Key{Kind: api.KindPod, Namespace: "default", Name: name})
		if !reflect.DeepEqual(got.(*api.Pod).Status.Conditions, want) {
			t.Errorf("pod %s reads back %+v, want %+v", name, got.(*api.Pod).Status.Conditions, want)
		}
	}
}

// A clone of the store shares the kept lists, and a change made in one
// leaves the other's pods as they were.
func TestCloneSharesKeptConditions(t *testing.T) {
	s := newStore(t)
	a := patchConditions(t, s, createPod(t, s, "a"), ready(5))
	b := createPod(t, s, "b")
	c := s.Clone()
	bc, _ := c.Get(api.KeyOf(b))
	b2 := patchConditions(t, c, bc.(*api.Pod), ready(5))
	if &a.Status.Conditions[0] != &b2.Status.Conditions[0] {
		t.Error("the clone keeps its own copy of a list the store keeps")
	}
	if got, _ := s.Get(api.KeyOf(b)); len(got.(*api.Pod).Status.Conditions) != 0 {
		t.Errorf("a write to the clone changed the store's pod: %+v", got.(*api.Pod).Status.Conditions)
	}
}

// The kept lists are bounded: past repeatedMax distinct lists the cache
// starts over, and lists written after that are shared again.
func TestKeptConditionsAreBounded(t *testing.T) {
	r := newRepeated()
	for i := range repeatedMax + 10 {
		r.podConditions(ready(int64(i)))
		if n := len(r.conditions); n > repeatedMax {
			t.Fatalf("after %d distinct lists the cache holds %d, more than %d", i+1, n, repeatedMax)
		}
	}
	first := r.podConditions(ready(1))
	if again := r.podConditions(ready(1)); &first[0] != &again[0] {
		t.Error("a list written twice after the cache started over is kept twice")
	}
}

// Every field of a condition counts: lists that differ in one field
// alone hash apart.
func TestConditionsHashReadsEveryField(t *testing.T) {
	base := api.PodCondition{Type: "Ready", Status: "True", Reason: "r", Message: "m",
		LastProbeTime: api.At(1000), LastTransitionTime: api.At(2000)}
	changes := map[string]func(*api.PodCondition){
		"type":               func(c *api.PodCondition) { c.Type = "Initialized" },
		"status":             func(c *api.PodCondition) { c.Status = "False" },
		"reason":             func(c *api.PodCondition) { c.Reason = "s" },
		"message":            func(c *api.PodCondition) { c.Message = "n" },
		"lastProbeTime":      func(c *api.PodCondition) { c.LastProbeTime = api.At(3000) },
		"lastProbeTime set":  func(c *api.PodCondition) { c.LastProbeTime = api.Time{} },
		"lastTransitionTime": func(c *api.PodCondition) { c.LastTransitionTime = api.At(4000) },
		"moved between":      func(c *api.PodCondition) { c.Type, c.Status = "ReadyT", "rue" },
	}
	h := conditionsHash([]api.PodCondition{base})
	for name, change := range changes {
		c := base
		change(&c)
		if conditionsHash([]api.PodCondition{c}) == h {
			t.Errorf("changing the %s leaves the hash as it was", name)
		}
	}
	if conditionsHash([]api.PodCondition{base, base}) == h {
		t.Error("a list and its double hash alike")
	}
}

// A writer may reuse the list it wrote, as the kubelet reuses its room
// for every report: the store keeps its own copy, new or shared.
func TestWriterMayReuseItsConditions(t *testing.T) {
	s := newStore(t)
	room := ready(5)
	a := patchConditions(t, s, createPod(t, s, "a"), room)
	room[0].Status = api.ConditionFalse
	b := patchConditions(t, s, createPod(t, s, "b"), room)
	room[0].Reason = "Reused"
	for _, p := range []*api.Pod{a, b} {
		got, _ := s.Get(api.KeyOf(p))
		if r := got.(*api.Pod).Status.Conditions[0]; r.Reason == "Reused" || (p.Name == "a" && r.Status != api.ConditionTrue) {
			t.Errorf("pod %s changed with the writer's list: %+v", p.Name, r)
		}
	}
}
