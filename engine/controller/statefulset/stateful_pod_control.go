package statefulset

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// createStatefulPod is CreateStatefulPod: the pod's missing claims
// first, then the pod, each with its Event.
func (c *Controller) createStatefulPod(tick reconcile.Tick, set *api.StatefulSet, p *api.Pod) error {
	if err := c.createMissingClaims(tick, set, p); err != nil {
		recordPodEvent(tick, "create", set, p, err)
		return err
	}
	_, err := tick.Create(trace.Translate, p, fmt.Sprintf("sts/%s created pod/%s", set.Name, p.Name))
	if apiserver.IsReason(err, apiserver.ReasonAlreadyExists) {
		return err // its cache has not seen the pod yet
	}
	recordPodEvent(tick, "create", set, p, err)
	return err
}

// createMissingClaims is createPersistentVolumeClaims: a claim the cache
// does not hold is created (an existing one gives no Event).
func (c *Controller) createMissingClaims(tick reconcile.Tick, set *api.StatefulSet, p *api.Pod) error {
	for _, claim := range claims(set, getOrdinal(p)) {
		cached, ok := informer.Get[*api.PersistentVolumeClaim](c.Informer, api.KeyOf(claim))
		if ok {
			if cached.DeletionTimestamp != nil {
				return fmt.Errorf("pvc %s is being deleted", claim.Name)
			}
			continue
		}
		if refs, changed := withOwners(claim, set, p); changed {
			claim.OwnerReferences = refs
		}
		_, err := tick.Create(trace.Translate, claim, fmt.Sprintf("sts/%s created pvc/%s for pod/%s", set.Name, claim.Name, p.Name))
		if err == nil || !apiserver.IsReason(err, apiserver.ReasonAlreadyExists) {
			// A claim the cache has not seen yet fails without a claim
			// Event (createPersistentVolumeClaims).
			recordClaimEvent(tick, "create", set, p, claim, err)
		}
		if err != nil {
			return fmt.Errorf("failed to create PVC %s: %w", claim.Name, err)
		}
	}
	return nil
}

// deleteStatefulPod is DeleteStatefulPod.
func (c *Controller) deleteStatefulPod(tick reconcile.Tick, set *api.StatefulSet, p *api.Pod, why string) error {
	err := tick.Delete(trace.Translate, api.KeyOf(p), apiserver.DeleteOptions{UID: p.UID}, fmt.Sprintf("sts/%s deleted pod/%s (%s)", set.Name, p.Name, why))
	if apiserver.IsReason(err, apiserver.ReasonNotFound) {
		return nil
	}
	recordPodEvent(tick, "delete", set, p, err)
	return err
}

// updateStatefulPod is UpdateStatefulPod: the pod's identity and
// storage restored.
func (c *Controller) updateStatefulPod(tick reconcile.Tick, set *api.StatefulSet, p *api.Pod) error {
	ordinal := getOrdinal(p)
	initIdentity(set, p, ordinal)
	updateStorage(set, p, ordinal)
	if err := c.createMissingClaims(tick, set, p); err != nil {
		recordPodEvent(tick, "update", set, p, err)
		return err
	}
	_, err := tick.Update(trace.Translate, p, fmt.Sprintf("sts/%s restored the identity of pod/%s", set.Name, p.Name))
	recordPodEvent(tick, "update", set, p, err)
	return err
}

// recordPodEvent is recordPodEvent (stateful_pod_control.go).
func recordPodEvent(tick reconcile.Tick, verb string, set *api.StatefulSet, p *api.Pod, err error) {
	reason := map[string]string{"create": "Create", "delete": "Delete", "update": "Update"}[verb]
	if err == nil {
		suffix := "successful"
		tick.Event(set, "", api.EventNormal, "Successful"+reason, fmt.Sprintf("%s Pod %s in StatefulSet %s %s", verb, p.Name, set.Name, suffix))
		return
	}
	tick.Event(set, "", api.EventWarning, "Failed"+reason, fmt.Sprintf("%s Pod %s in StatefulSet %s failed error: %s", verb, p.Name, set.Name, err))
}

// recordClaimEvent is recordClaimEvent.
func recordClaimEvent(tick reconcile.Tick, verb string, set *api.StatefulSet, p *api.Pod, claim *api.PersistentVolumeClaim, err error) {
	if err == nil {
		tick.Event(set, "", api.EventNormal, "SuccessfulCreate", fmt.Sprintf("%s Claim %s Pod %s in StatefulSet %s success", verb, claim.Name, p.Name, set.Name))
		return
	}
	tick.Event(set, "", api.EventWarning, "FailedCreate", fmt.Sprintf("%s Claim %s for Pod %s in StatefulSet %s failed error: %s", verb, claim.Name, p.Name, set.Name, err))
}
