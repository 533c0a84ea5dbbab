package kubectl_test

import (
	"strings"
	"testing"
)

// The documentation's extended-resource tasks: a node advertises four
// dongles; a pod asking for three runs, and describe node counts them
// against the four; a second pod asking for two stays Pending with the
// scheduler's "Insufficient example.com/dongle", and is scheduled once
// the first is deleted.
func TestExtendedResources(t *testing.T) {
	e, s := docSession(t, "extended-resources.yaml")
	e.RunUntil(10_000)
	if got := run(t, s, "get pod extended-resource-demo"); !strings.Contains(got.Stdout, "Running") {
		t.Fatalf("the first pod:\n%s%s", got.Stdout, got.Stderr)
	}
	node := run(t, s, "describe node minikube-1").Stdout
	for _, want := range []string{
		"Capacity:\n  cpu:                 4\n  example.com/dongle:  4\n  memory:              8Gi\n  pods:                110\n",
		"Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n" +
			"  Resource            Requests  Limits\n" +
			"  --------            --------  ------\n" +
			"  cpu                 0 (0%)    0 (0%)\n" +
			"  memory              0 (0%)    0 (0%)\n" +
			"  ephemeral-storage   0 (0%)    0 (0%)\n" +
			"  example.com/dongle  3         3\n",
	} {
		if !strings.Contains(node, want) {
			t.Errorf("describe node:\n%s\nwant it to contain\n%s", node, want)
		}
	}
	s.Stdin = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: extended-resource-demo-2\nspec:\n  containers:\n  - name: extended-resource-demo-2-ctr\n    image: nginx\n    resources:\n      requests:\n        example.com/dongle: 2\n      limits:\n        example.com/dongle: 2\n"
	if got := run(t, s, "apply -f -"); got.Stdout != "pod/extended-resource-demo-2 created\n" {
		t.Fatalf("apply: %+v", got)
	}
	e.RunUntil(20_000)
	if got := run(t, s, "get pod extended-resource-demo-2"); !strings.Contains(got.Stdout, "0/1     Pending") {
		t.Errorf("the second pod:\n%s", got.Stdout)
	}
	const msg = "0/1 nodes are available: 1 Insufficient example.com/dongle. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."
	if got := run(t, s, "describe pod extended-resource-demo-2").Stdout; !strings.Contains(got, "Warning  FailedScheduling  10s   default-scheduler  "+msg+"\n") {
		t.Errorf("describe pod:\n%s\nwant the FailedScheduling event %q", got, msg)
	}
	if got := run(t, s, "delete pod extended-resource-demo"); got.Code != 0 {
		t.Fatalf("delete: %+v", got)
	}
	// A terminating pod is still listed (the describer's field selector
	// leaves out only finished pods), and still holds its dongles.
	if got := run(t, s, "describe node minikube-1").Stdout; !strings.Contains(got, "Non-terminated Pods:          (1 in total)") || !strings.Contains(got, "extended-resource-demo ") {
		t.Errorf("describe node while the first pod terminates:\n%s", got)
	}
	e.RunUntil(60_000)
	if got := run(t, s, "get pod extended-resource-demo-2 -o wide"); !strings.Contains(got.Stdout, "Running") || !strings.Contains(got.Stdout, "minikube-1") {
		t.Errorf("once the dongles are free:\n%s", got.Stdout)
	}
}
