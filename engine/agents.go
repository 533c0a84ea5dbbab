package engine

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/kubelet"
	"github.com/stateflow/stateflow/engine/proxy"
)

// The engine reaches a component through reconcile.Component, and for
// the few things a node's agents know that no API object holds (the
// container runtime, the programmed rules), through the interfaces below:
// never by a component's concrete type (TestEngineReachesComponentsByInterface).

// nodeAgent is what a fault needs of a node's kubelet.
type nodeAgent interface {
	Health() kubelet.Health
	SetHealth(health kubelet.Health) []api.Key
	Kill(pod api.Key, now int64) bool
	FailImage(image, msg string)
}

// podServer is what traffic needs of a node's kubelet: whether a pod's
// container accepts a connection on ip:port at now, and if not, why (a
// trace outcome). It reads and never changes the kubelet.
type podServer interface {
	Accepts(pod api.Key, ip string, port int32, now int64) (bool, string)
}

// serviceProxy is what traffic and a joining node need of a node's
// kube-proxy: its programmed rules, and its start.
type serviceProxy interface {
	// Waiting reports that the node has not joined the cluster yet.
	Waiting() bool
	// Start starts a waiting proxy and returns the key of its first sync.
	Start() api.Key
	Lookup(svc api.Key, port string) (*proxy.ServiceRules, bool)
	HasService(svc api.Key) bool
}

// The node agents have what the engine asks of them: a signature that
// drifts fails the build, not a type assertion at run time.
var (
	_ nodeAgent    = (*kubelet.Kubelet)(nil)
	_ podServer    = (*kubelet.Kubelet)(nil)
	_ serviceProxy = (*proxy.Proxier)(nil)
)

// agent is the kubelet of a node, for a change (it is copied first if a
// checkpoint shares it).
func (w *world) agent(node string) (int, nodeAgent, bool) {
	i, ok := w.kubelets[node]
	if !ok {
		return 0, nil, false
	}
	a, ok := w.comp(i).(nodeAgent)
	return i, a, ok
}

// nodeProxy is the kube-proxy of a node, to read.
func (w *world) nodeProxy(node string) (int, serviceProxy, bool) {
	i, ok := w.proxies[node]
	if !ok {
		return 0, nil, false
	}
	p, ok := w.comps[i].(serviceProxy)
	return i, p, ok
}

// rules are the rules node's kube-proxy programmed for svc's port ("" for
// the first).
func (w *world) rules(node string, svc api.Key, port string) (*proxy.ServiceRules, bool) {
	if _, p, ok := w.nodeProxy(node); ok {
		return p.Lookup(svc, port)
	}
	return nil, false
}
