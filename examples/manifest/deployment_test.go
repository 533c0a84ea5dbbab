package manifest

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/scenario"
)

// What the builder writes is the Deployment it describes, as the
// scenario loader reads it, with its extra spec and container lines.
func TestDeploymentParses(t *testing.T) {
	d := Deployment{Name: "flappy", Replicas: 4, Container: "web", Image: "flappy:1",
		Spec:  "  minReadySeconds: 3\n",
		Lines: ReadinessEvery5s + Requests("10m", "16Mi")}
	sc, err := scenario.Parse([]byte(d.YAML()))
	if err != nil {
		t.Fatalf("%v\n%s", err, d.YAML())
	}
	if len(sc.Objects) != 1 {
		t.Fatalf("%d objects, want 1", len(sc.Objects))
	}
	got, ok := sc.Objects[0].(*api.Deployment)
	if !ok {
		t.Fatalf("parsed a %T", sc.Objects[0])
	}
	c := got.Spec.Template.Spec.Containers[0]
	switch {
	case got.Name != "flappy" || got.Replicas() != 4 || got.Spec.MinReadySeconds != 3:
		t.Errorf("deployment %s replicas %d minReadySeconds %d", got.Name, got.Replicas(), got.Spec.MinReadySeconds)
	case got.Spec.Selector.MatchLabels["app"] != "flappy" || got.Spec.Template.Labels["app"] != "flappy":
		t.Errorf("selector %v, template labels %v", got.Spec.Selector, got.Spec.Template.Labels)
	case c.Name != "web" || c.Image != "flappy:1" || c.ReadinessProbe == nil || c.ReadinessProbe.PeriodSeconds != 5:
		t.Errorf("container %+v", c)
	case c.Resources.Requests["cpu"].String() != "10m":
		t.Errorf("requests %v", c.Resources.Requests)
	}
	if len(sc.Warnings) > 0 {
		t.Errorf("warnings: %v", sc.Warnings)
	}
}
