package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

const phpApache = `apiVersion: apps/v1
kind: Deployment
metadata: {name: php-apache}
spec:
  selector: {matchLabels: {run: php-apache}}
  template:
    metadata: {labels: {run: php-apache}}
    spec:
      containers:
      - name: php-apache
        image: registry.k8s.io/hpa-example
        resources: {limits: {cpu: 500m}, requests: {cpu: 200m}}
---
`

// An autoscaling/v1 HPA, as older tutorials write it, is served: the API
// server converts its CPU target into autoscaling/v2's metric, which get
// and describe print.
func TestAutoscalingV1IsConverted(t *testing.T) {
	e, sc := testkit.Load(t, []byte(phpApache+`apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: php-apache
spec:
  scaleTargetRef:
    apiVersion: apps/v1
    kind: Deployment
    name: php-apache
  minReplicas: 1
  maxReplicas: 10
  targetCPUUtilizationPercentage: 50
`))
	e.RunUntil(60_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	want := `[{"resource":{"name":"cpu","target":{"averageUtilization":50,"type":"Utilization"}},"type":"Resource"}]`
	if got := run(t, s, "get hpa php-apache -o jsonpath={.spec.metrics}").Stdout; got != want {
		t.Errorf("metrics %s, want %s", got, want)
	}
	if got := run(t, s, "get hpa php-apache -o jsonpath={.apiVersion}").Stdout; got != "autoscaling/v2" {
		t.Errorf("stored as %s", got)
	}
	if got := run(t, s, "get hpa").Stdout; !strings.Contains(got, "cpu: 0%/50%") {
		t.Errorf("get hpa:\n%s", got)
	}
}

// A field autoscaling/v1 does not have is refused (metrics is v2's), as
// kubectl's strict field validation refuses it, and a version the API
// server does not serve is refused, naming the one to use.
func TestAutoscalingVersions(t *testing.T) {
	_, err := scenario.Parse([]byte(phpApache + "apiVersion: autoscaling/v1\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: php-apache}\n  maxReplicas: 3\n  metrics: []\n"))
	if err == nil || !strings.Contains(err.Error(), `spec.metrics: strict decoding error: unknown field "spec.metrics"`) {
		t.Errorf("autoscaling/v1 with metrics: %v", err)
	}
	_, err = scenario.Parse([]byte(phpApache + "apiVersion: autoscaling/v3\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec: {maxReplicas: 3}\n"))
	if err == nil || !strings.Contains(err.Error(), `no matches for kind "HorizontalPodAutoscaler" in version "autoscaling/v3" (use "autoscaling/v2")`) {
		t.Errorf("autoscaling/v3: %v", err)
	}
}
