package endpoint_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/internal/testkit"
)

// subsets renders the settled Endpoints of Service web: each subset as
// its ready pods (by Deployment), not-ready pods after "!", and ports.
func subsets(t *testing.T, src string) []string {
	t.Helper()
	e, _ := testkit.Load(t, []byte(src))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ep := range testkit.List[*api.Endpoints](e, api.KindEndpoints, "default") {
		if ep.Name != "web" {
			continue
		}
		for _, s := range ep.Subsets {
			var parts []string
			for _, a := range s.Addresses {
				parts = append(parts, strings.SplitN(a.TargetRef.Name, "-", 2)[0])
			}
			for _, a := range s.NotReadyAddresses {
				parts = append(parts, "!"+strings.SplitN(a.TargetRef.Name, "-", 2)[0])
			}
			for _, p := range s.Ports {
				parts = append(parts, fmt.Sprintf("%s:%d", p.Name, p.Port))
			}
			out = append(out, strings.Join(parts, " "))
		}
	}
	return out
}

// SortSubsets orders subsets by the md5 of each subset's spew dump: for
// blue's pod on 8080 and green's on 9090, upstream lists green first.
// The scenario is conformance/services_order_test.go's
// serviceSubsetOrder, where upstream's syncService agrees at every tick.
func TestSubsetsInUpstreamOrder(t *testing.T) {
	got := subsets(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: blue}
spec:
  replicas: 1
  selector: {matchLabels: {app: blue}}
  template:
    metadata: {labels: {app: blue, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: green}
spec:
  replicas: 1
  selector: {matchLabels: {app: green}}
  template:
    metadata: {labels: {app: green, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 9090}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec:
  selector: {tier: web}
  ports:
    - {name: http, port: 80, targetPort: http}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 1
  nodes: {count: 1}
`)
	if want := []string{"green http:9090", "blue http:8080"}; !slices.Equal(got, want) {
		t.Fatalf("subsets %q, want upstream's %q", got, want)
	}
}

// RepackSubsets gathers the ports offered by the same addresses: a pod
// resolving http and metrics and one resolving http only share a subset
// for http, and the first has a subset of its own for metrics (not one
// subset per set of ports a pod resolves), the subsets in SortSubsets'
// hash order. The scenario is conformance/services_order_test.go's
// serviceRepackSmall, where upstream's syncService agrees at every tick.
func TestSubsetsRepackedByAddresses(t *testing.T) {
	got := subsets(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: full}
spec:
  replicas: 1
  selector: {matchLabels: {app: full}}
  template:
    metadata: {labels: {app: full, tier: web}}
    spec:
      containers:
        - name: web
          image: web:1
          ports: [{name: http, containerPort: 8080}, {name: metrics, containerPort: 9090}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: slim}
spec:
  replicas: 1
  selector: {matchLabels: {app: slim}}
  template:
    metadata: {labels: {app: slim, tier: web}}
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
  selector: {tier: web}
  ports:
    - {name: http, port: 80, targetPort: http}
    - {name: metrics, port: 9100, targetPort: metrics}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 1
  nodes: {count: 1}
`)
	want := []string{"full metrics:9090", "full slim http:8080"}
	if !slices.Equal(got, want) {
		t.Fatalf("subsets %q, want %q", got, want)
	}
}
