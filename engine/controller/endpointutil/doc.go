// Package endpointutil holds what the EndpointSlice and Endpoints
// controllers share (k8s.io/endpointslice/util and
// pkg/controller/util/endpoint): which pods belong in endpoints, which
// pod changes matter, how a Service port resolves against a pod, and the
// go-spew dumps and md5 hashes by which upstream orders a slice's ports
// and an Endpoints' subsets (hash.go).
package endpointutil
