package apiserver

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// A pod's versions share one spec until a write changes it: a status
// report and a label change keep the stored spec, binding gives the pod
// a spec of its own with spec.nodeName set, and no write changes a spec
// an earlier version holds.
func TestPodVersionsShareTheirSpec(t *testing.T) {
	s := newStore(t)
	tmpl := &api.PodSpec{Containers: []api.Container{{Name: "web", Image: "web:1"}}}
	o, err := s.Create(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "web-1", Namespace: "default", Labels: map[string]string{"app": "web"}}, Spec: tmpl})
	if err != nil {
		t.Fatal(err)
	}
	created := o.(*api.Pod)
	if created.Spec == tmpl || tmpl.ServiceAccountName != "" || tmpl.RestartPolicy != "" {
		t.Fatalf("admission changed the spec it was given: %+v", tmpl)
	}
	o, err = s.Bind(api.KeyOf(created), created.UID, "node-1")
	if err != nil {
		t.Fatal(err)
	}
	bound := o.(*api.Pod)
	if bound.Spec == created.Spec || created.Spec.NodeName != "" || bound.Spec.NodeName != "node-1" {
		t.Fatalf("binding: created spec.nodeName %q (own spec %v), bound %q", created.Spec.NodeName, bound.Spec != created.Spec, bound.Spec.NodeName)
	}
	report := *bound // what a kubelet sends: the stored pod with a new status
	report.Status.Phase = api.PodRunning
	o, err = s.PatchStatus(&report)
	if err != nil {
		t.Fatal(err)
	}
	running := o.(*api.Pod)
	relabel := *running // kubectl label: a shallow copy, new labels
	relabel.Labels = map[string]string{"app": "web", "tier": "front"}
	relabel.Spec = &api.PodSpec{}
	*relabel.Spec = *running.Spec
	relabel.Spec.NodeName = "" // a client that leaves spec.nodeName out keeps the stored one
	o, err = s.Update(&relabel)
	if err != nil {
		t.Fatal(err)
	}
	relabeled := o.(*api.Pod)
	if running.Spec != bound.Spec {
		t.Error("a status report copied the spec")
	}
	if relabeled.Spec.NodeName != "node-1" || running.Spec.NodeName != "node-1" {
		t.Errorf("update: spec.nodeName %q, the earlier version's %q", relabeled.Spec.NodeName, running.Spec.NodeName)
	}
	if relabeled.Generation != running.Generation {
		t.Errorf("a label change moved metadata.generation %d -> %d", running.Generation, relabeled.Generation)
	}
}

// A pod with no spec at all is refused with the field it lacks, like any
// other invalid pod, and nothing panics on the way.
func TestPodWithoutSpecIsInvalid(t *testing.T) {
	s := newStore(t)
	_, err := s.Create(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "bare", Namespace: "default"}})
	if err == nil || !strings.Contains(err.Error(), "spec.containers: Required value") {
		t.Fatalf("create: %v", err)
	}
	if err := DryRun(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "bare"}}, nil); err == nil || !strings.Contains(err.Error(), "spec.containers: Required value") {
		t.Fatalf("dry run: %v", err)
	}
	ApplyDefaults(&api.Pod{}) // gives the pod an empty spec to default
	if err := Validate(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "bare", Namespace: "default"}}); err == nil {
		t.Fatal("validate: no error")
	}
}
