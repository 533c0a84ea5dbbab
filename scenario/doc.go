// Package scenario reads a Stateflow scenario: a multi-document YAML file of
// real Kubernetes manifests plus at most one "kind: Scenario" document
// (apiVersion stateflow/v1alpha1) describing the world they meet: the seed,
// the nodes, each component's watch latency and how images behave. Errors
// and warnings name the line, the column where known, and the field path.
package scenario
