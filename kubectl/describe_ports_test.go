package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// describe names a container's ports as kubectl v1.34 does: one "Port"
// line, or a "Ports" line listing several, each with its name in
// brackets; and a template that names its service account says so.
func TestDescribePortsAndServiceAccount(t *testing.T) {
	e, sc := testkit.Load(t, []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      serviceAccountName: web-sa
      containers:
      - name: web
        image: nginx:1.25
        ports:
        - {name: http, containerPort: 80}
        - {name: metrics, containerPort: 9090, hostPort: 9090}
      - name: sidecar
        image: busybox:1.36
        command: [sleep, infinity]
`))
	e.RunUntil(5_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	out := run(t, s, "describe deploy web").Stdout
	for _, want := range []string{
		"  Labels:           app=web\n  Service Account:  web-sa\n  Containers:\n",
		"    Ports:        80/TCP (http), 9090/TCP (metrics)\n",
		"    Host Ports:   0/TCP (http), 9090/TCP (metrics)\n",
		"    Port:       <none>\n    Host Port:  <none>\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("describe deploy lacks %q:\n%s", want, out)
		}
	}
}

// Quantities are stored in apimachinery's canonical form, as the API
// server writes them: cpu 0.1 is 100m, memory 1.5Gi is 1536Mi, and a
// text already canonical (12Mi) stays.
func TestQuantitiesAreStoredCanonical(t *testing.T) {
	e, sc := testkit.Load(t, []byte(`apiVersion: v1
kind: Pod
metadata: {name: sized}
spec:
  containers:
  - name: c
    image: nginx:1.25
    resources:
      requests: {cpu: "0.1", memory: 1.5Gi, ephemeral-storage: 12Mi}
      limits: {cpu: "1000m", memory: 2048Mi}
`))
	e.RunUntil(1_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	want := `{"limits":{"cpu":"1","memory":"2Gi"},"requests":{"cpu":"100m","ephemeral-storage":"12Mi","memory":"1536Mi"}}`
	if got := run(t, s, "get pod sized -o jsonpath={.spec.containers[0].resources}").Stdout; got != want {
		t.Errorf("stored resources %s, want %s", got, want)
	}
}
