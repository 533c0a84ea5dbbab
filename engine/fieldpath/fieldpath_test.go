package fieldpath

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Paths built with Child, Item and Index split back into their segments.
func TestRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string
	}{
		{Child(Child("", "spec"), "replicas"), []string{"spec", "replicas"}},
		{Child(Child("", "metadata"), "labels"), []string{"metadata", "labels"}},
		{Child("metadata.labels", "app.kubernetes.io/name"), []string{"metadata", "labels", "app.kubernetes.io/name"}},
		{Child("metadata.annotations", `we"ird]key`), []string{"metadata", "annotations", `we"ird]key`}},
		{Child(Item("status.conditions", "Available"), "status"), []string{"status", "conditions", "Available", "status"}},
		{Child(Index("spec.containers", 0), "image"), []string{"spec", "containers", "0", "image"}},
		{Child("", "a.b"), []string{"a.b"}},
	} {
		if got := Split(tc.path); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Split(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
	if got := Child("metadata.labels", "app.kubernetes.io/name"); got != `metadata.labels["app.kubernetes.io/name"]` {
		t.Errorf("Child quotes a key with dots as %s", got)
	}
}

func TestLookup(t *testing.T) {
	var obj any
	doc := `{"spec":{"containers":[{"name":"web","image":"nginx"}]},
		"metadata":{"labels":{"app.kubernetes.io/name":"web"}},
		"status":{"replicas":3,"conditions":[{"type":"Available","status":"True"}]}}`
	if err := json.Unmarshal([]byte(doc), &obj); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		want any
		ok   bool
	}{
		{"status.replicas", 3.0, true},
		{"status.conditions[Available].status", "True", true},
		{"spec.containers[web].image", "nginx", true},
		{"spec.containers[0].image", "nginx", true},
		{`metadata.labels["app.kubernetes.io/name"]`, "web", true},
		{"status.conditions[Progressing].status", nil, false},
		{"spec.containers[1]", nil, false},
		{"status.replicas.x", nil, false},
		{"status.missing", nil, false},
	} {
		got, ok := Lookup(obj, tc.path)
		if ok != tc.ok || got != tc.want {
			t.Errorf("Lookup(%s) = %v, %v; want %v, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct {
		path, field string
		want        bool
	}{
		{"status.replicas", "status.replicas", true},
		{"status.conditions[Ready].status", "status.conditions", true},
		{"status.conditions[Ready].status", "status.conditions[Ready]", true},
		{"status.replicasX", "status.replicas", false},
		{"status", "status.replicas", false},
	} {
		if got := Within(tc.path, tc.field); got != tc.want {
			t.Errorf("Within(%q, %q) = %v", tc.path, tc.field, got)
		}
	}
}
