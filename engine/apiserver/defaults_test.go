package apiserver

import (
	"encoding/json"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// A pod made from a template shares the template's containers; admission
// gives it the defaults it lacks on copies, so the template (and every
// other pod that shares it) stays as it was, and pods whose template
// lacks nothing share its containers and one slice of default
// tolerations.
func TestAdmissionLeavesWhatAPodSharesAlone(t *testing.T) {
	cpu := api.MustQuantity("100m")
	for _, tc := range []struct {
		name   string
		spec   api.PodSpec
		shares bool // the admitted pod shares the template's containers
	}{
		{"every default set", api.PodSpec{Containers: []api.Container{{Name: "web", Image: "web:1",
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: "IfNotPresent"}}}, true},
		{"container defaults missing", api.PodSpec{Containers: []api.Container{{Name: "web", Image: "web:1",
			Ports: []api.ContainerPort{{ContainerPort: 80}}}}}, false},
		{"probe defaults missing", api.PodSpec{Containers: []api.Container{{Name: "web", Image: "web:1",
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: "IfNotPresent",
			ReadinessProbe: &api.Probe{HTTPGet: &api.HTTPGetAction{Path: "/"}}}}}, false},
		{"a limit without its request", api.PodSpec{Containers: []api.Container{{Name: "web", Image: "web:1",
			TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: "File", ImagePullPolicy: "IfNotPresent",
			Resources: api.ResourceRequirements{Limits: api.ResourceList{"cpu": cpu}}}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tmpl := tc.spec
			before, _ := json.Marshal(tmpl)
			s := newStore(t)
			var pods []*api.Pod
			for range 2 {
				out, err := s.Create(&api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: "web-", Namespace: "default"}, Spec: &tmpl})
				if err != nil {
					t.Fatal(err)
				}
				pods = append(pods, out.(*api.Pod))
			}
			if after, _ := json.Marshal(tmpl); string(after) != string(before) {
				t.Errorf("admission changed the template:\nbefore %s\nafter  %s", before, after)
			}
			for _, p := range pods {
				c := p.Spec.Containers[0]
				if c.TerminationMessagePath == "" || c.ImagePullPolicy == "" || len(p.Spec.Tolerations) != 2 || p.Spec.Priority == nil {
					t.Errorf("a pod lacks its defaults: %+v", p.Spec)
				}
				for _, port := range c.Ports {
					if port.Protocol != "TCP" {
						t.Errorf("port protocol %q", port.Protocol)
					}
				}
				if pr := c.ReadinessProbe; pr != nil && (pr.PeriodSeconds != 10 || pr.HTTPGet.Scheme != "HTTP") {
					t.Errorf("probe defaults: %+v %+v", pr, pr.HTTPGet)
				}
				if lim, ok := c.Resources.Limits["cpu"]; ok && c.Resources.Requests["cpu"] != lim {
					t.Errorf("request %v, want the limit %v", c.Resources.Requests, lim)
				}
				if shared := &p.Spec.Containers[0] == &tmpl.Containers[0]; shared != tc.shares {
					t.Errorf("the pod shares the template's containers: %v, want %v", shared, tc.shares)
				}
			}
			if &pods[0].Spec.Tolerations[0] != &pods[1].Spec.Tolerations[0] {
				t.Error("two pods without tolerations of their own do not share the default ones")
			}
		})
	}
}

// A pod's own tolerations gain the defaults in a new slice, never in the
// room past the end of the one it shares.
func TestDefaultTolerationsAreAddedToACopy(t *testing.T) {
	own := make([]api.Toleration, 1, 4)
	own[0] = api.Toleration{Key: "gpu", Operator: "Exists"}
	room := own[:4]
	s := newStore(t)
	out, err := s.Create(&api.Pod{ObjectMeta: api.ObjectMeta{Name: "p", Namespace: "default"},
		Spec: &api.PodSpec{Containers: []api.Container{{Name: "c", Image: "c:1"}}, Tolerations: own}})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.(*api.Pod).Spec.Tolerations; len(got) != 3 || got[0].Key != "gpu" || got[1].Key != defaultTolerated[0] || got[2].Key != defaultTolerated[1] {
		t.Errorf("tolerations %+v", got)
	}
	if room[1] != (api.Toleration{}) {
		t.Errorf("admission wrote into the caller's array: %+v", room)
	}
}
