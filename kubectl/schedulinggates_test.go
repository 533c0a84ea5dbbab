package kubectl_test

import (
	"strings"
	"testing"
)

// The documentation's pod-scheduling-readiness walk-through: the pod is
// SchedulingGated, with the condition the API server gives it and no
// scheduling attempt; a gate may only be removed; once both are, the
// scheduler binds it and it runs.
func TestSchedulingGates(t *testing.T) {
	e, s := docSession(t, "pod-scheduling-gates.yaml")
	e.RunUntil(7_000)
	for cmd, want := range map[string]string{
		"get pod test-pod": "test-pod   0/1     SchedulingGated   0          7s\n",
		"get pod test-pod -o jsonpath={.spec.schedulingGates}":         `[{"name":"example.com/foo"},{"name":"example.com/bar"}]`,
		"get pod test-pod -o jsonpath={.status.conditions[0].reason}":  "SchedulingGated",
		"get pod test-pod -o jsonpath={.status.conditions[0].message}": "Scheduling is blocked due to non-empty scheduling gates",
		"get events -o custom-columns=REASON:.reason":                  "REASON\n", // no FailedScheduling: no attempt
	} {
		if got := run(t, s, cmd); !strings.HasSuffix(got.Stdout, want) && got.Stdout != want {
			t.Errorf("%s:\n%q\nwant it to end with %q (%s)", cmd, got.Stdout, want, got.Stderr)
		}
	}
	// A gate may be removed, not added.
	got := run(t, s, `patch pod test-pod --type=json -p='[{"op":"add","path":"/spec/schedulingGates/-","value":{"name":"example.com/baz"}}]'`)
	if !strings.Contains(got.Stderr, `The Pod "test-pod" is invalid: spec.schedulingGates[2].name: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/baz'`) {
		t.Errorf("adding a gate: %+v", got)
	}
	if got := run(t, s, `patch pod test-pod --type=json -p='[{"op":"remove","path":"/spec/schedulingGates/0"}]'`); got.Stdout != "pod/test-pod patched\n" {
		t.Fatalf("removing a gate: %+v", got)
	}
	e.RunUntil(10_000)
	if got := run(t, s, "get pod test-pod"); !strings.Contains(got.Stdout, "SchedulingGated") {
		t.Errorf("one gate left:\n%s", got.Stdout)
	}
	if got := run(t, s, `patch pod test-pod --type=json -p='[{"op":"remove","path":"/spec/schedulingGates"}]'`); got.Stdout != "pod/test-pod patched\n" {
		t.Fatalf("removing the last gate: %+v", got)
	}
	e.RunUntil(15_000)
	if got := run(t, s, "get pod test-pod"); !strings.Contains(got.Stdout, "test-pod   1/1     Running   0          15s\n") {
		t.Errorf("ungated:\n%s", got.Stdout)
	}
	if got := run(t, s, `get pod test-pod -o jsonpath='{.status.conditions[?(@.type=="PodScheduled")].status} {.status.conditions[?(@.type=="PodScheduled")].reason}'`); got.Stdout != "True " {
		t.Errorf("PodScheduled %q %s", got.Stdout, got.Stderr)
	}
}

// A pod cannot be created with a node and scheduling gates, nor with a
// gate twice.
func TestSchedulingGatesValidation(t *testing.T) {
	s := seedSession(t, false)
	s.Stdin = `apiVersion: v1
kind: Pod
metadata: {name: pinned}
spec:
  nodeName: node-1
  schedulingGates: [{name: example.com/foo}, {name: example.com/foo}]
  containers: [{name: app, image: app:v1}]
`
	got := run(t, s, "apply -f -")
	for _, want := range []string{`spec.schedulingGates[1]: Duplicate value: "example.com/foo"`, "spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared"} {
		if !strings.Contains(got.Stderr, want) {
			t.Errorf("apply lacks %q:\n%s", want, got.Stderr)
		}
	}
}
