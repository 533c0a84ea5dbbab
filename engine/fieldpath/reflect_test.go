package fieldpath

import (
	"reflect"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// Paths end at the API types that read as one value, and only there.
func TestLeaf(t *testing.T) {
	for _, tc := range []struct {
		v    any
		leaf bool
	}{
		{api.Time{}, true}, {api.Quantity{}, true}, {api.IntOrString{}, true},
		{api.ObjectMeta{}, false}, {api.PodSpec{}, false}, {api.Pod{}, false}, {api.ContainerStateTerminated{}, false},
		{"", false}, {int32(0), false},
	} {
		if got := Leaf(reflect.TypeOf(tc.v)); got != tc.leaf {
			t.Errorf("Leaf(%T) = %v, want %v", tc.v, got, tc.leaf)
		}
	}
}

// A field's name is its JSON name; an embedded TypeMeta is inline.
func TestName(t *testing.T) {
	pod := reflect.TypeOf(api.Pod{})
	for i := 0; i < pod.NumField(); i++ {
		f := pod.Field(i)
		name, inline := Name(f)
		switch f.Name {
		case "TypeMeta":
			if !inline {
				t.Error("a Pod's TypeMeta is inline")
			}
		case "ObjectMeta":
			if name != "metadata" || inline {
				t.Errorf("Name(ObjectMeta) = %q, %v", name, inline)
			}
		case "Spec":
			if name != "spec" || inline {
				t.Errorf("Name(Spec) = %q, %v", name, inline)
			}
		}
	}
}
