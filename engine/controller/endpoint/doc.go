// Package endpoint is the simulated Endpoints controller
// (kubernetes/pkg/controller/endpoint): the legacy v1 Endpoints object of
// every Service with a selector, one per Service and of the same name,
// listing ready pods under addresses and the rest under
// notReadyAddresses. Unlike EndpointSlices it drops a terminating pod at
// once. kubectl get endpoints reads it.
package endpoint
