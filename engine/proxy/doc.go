// Package proxy is kube-proxy: one per node, it turns the Services and
// EndpointSlices its watch has delivered into the node's forwarding
// rules, which is where a request to a Service's virtual IP finds a pod.
//
// It follows the iptables and nftables proxiers of pkg/proxy: a change
// to a Service or a slice asks for a sync, and the BoundedFrequencyRunner
// (pkg/proxy/runner) lets at most one sync start per minSyncPeriod (1 s,
// the default of both modes), so a burst of changes is programmed
// together; a Service change that its ServicePortMap does not see (a
// selector, a label) asks for none. A sync (syncProxyRules) rebuilds the
// endpoints of the Services whose Service or slices changed since the
// last one, as the change trackers record them, and categorises them as
// pkg/proxy/topology.go's CategorizeEndpoints does: the ready endpoints; when there is none, the
// serving endpoints that are terminating; with internalTrafficPolicy
// Local, only this node's. Headless and ExternalName Services get no
// rules.
//
// The rules are node-local state, not an API object: a sync records the
// Service ports whose endpoints changed in its tick (trace.RuleChange),
// and the engine's synthetic traffic reads each node's rules as they are
// at the moment of each request. Nothing else of the network (DNS,
// conntrack, iptables chains) is simulated.
package proxy
