package model

import (
	"fmt"
	"testing"
)

// scaleSource is one Deployment of pods replicas on enough 110-pod nodes,
// with fast images (the engine benchmark's scenario).
func scaleSource(pods int) string {
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
`, pods, pods/100+1)
}

// BenchmarkViews measures what the playground computes for one render,
// 200 ticks into the creation of 100 pods.
func BenchmarkViews(b *testing.B) {
	m, err := New(scaleSource(100))
	if err != nil {
		b.Fatal(err)
	}
	for range 200 {
		m.Step()
	}
	b.Run("flow", func(b *testing.B) {
		for b.Loop() {
			m.Flow()
		}
	})
	b.Run("inspect", func(b *testing.B) {
		for b.Loop() {
			m.Inspect()
		}
	})
	b.Run("log", func(b *testing.B) {
		for b.Loop() {
			m.Log(LogFilter{})
		}
	})
	b.Run("events", func(b *testing.B) {
		for b.Loop() {
			m.Events("")
		}
	})
}
