package controllerutil

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// The pod-template-hash has the upstream format: one safe character per
// decimal digit of the FNV-32 sum, and the collision count changes it.
func TestComputeHashFormat(t *testing.T) {
	tpl := &api.PodTemplateSpec{ObjectMeta: api.ObjectMeta{Labels: map[string]string{"app": "web"}}, Spec: api.PodSpec{Containers: []api.Container{{Name: "web", Image: "nginx:1.25"}}}}
	h := ComputeHash(tpl, nil)
	if len(h) < 1 || len(h) > 10 {
		t.Fatalf("hash %q", h)
	}
	for _, c := range h {
		if !strings.ContainsRune("bcdfghjklmnpqrstvwxz2456789", c) {
			t.Fatalf("hash %q has %q outside the safe alphabet", h, c)
		}
	}
	if ComputeHash(tpl, api.Int32(1)) == h {
		t.Error("collisionCount must change the hash")
	}
	if ComputeHash(tpl, nil) != h {
		t.Error("hash must be stable")
	}
}

// SafeEncodeString keeps the length and maps digits as apimachinery's
// util/rand does ('0' is byte 48, 48 mod 27 = 21, the alphabet's '4').
func TestSafeEncodeString(t *testing.T) {
	if got := SafeEncodeString("0123"); got != "4567" {
		t.Errorf("SafeEncodeString(\"0123\") = %q, want \"4567\"", got)
	}
}
