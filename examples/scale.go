package examples

import (
	"fmt"
	"strings"
)

// Scale is the scenario the benchmarks and scale tests share: one
// Deployment "web" of pods replicas, image web:1, spread over enough
// 64-CPU, 110-pod nodes, with images that pull in 1 s and start in 0.5 s
// (web:2 too, for a rolling update) so a run measures the control plane.
func Scale(pods int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: web:1
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 7
  nodes: {count: %d, capacity: {cpu: "64", memory: 256Gi, pods: 110}}
  images:
    "web:1": {pull: 1s, start: 500ms}
    "web:2": {pull: 1s, start: 500ms}
`, pods, pods/100+1)
}

// Cluster is the scenario of the large-scale benchmark: deployments
// Deployments web-0, web-1, … of replicas pods each (image web:1, 10m CPU
// and 16Mi requested), on one 64-CPU, 110-pod node per 30 pods, so
// Cluster(100, 1500) is 150,000 pods on 5,000 nodes.
func Cluster(deployments, replicas int) string {
	var b strings.Builder
	for i := range deployments {
		fmt.Fprintf(&b, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web-%d}
spec:
  replicas: %d
  selector: {matchLabels: {app: web-%d}}
  template:
    metadata: {labels: {app: web-%d}}
    spec:
      containers:
        - name: web
          image: web:1
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
`, i, replicas, i, i)
	}
	fmt.Fprintf(&b, `apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  seed: 7
  nodes: {count: %d, capacity: {cpu: "64", memory: 256Gi, pods: 110}}
  images:
    "web:1": {pull: 1s, start: 500ms}
`, max(1, deployments*replicas/30))
	return b.String()
}
