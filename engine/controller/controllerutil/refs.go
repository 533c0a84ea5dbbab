package controllerutil

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/informer"
)

// SameControllerRef says two controller references name the same owner
// (upstream compares them with reflect.DeepEqual; both nil is the same).
func SameControllerRef(a, b *api.OwnerReference) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.UID == b.UID && a.Name == b.Name && a.Kind == b.Kind && a.APIVersion == b.APIVersion
}

// ResolveControllerRef is the cached owner of kind a controller reference
// in namespace ns names, if it is still the object the reference was made
// for (its UID matches): the resolveControllerRef of the controllers. A
// nil reference names none.
func ResolveControllerRef[T api.Object](cache *informer.Cache, kind, ns string, ref *api.OwnerReference) (T, bool) {
	var none T
	if ref == nil || ref.Kind != kind {
		return none, false
	}
	o, ok := informer.Get[T](cache, api.Key{Kind: kind, Namespace: ns, Name: ref.Name})
	if !ok || o.Meta().UID != ref.UID {
		return none, false
	}
	return o, true
}
