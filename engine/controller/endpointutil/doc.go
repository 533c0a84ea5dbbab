// Package endpointutil holds what the EndpointSlice and Endpoints
// controllers share (k8s.io/endpointslice/util and
// pkg/controller/util/endpoint): which pods belong in endpoints, which
// pod changes matter, how a Service port resolves against a pod.
package endpointutil
