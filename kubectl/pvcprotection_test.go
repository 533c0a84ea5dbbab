package kubectl_test

import (
	"strings"
	"testing"
)

// Storage object in use protection: a claim carries the pvc-protection
// finalizer; deleted while web-0 mounts it, it stays Terminating; once
// the pod is gone, the pvc-protection-controller lets it go.
func TestClaimInUseIsProtected(t *testing.T) {
	s := stsSession(t)
	if got := run(t, s, "describe pvc www-web-0").Stdout; !strings.Contains(got, "Finalizers:    [kubernetes.io/pvc-protection]\n") {
		t.Errorf("describe pvc:\n%s", got)
	}
	if res := run(t, s, "delete pvc www-web-0"); res.Code != 0 {
		t.Fatalf("%+v", res)
	}
	s.Cluster.RunUntil(s.Cluster.Now() + 30_000)
	if got := run(t, s, "get pvc www-web-0").Stdout; !strings.Contains(got, "Terminating") {
		t.Fatalf("a claim web-0 mounts, 30 s after its deletion:\n%s", got)
	}
	if got := run(t, s, "describe pvc www-web-0").Stdout; !strings.Contains(got, "Status:        Terminating (lasts 30s)\n") || !strings.Contains(got, "Used By:       web-0\n") {
		t.Errorf("describe the protected claim:\n%s", got)
	}
	// The StatefulSet would recreate web-0 with the same claim: delete it
	// first, then its pod.
	run(t, s, "delete sts web --cascade=orphan")
	if res := run(t, s, "delete pod web-0"); res.Code != 0 {
		t.Fatalf("%+v", res)
	}
	s.Cluster.RunUntil(s.Cluster.Now() + 60_000)
	if res := run(t, s, "get pvc www-web-0"); !strings.Contains(res.Stderr, `persistentvolumeclaims "www-web-0" not found`) {
		t.Errorf("the claim once its pod is gone: %+v", res)
	}
}
