package kubectl_test

import (
	"strings"
	"testing"
)

// The documentation's pod-priority-preemption page: the cluster starts
// with the two system classes; a pod naming high-priority takes its
// value; a pod or a ReplicaSet's pods naming a class that does not exist
// are forbidden; a second global default and a user class above 10⁹ are
// refused.
func TestPriorityClasses(t *testing.T) {
	e, s := docSession(t, "priority-class.yaml")
	e.RunUntil(5_000)
	for cmd, want := range map[string]string{
		"get priorityclasses": "NAME                      VALUE        GLOBAL-DEFAULT   AGE   PREEMPTIONPOLICY\n" +
			"high-priority             1000000      false            5s    PreemptLowerPriority\n" +
			"system-cluster-critical   2000000000   false            5s    PreemptLowerPriority\n" +
			"system-node-critical      2000001000   false            5s    PreemptLowerPriority\n",
		"get pod nginx -o jsonpath='{.spec.priority} {.spec.preemptionPolicy}'": "1000000 PreemptLowerPriority",
		"describe pc high-priority": "Name:              high-priority\nValue:             1000000\nGlobalDefault:     false\n" +
			"PreemptionPolicy:  PreemptLowerPriority\nDescription:       This priority class should be used for XYZ service pods only.\n",
	} {
		if got := run(t, s, cmd); !strings.HasPrefix(got.Stdout, want) {
			t.Errorf("%s:\n%s%s\nwant it to start with\n%s", cmd, got.Stdout, got.Stderr, want)
		}
	}
	if got := run(t, s, "describe pod nginx").Stdout; !strings.Contains(got, "Priority:             1000000\nPriority Class Name:  high-priority\n") {
		t.Errorf("describe pod:\n%s", got)
	}
	for _, tc := range []struct{ manifest, want string }{
		{"apiVersion: v1\nkind: Pod\nmetadata: {name: lost}\nspec:\n  priorityClassName: nope\n  containers: [{name: c, image: nginx}]\n",
			`Error from server (Forbidden): error when creating "STDIN": pods "lost" is forbidden: no PriorityClass with name nope was found`},
		{"apiVersion: v1\nkind: Pod\nmetadata: {name: own}\nspec:\n  priority: 5\n  containers: [{name: c, image: nginx}]\n",
			`Error from server (Forbidden): error when creating "STDIN": pods "own" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name`},
		{"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: huge}\nvalue: 2000000000\n",
			// Stateflow validates a manifest as it reads it, naming the line.
			`error parsing the manifest: line 4:8: value: Forbidden: maximum allowed value of a user defined priority is 1000000000`},
		{"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: system-mine}\nvalue: 10\n",
			`metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class`},
	} {
		s.Stdin = tc.manifest
		if got := run(t, s, "apply -f -"); got.Code == 0 || !strings.Contains(got.Stderr, tc.want) {
			t.Errorf("apply:\n%s\ngot %+v\nwant stderr with %q", tc.manifest, got, tc.want)
		}
	}
	// One global default; pods without a class then take it.
	s.Stdin = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: low}\nvalue: 10\nglobalDefault: true\n"
	if got := run(t, s, "apply -f -"); got.Code != 0 {
		t.Fatalf("the first default: %+v", got)
	}
	s.Stdin = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: other}\nvalue: 20\nglobalDefault: true\n"
	if got := run(t, s, "apply -f -"); !strings.Contains(got.Stderr, `priorityclasses.scheduling.k8s.io "other" is forbidden: PriorityClass low is already marked as default. Only one default can exist`) {
		t.Errorf("a second default: %+v", got)
	}
	s.Stdin = "apiVersion: v1\nkind: Pod\nmetadata: {name: plain}\nspec:\n  containers: [{name: c, image: nginx}]\n"
	run(t, s, "apply -f -")
	if got := run(t, s, "get pod plain -o jsonpath='{.spec.priorityClassName} {.spec.priority}'"); got.Stdout != "low 10" {
		t.Errorf("a pod without a class under a global default: %+v", got)
	}
	// A class's value never changes.
	s.Stdin = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high-priority}\nvalue: 7\n"
	if got := run(t, s, "apply -f -"); !strings.Contains(got.Stderr, "value: Forbidden: may not be changed in an update.") {
		t.Errorf("changing a value: %+v", got)
	}
}

// A Deployment whose pods name a missing class: the ReplicaSet's creates
// are forbidden, FailedCreate says why, and the Deployment reports
// ReplicaFailure.
func TestMissingPriorityClassFailsCreate(t *testing.T) {
	e, s := docSession(t, "priority-class.yaml")
	s.Stdin = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: placeholder}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: p}}\n  template:\n    metadata: {labels: {app: p}}\n    spec:\n      priorityClassName: low-priority\n      containers: [{name: c, image: nginx}]\n"
	if got := run(t, s, "apply -f -"); got.Code != 0 {
		t.Fatal(got)
	}
	e.RunUntil(30_000)
	got := run(t, s, "get events --field-selector reason=FailedCreate -o jsonpath={.items[0].message}").Stdout
	if !strings.HasPrefix(got, `Error creating: pods "placeholder-`) || !strings.HasSuffix(got, `-" is forbidden: no PriorityClass with name low-priority was found`) {
		t.Errorf("FailedCreate: %q", got)
	}
	if got := run(t, s, `get deploy placeholder -o jsonpath='{.status.conditions[?(@.type=="ReplicaFailure")].reason}'`).Stdout; got != "FailedCreate" {
		t.Errorf("ReplicaFailure: %q", got)
	}
}
