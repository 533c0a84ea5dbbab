package fieldpath

import (
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
