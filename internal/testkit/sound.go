package testkit

import (
	"fmt"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
)

// Sound runs BoundNodesExist, OneController and LiveOwnersExist on the
// pods of namespace ns, and returns the first error. Each error names the
// tick (e.Tick()) and the pod.
func Sound(e *engine.Engine, ns string) error {
	for _, check := range []func(*engine.Engine, string) error{BoundNodesExist, OneController, LiveOwnersExist} {
		if err := check(e, ns); err != nil {
			return err
		}
	}
	return nil
}

// BoundNodesExist checks that every bound pod's node exists.
func BoundNodesExist(e *engine.Engine, ns string) error {
	for _, p := range Pods(e, ns) {
		if p.Spec.NodeName == "" {
			continue
		}
		if _, ok := e.Store().Get(api.Key{Kind: api.KindNode, Name: p.Spec.NodeName}); !ok {
			return fmt.Errorf("tick %d: pod %s is bound to missing node %s", e.Tick(), p.Name, p.Spec.NodeName)
		}
	}
	return nil
}

// OneController checks that no pod has more than one owner reference
// with controller=true.
func OneController(e *engine.Engine, ns string) error {
	for _, p := range Pods(e, ns) {
		controllers := 0
		for _, ref := range p.OwnerReferences {
			if ref.Controller != nil && *ref.Controller {
				controllers++
			}
		}
		if controllers > 1 {
			return fmt.Errorf("tick %d: pod %s has %d controllers", e.Tick(), p.Name, controllers)
		}
	}
	return nil
}

// LiveOwnersExist checks that the controller of every live (not
// terminating) pod exists.
func LiveOwnersExist(e *engine.Engine, ns string) error {
	for _, p := range Pods(e, ns) {
		ref := p.ControllerRef()
		if ref == nil || p.DeletionTimestamp != nil {
			continue
		}
		if _, ok := e.Store().Get(api.Key{Kind: ref.Kind, Namespace: p.Namespace, Name: ref.Name}); !ok {
			return fmt.Errorf("tick %d: live pod %s is owned by missing %s %s", e.Tick(), p.Name, ref.Kind, ref.Name)
		}
	}
	return nil
}
