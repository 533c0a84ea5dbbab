package kubectl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// describe prints a variable read from a pod field with the field's
// path; kubectl resolves only metadata.name and metadata.namespace
// (its scheme converts no other field label), and a template resolves
// none.
func TestDescribeEnvFromField(t *testing.T) {
	s := jobsAt(t, 1_000)
	s.Stdin = `apiVersion: v1
kind: Pod
metadata: {name: env}
spec:
  restartPolicy: Never
  containers:
    - name: main
      image: example/pi:v1
      env:
        - {name: PLAIN, value: "1"}
        - name: NAME
          valueFrom: {fieldRef: {fieldPath: metadata.name}}
        - name: NS
          valueFrom: {fieldRef: {apiVersion: v1, fieldPath: metadata.namespace}}
        - name: IP
          valueFrom: {fieldRef: {fieldPath: status.podIP}}
`
	if res := run(t, s, "apply -f -"); res.Stdout != "pod/env created\n" {
		t.Fatalf("apply: %+v", res)
	}
	s.Cluster.RunUntil(5_000)
	want := `    Environment:
      PLAIN:  1
      NAME:   env (v1:metadata.name)
      NS:     default (v1:metadata.namespace)
      IP:      (v1:status.podIP)
    Mounts:   <none>
`
	if out := run(t, s, "describe pod env").Stdout; !strings.Contains(out, want) {
		t.Errorf("describe pod env:\n%s\nwant:\n%s", out, want)
	}
}

// A variable from a resourceFieldRef (the documentation's
// dapi-envars-resourcefieldref) is stored and described as kubectl v1.34
// does: the container's request or limit divided by the divisor, rounded
// up; a resource it cannot read is refused, naming the supported ones.
func TestResourceFieldRefVariables(t *testing.T) {
	src, err := os.ReadFile("testdata/docs/dapi-envars-resourcefieldref.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e, sc := testkit.Load(t, src)
	e.RunUntil(10_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	got := run(t, s, "describe pod dapi-envars-resourcefieldref").Stdout
	for _, want := range []string{
		"      MY_CPU_REQUEST:  1 (requests.cpu)\n",
		"      MY_CPU_LIMIT:    1 (limits.cpu)\n",
		"      MY_MEM_REQUEST:  33554432 (requests.memory)\n",
		"      MY_MEM_LIMIT:    67108864 (limits.memory)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("describe lacks %q:\n%s", want, got)
		}
	}
	bad := strings.Replace(string(src), "resource: requests.cpu", "resource: requests.gpu", 1)
	if _, err := scenario.Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(),
		`spec.containers[0].env[0].valueFrom.resourceFieldRef.resource: Unsupported value: "requests.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`) {
		t.Errorf("an unknown resource: %v", err)
	}
	bad = strings.Replace(string(src), "resource: requests.cpu", "resource: requests.cpu\n              divisor: 2", 1)
	if _, err := scenario.Parse([]byte(bad)); err == nil || !strings.Contains(err.Error(),
		`spec.containers[0].env[0].valueFrom.resourceFieldRef.divisor: Invalid value: "requests.cpu": only divisor's values 1m and 1 are supported with the cpu resource`) {
		t.Errorf("a cpu divisor of 2: %v", err)
	}
	good := strings.Replace(string(src), "resource: requests.memory", "resource: requests.memory\n              divisor: 1Mi", 1)
	e, sc = testkit.Load(t, []byte(good))
	e.RunUntil(10_000)
	s = &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	if got := run(t, s, "describe pod dapi-envars-resourcefieldref").Stdout; !strings.Contains(got, "      MY_MEM_REQUEST:  32 (requests.memory)\n") {
		t.Errorf("32Mi in Mi reads 32:\n%s", got)
	}
}
