package endpointslice_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/internal/testkit"
)

// A slice lists its ports in NewPortMapKey's order (by the md5 of each
// port's spew dump), not the Service's: for web (80 → http, 8080) and
// raw (8081 → 8080), upstream writes raw first. The scenario is
// conformance/services_order_test.go's servicePortOrder, where upstream's
// syncService agrees at every tick.
func TestSlicePortsInUpstreamOrder(t *testing.T) {
	e, _ := testkit.Load(t, []byte(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {app: web}
  ports:
    - {name: web, port: 80, targetPort: http}
    - {name: raw, port: 8081, targetPort: 8080}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 1
  nodes: {count: 1}
`))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	ss := webSlices(e)
	if len(ss) != 1 || len(ss[0].Endpoints) != 1 {
		t.Fatalf("want one slice with one endpoint, got %d slices: %v", len(ss), sizes(ss))
	}
	var got []string
	for _, p := range ss[0].Ports {
		got = append(got, fmt.Sprintf("%s:%s:%d", *p.Name, *p.Protocol, *p.Port))
	}
	if want := []string{"raw:TCP:8080", "web:TCP:8080"}; !slices.Equal(got, want) {
		t.Fatalf("ports %v, want upstream's %v", got, want)
	}
}
