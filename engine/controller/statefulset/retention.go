package statefulset

// This file is the PersistentVolumeClaim retention policy
// (stateful_set_utils.go updateClaimOwnerRefForSetAndPod,
// claimOwnerMatchesSetAndPod): which owners a pod's claims carry, so that
// the garbage collector deletes them with the set (whenDeleted: Delete)
// or with their pod once it is scaled away (whenScaled: Delete).

import (
	"fmt"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// inRange reports whether the pod's ordinal is among the set's replicas.
func inRange(set *api.StatefulSet, p *api.Pod) bool {
	o, start := getOrdinal(p), int(set.StartOrdinal())
	return o >= start && o < start+int(set.Replicas())
}

// claimOwners is the owner references the policy wants on a claim of p:
// the set's (whenDeleted Delete, pod in range, or whenScaled Retain) and
// the pod's (whenScaled Delete and the pod scaled away).
func claimOwners(set *api.StatefulSet, p *api.Pod) (toSet, toPod bool) {
	policy := set.Spec.PersistentVolumeClaimRetentionPolicy
	if policy == nil {
		return false, false
	}
	deleted, scaled := policy.WhenDeleted == "Delete", policy.WhenScaled == "Delete"
	down := !inRange(set, p)
	switch {
	case deleted && !scaled:
		return true, false
	case !deleted && scaled:
		return false, down
	case deleted && scaled:
		return !down, down
	}
	return false, false
}

// ownerRef is the controller reference a claim gets (addControllerRef).
func ownerRef(o api.Object) api.OwnerReference {
	return api.NewControllerRef(o, api.APIVersionOf(o.GetKind()))
}

// withOwners returns the claim's owner references with the set's and the
// pod's added or removed as the policy says, and whether they changed.
func withOwners(c *api.PersistentVolumeClaim, set *api.StatefulSet, p *api.Pod) ([]api.OwnerReference, bool) {
	toSet, toPod := claimOwners(set, p)
	refs := slices.Clone(c.OwnerReferences)
	changed := false
	for _, w := range []struct {
		o    api.Object
		want bool
	}{{set, toSet}, {p, toPod}} {
		uid := w.o.Meta().UID
		i := slices.IndexFunc(refs, func(r api.OwnerReference) bool { return r.UID == uid && uid != "" })
		switch {
		case w.want && i < 0 && uid != "":
			refs = append(refs, ownerRef(w.o))
			changed = true
		case !w.want && i >= 0:
			refs = slices.Delete(refs, i, i+1)
			changed = true
		}
	}
	return refs, changed
}

// fixPodClaims is UpdatePodClaimForRetentionPolicy: each of the pod's
// cached claims gets the owners the policy wants.
func (c *Controller) fixPodClaims(tick reconcile.Tick, set *api.StatefulSet, p *api.Pod) error {
	ordinal := getOrdinal(p)
	for i := range set.Spec.VolumeClaimTemplates {
		key := api.Key{Kind: api.KindPersistentVolumeClaim, Namespace: set.Namespace, Name: claimName(set, &set.Spec.VolumeClaimTemplates[i], ordinal)}
		claim, ok := informer.Get[*api.PersistentVolumeClaim](c.Informer, key)
		if !ok {
			continue
		}
		refs, changed := withOwners(claim, set, p)
		if !changed {
			continue
		}
		next := claim.DeepCopy()
		next.OwnerReferences = refs
		_, err := tick.Update(trace.Translate, next, fmt.Sprintf("sts/%s set the owners of pvc/%s (persistentVolumeClaimRetentionPolicy)", set.Name, claim.Name))
		if err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
			return fmt.Errorf("could not update claim %s for delete policy ownerRefs: %w", claim.Name, err)
		}
	}
	return nil
}
