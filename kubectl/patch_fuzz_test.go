package kubectl

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

// fuzzDeployment is the fixed Deployment FuzzPatch patches: two
// containers with ports, env and resources, tolerations, a node selector
// and a status.
func fuzzDeployment() *api.Deployment {
	replicas := int32(2)
	d := &api.Deployment{
		ObjectMeta: api.ObjectMeta{Name: "web", Namespace: "default", UID: "0b6f7a5e", ResourceVersion: "42", Generation: 3,
			CreationTimestamp: api.At(1000), Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"a": "b"}},
		Spec: api.DeploymentSpec{Replicas: &replicas, Selector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: api.PodSpec{
				NodeSelector: map[string]string{"disk": "ssd"},
				Tolerations:  []api.Toleration{{Key: "k", Operator: "Exists", Effect: "NoSchedule"}},
				Containers: []api.Container{
					{Name: "web", Image: "example/web:v1", Args: []string{"--a", "--b"},
						Ports: []api.ContainerPort{{Name: "http", ContainerPort: 8080}, {ContainerPort: 9090}},
						Env:   []api.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}},
						Resources: api.ResourceRequirements{Requests: api.ResourceList{"cpu": quantity("100m")},
							Limits: api.ResourceList{"memory": quantity("64Mi")}}},
					{Name: "sidecar", Image: "example/proxy:v1"},
				}}}},
		Status: api.DeploymentStatus{ObservedGeneration: 3, Replicas: 2, ReadyReplicas: 2,
			Conditions: []api.DeploymentCondition{{Type: "Available", Status: "True", LastUpdateTime: api.At(5000), LastTransitionTime: api.At(5000)}}},
	}
	apiserver.ApplyDefaults(d)
	return d
}

func quantity(s string) api.Quantity {
	q, err := api.ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

// FuzzPatch: any patch text, of any type, against a fixed Deployment
// never panics; it fails with a message or yields an object with the
// Deployment's identity and status, and leaves the live object alone.
func FuzzPatch(f *testing.F) {
	for _, s := range []string{
		`{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"example/web:v2"}]}}}}`,
		`spec: {template: {spec: {containers: [{name: web, env: [{name: B, value: "3"}, {name: C, $patch: delete}]}]}}}`,
		`{"spec":{"template":{"spec":{"containers":[{"$patch":"replace"},{"name":"x"}],"$setElementOrder/containers":[{"name":"x"}]}}}}`,
		`{"metadata":{"labels":{"app":null},"$retainKeys":["labels"]},"spec":{"template":{"spec":{"$deleteFromPrimitiveList/tolerations":[1]}}}}`,
		`[{"op":"add","path":"/metadata/labels/a~1b","value":"c"},{"op":"remove","path":"/spec/template/spec/containers/-1"}]`,
		`[{"op":"move","from":"/spec/template","path":"/spec/template/spec"},{"op":"copy","from":"/status","path":"/spec"}]`,
		`[{"op":"replace","path":"","value":[1]}]`, `[{"op":"test","path":"/spec/replicas"}]`,
		`{"spec":{"replicas":"abc","minReadySeconds":1.5,"template":{"metadata":{"creationTimestamp":7}}}}`,
		`{"metadata":{"name":"x","uid":"y","resourceVersion":null}}`, `{"status":{"replicas":9}}`,
		`a: &x [*x]`, `{bad`, `null`, `[1,`, `- a: b`, `a: .inf`, `{"a":{"$patch":"frob"}}`, ``,
	} {
		for typ := range uint8(3) {
			f.Add(s, typ)
		}
	}
	f.Fuzz(func(t *testing.T, text string, typ uint8) {
		kind := patchTypes[int(typ)%len(patchTypes)]
		live := fuzzDeployment()
		before, _ := json.Marshal(live)
		body, err := clientPatch(text)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: an empty client error", text)
			}
			return
		}
		req, err := patchRequest(kind, body)
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatalf("%s %q: an empty request error", kind, text)
			}
			return
		}
		next, warnings, err := patchObject(live, kind, req)
		if after, _ := json.Marshal(live); !bytes.Equal(before, after) {
			t.Fatalf("%s %q changed the live object", kind, text)
		}
		for _, w := range warnings {
			if !strings.HasPrefix(w, "unknown field ") {
				t.Fatalf("%s %q: warning %q", kind, text, w)
			}
		}
		if err != nil {
			if strings.TrimSpace(err.Error()) == "" {
				t.Fatalf("%s %q: an empty error", kind, text)
			}
			return
		}
		if next == nil {
			return // no change
		}
		d, ok := next.(*api.Deployment)
		if !ok {
			t.Fatalf("%s %q: a %T", kind, text, next)
		}
		if d.Name != "web" || d.Namespace != "default" || d.UID != live.UID || d.ResourceVersion == "" ||
			d.TypeMeta != live.TypeMeta || !reflect.DeepEqual(d.Status, live.Status) {
			t.Fatalf("%s %q: the patched object's identity, type or status changed: %+v", kind, text, d.ObjectMeta)
		}
		if _, err := json.Marshal(d); err != nil {
			t.Fatalf("%s %q: %v", kind, text, err)
		}
	})
}
