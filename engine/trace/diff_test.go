package trace

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func TestDiff(t *testing.T) {
	a := &api.Deployment{ObjectMeta: api.ObjectMeta{Name: "web", ResourceVersion: "1", Annotations: map[string]string{"deployment.kubernetes.io/revision": "1"}}}
	a.Spec.Replicas = api.Int32(7)
	a.Status.Conditions = []api.DeploymentCondition{{Type: "Available", Status: "False"}, {Type: "Progressing", Status: "True"}}
	b := a.DeepCopy()
	b.ResourceVersion = "2"
	b.Spec.Replicas = api.Int32(5)
	b.Annotations["deployment.kubernetes.io/revision"] = "2"
	b.Status.Conditions = []api.DeploymentCondition{{Type: "Progressing", Status: "True"}, {Type: "Available", Status: "True"}}
	got := Diff(a, b)
	want := []Change{
		{`metadata.annotations["deployment.kubernetes.io/revision"]`, "1", "2"},
		{"spec.replicas", "7", "5"},
		{"status.conditions[Available].status", "False", "True"},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i := range want {
		if got[i].Path != want[i].Path || fmtAny(got[i].From) != want[i].From.(string) || fmtAny(got[i].To) != want[i].To.(string) {
			t.Errorf("change %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func fmtAny(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case interface{ String() string }:
		return x.String()
	}
	return ""
}
