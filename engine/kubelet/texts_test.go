package kubelet

import (
	"testing"
	"unsafe"
)

// A kubelet's texts are the strings it wrote before, word for word, and
// one copy each: asked twice (or by a clone, which shares them) they give
// the same string, not an equal one.
func TestTextsAreMadeOnce(t *testing.T) {
	k := New("node-1", "10.0.0.1", "10.244.1.0/24", nil)
	clone := k.Clone().(*Kubelet)
	for _, tc := range []struct {
		name string
		of   func(*texts) string
		want string
	}{
		{"pulling", func(t *texts) string { return t.pulling("web:1") }, `Pulling image "web:1"`},
		{"created", func(t *texts) string { return t.created("web") }, "Created container: web"},
		{"started", func(t *texts) string { return t.started("web") }, "Started container web"},
		{"stopping", func(t *texts) string { return t.stopping("web") }, "Stopping container web"},
		{"field path", func(t *texts) string { return t.fieldPath("web") }, "spec.containers{web}"},
		{"image ID", func(t *texts) string { return t.imageID("web:1") }, imageID("web:1")},
		{"unready", func(t *texts) string { return t.unready("web sidecar") }, "containers with unready status: [web sidecar]"},
		{"pod IP", func(t *texts) string { return t.ip(k.ipPrefix, 17) }, "10.244.1.17"},
	} {
		first, again, cloned := tc.of(k.texts), tc.of(k.texts), tc.of(clone.texts)
		if first != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, first, tc.want)
		}
		if unsafe.StringData(again) != unsafe.StringData(first) || unsafe.StringData(cloned) != unsafe.StringData(first) {
			t.Errorf("%s: asked again or by a clone, a new copy of %q", tc.name, first)
		}
	}
	if a, b := k.texts.started("web"), k.texts.started("sidecar"); a == b {
		t.Errorf("two containers share the message %q", a)
	}
}
