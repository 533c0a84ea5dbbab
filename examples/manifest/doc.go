// Package manifest writes the Kubernetes manifests of the generated
// scenarios (the benchmarks' clusters, the property, fuzz and differential
// tests' rollouts, the fidelity worked examples), so each shape of
// Deployment is written once.
package manifest
