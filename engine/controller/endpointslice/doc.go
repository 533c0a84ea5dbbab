// Package endpointslice is the simulated EndpointSlice controller
// (kubernetes/pkg/controller/endpointslice and k8s.io/endpointslice): for
// each Service with a selector it lists the pods the selector matches and
// keeps EndpointSlices (at most 100 endpoints each) listing every pod's
// address with its conditions: ready, serving, terminating. Readiness
// thus flows sideways, from a pod's status into its Service's slices,
// after this controller's own watch latency. A tracker of the
// generations it wrote keeps it from acting on a stale cache of slices.
package endpointslice
