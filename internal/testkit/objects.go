package testkit

import (
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
)

// List returns the API server's objects of kind in namespace ns ("" for
// every namespace) as T, the kind's Go type.
func List[T api.Object](e *engine.Engine, kind, ns string) []T {
	var out []T
	for _, o := range e.Store().List(kind, ns) {
		out = append(out, o.(T))
	}
	return out
}

// Pods returns the pods of namespace ns.
func Pods(e *engine.Engine, ns string) []*api.Pod {
	return List[*api.Pod](e, api.KindPod, ns)
}

// ReplicaSets returns the ReplicaSets of namespace ns.
func ReplicaSets(e *engine.Engine, ns string) []*api.ReplicaSet {
	return List[*api.ReplicaSet](e, api.KindReplicaSet, ns)
}

// Events returns the events of namespace ns.
func Events(e *engine.Engine, ns string) []*api.Event {
	return List[*api.Event](e, api.KindEvent, ns)
}

// Deployment returns the Deployment ns/name, and fails the test if there
// is none.
func Deployment(t testing.TB, e *engine.Engine, ns, name string) *api.Deployment {
	t.Helper()
	o, ok := e.Store().Get(api.Key{Kind: api.KindDeployment, Namespace: ns, Name: name})
	if !ok {
		t.Fatalf("deployment %s/%s not found", ns, name)
	}
	return o.(*api.Deployment)
}
