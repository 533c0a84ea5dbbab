package kubectl_test

import (
	"strings"
	"testing"
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
