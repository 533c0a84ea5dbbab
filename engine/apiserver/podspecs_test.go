package apiserver

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// The pods a ReplicaSet makes from one template share one admitted spec,
// also across the ReplicaSet's status writes (which copy the template's
// spec), and the ones bound to the same node share one bound spec; a
// changed template, a pod's own spec and another node each get their own.
func TestPodsFromOneTemplateShareTheirSpec(t *testing.T) {
	s := newStore(t)
	tmpl := api.PodSpec{Containers: []api.Container{{Name: "web", Image: "web:1"}}}
	create := func(name string, spec *api.PodSpec) *api.Pod {
		t.Helper()
		o, err := s.Create(&api.Pod{ObjectMeta: api.ObjectMeta{Name: name, Namespace: "default"}, Spec: spec})
		if err != nil {
			t.Fatal(err)
		}
		return o.(*api.Pod)
	}
	bind := func(p *api.Pod, node string) *api.Pod {
		t.Helper()
		o, err := s.Bind(api.KeyOf(p), p.UID, node)
		if err != nil {
			t.Fatal(err)
		}
		return o.(*api.Pod)
	}
	a := create("a", &tmpl)
	copied := tmpl // a ReplicaSet's status write: a new spec struct, the same parts
	b := create("b", &copied)
	if a.Spec != b.Spec {
		t.Error("two pods of one template hold two admitted specs")
	}
	if a.Spec.ServiceAccountName != "default" || tmpl.ServiceAccountName != "" {
		t.Errorf("admission: service account %q, the template's %q", a.Spec.ServiceAccountName, tmpl.ServiceAccountName)
	}
	changed := tmpl
	changed.Containers = []api.Container{{Name: "web", Image: "web:2"}}
	c := create("c", &changed)
	if c.Spec == a.Spec || c.Spec.Containers[0].Image != "web:2" {
		t.Errorf("a new template's pod holds %+v", c.Spec.Containers)
	}
	a1, b1, c1 := bind(a, "node-1"), bind(b, "node-1"), bind(c, "node-1")
	if a1.Spec != b1.Spec || a1.Spec.NodeName != "node-1" {
		t.Error("two pods of one template bound to one node hold two specs")
	}
	if c1.Spec == a1.Spec || c1.Spec.Containers[0].Image != "web:2" {
		t.Error("pods of two templates share a bound spec")
	}
	d := bind(create("d", &tmpl), "node-2")
	if d.Spec == a1.Spec || d.Spec.NodeName != "node-2" || a.Spec.NodeName != "" {
		t.Errorf("node-2's pod: spec.nodeName %q (shared with node-1's: %v); the admitted spec's %q", d.Spec.NodeName, d.Spec == a1.Spec, a.Spec.NodeName)
	}
}

// sameSpec tells apart two specs that differ in any one field: each
// field of PodSpec, set in turn, makes a spec not the same as the empty
// one. A field added to PodSpec and not to sameSpec fails here.
func TestSameSpecLooksAtEveryField(t *testing.T) {
	typ := reflect.TypeOf(api.PodSpec{})
	for i := range typ.NumField() {
		f := typ.Field(i)
		var spec api.PodSpec
		v := reflect.ValueOf(&spec).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString("x")
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		case reflect.Map:
			m := reflect.MakeMap(v.Type())
			m.SetMapIndex(reflect.ValueOf("k"), reflect.ValueOf("v"))
			v.Set(m)
		case reflect.Pointer:
			v.Set(reflect.New(v.Type().Elem()))
		default:
			t.Fatalf("PodSpec.%s is a %s: teach sameSpec and this test about it", f.Name, v.Kind())
		}
		if sameSpec(&api.PodSpec{}, &spec) || sameSpec(&spec, &api.PodSpec{}) {
			t.Errorf("sameSpec does not look at PodSpec.%s", f.Name)
		}
		if !sameSpec(&spec, &spec) {
			t.Errorf("a spec with PodSpec.%s set is not the same as itself", f.Name)
		}
	}
}

// An indexed Job's pods differ only in their hostnames: each gets its own
// spec, and the specs kept for one set of containers stay few.
func TestIndexedPodsKeepTheirHostnames(t *testing.T) {
	s := newStore(t)
	containers := []api.Container{{Name: "c", Image: "busybox"}}
	for i := range 3 * admittedPerContainers {
		spec := &api.PodSpec{Containers: containers, Hostname: fmt.Sprintf("pi-%d", i), RestartPolicy: "Never"}
		o, err := s.Create(&api.Pod{ObjectMeta: api.ObjectMeta{Name: fmt.Sprintf("pi-%d", i), Namespace: "default"}, Spec: spec})
		if err != nil {
			t.Fatal(err)
		}
		if got := o.(*api.Pod).Spec.Hostname; got != spec.Hostname {
			t.Fatalf("pod %d has hostname %q", i, got)
		}
	}
	for k, kept := range s.specs.admitted {
		if len(kept) > admittedPerContainers {
			t.Errorf("%d specs kept for containers %v", len(kept), k)
		}
	}
}
