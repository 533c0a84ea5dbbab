package examples

import "fmt"

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
