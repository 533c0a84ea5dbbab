package refmanager

import (
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// ClaimPods is ClaimPods: of owned (pods whose controller is owner) and
// orphans (pods with no controller), it returns those owner keeps: the
// owned pods that still match, and the matching orphans it adopts (an
// owner being deleted adopts none). Owned pods that no longer match are
// released. member, when not nil, narrows which pods the owner may
// claim at all (a StatefulSet's isMemberOf). An adopted pod also gets
// the finalizers given (the Job controller's tracking finalizer), as
// NewPodControllerRefManager's finalizers are added with the owner
// reference.
func ClaimPods(tick reconcile.Tick, owner api.Object, selector *api.LabelSelector, owned, orphans []*api.Pod, member func(*api.Pod) bool, finalizers ...string) ([]*api.Pod, error) {
	sel := selector.Matcher()
	matches := func(p *api.Pod) bool {
		return sel.Matches(p.Labels) && (member == nil || member(p))
	}
	out := make([]*api.Pod, 0, len(owned))
	var changes []*api.Pod
	for _, p := range owned {
		if matches(p) {
			out = append(out, p)
		} else {
			changes = append(changes, p)
		}
	}
	changes = append(changes, orphans...)
	sort.Slice(changes, func(i, j int) bool { return changes[i].Name < changes[j].Name })
	m := owner.Meta()
	who := api.KeyOf(owner).Short()
	var errs []error
	for _, p := range changes {
		ok := matches(p)
		switch ref := p.ControllerRef(); {
		case ref != nil && ok:
			out = append(out, p)
		case ref != nil && m.DeletionTimestamp != nil:
			// Owned but no longer matching: an owner being deleted does
			// not release it (the garbage collector deletes it with the
			// owner).
		case ref != nil:
			_, err := patchPod(tick, p, fmt.Sprintf("%s released pod/%s (labels no longer match)", who, p.Name), func(cp *api.Pod) error {
				cp.OwnerReferences = slices.DeleteFunc(cp.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == m.UID })
				cp.Finalizers = slices.DeleteFunc(cp.Finalizers, func(f string) bool { return slices.Contains(finalizers, f) })
				return nil
			})
			if err != nil && !apiserver.IsReason(err, apiserver.ReasonNotFound) {
				errs = append(errs, err)
			}
		case ok && m.DeletionTimestamp == nil && p.DeletionTimestamp == nil:
			adopted, err := patchPod(tick, p, fmt.Sprintf("%s adopted orphan pod/%s", who, p.Name), func(cp *api.Pod) error {
				if other := cp.ControllerRef(); other != nil && other.UID != m.UID {
					// ValidateOwnerReferences refuses a second controller.
					return &apiserver.StatusError{Reason: apiserver.ReasonInvalid, Message: fmt.Sprintf("Pod %q is invalid: metadata.ownerReferences: Invalid value: only one reference can have Controller set to true. Found \"true\" in references for %s/%s and %s/%s",
						cp.Name, other.Kind, other.Name, owner.GetKind(), m.Name)}
				}
				// The patch merges ownerReferences by uid: adopting twice
				// (from a cache that has not seen the first) changes nothing.
				cp.OwnerReferences = slices.DeleteFunc(cp.OwnerReferences, func(r api.OwnerReference) bool { return r.UID == m.UID })
				cp.OwnerReferences = append(cp.OwnerReferences, api.NewControllerRef(owner, api.APIVersionOf(owner.GetKind())))
				for _, f := range finalizers {
					if !slices.Contains(cp.Finalizers, f) {
						cp.Finalizers = append(cp.Finalizers, f)
					}
				}
				return nil
			})
			switch {
			case err == nil:
				out = append(out, adopted.(*api.Pod))
			case !apiserver.IsReason(err, apiserver.ReasonNotFound):
				errs = append(errs, err)
			}
		}
	}
	// Like upstream's aggregate: every pod is tried, the errors together.
	if len(errs) > 0 {
		return out, errors.Join(errs...)
	}
	return out, nil
}

// patchPod is AdoptPod's and ReleasePod's strategic merge patch of the
// pod's metadata, guarded only by its uid: it applies to the API
// server's current pod, so a stale cached copy cannot make it conflict
// (an Update of the cached copy would).
func patchPod(tick reconcile.Tick, cached *api.Pod, summary string, change func(*api.Pod) error) (api.Object, error) {
	o, ok := tick.LiveGet(api.KeyOf(cached))
	if !ok || o.Meta().UID != cached.UID {
		return nil, apiserver.NotFound(api.KindPod, cached.Name)
	}
	cp := o.(*api.Pod).DeepCopy()
	if err := change(cp); err != nil {
		return nil, err
	}
	return tick.Update(trace.Translate, cp, summary)
}

// CachedPods are the pods a controller's cache holds for owner: those it
// controls and the orphans in its namespace, what ClaimPods sorts out.
func CachedPods(cache *informer.Cache, owner api.Object) (owned, orphans []*api.Pod) {
	m := owner.Meta()
	cache.EachOwned(api.KindPod, m.UID, func(o api.Object) { owned = append(owned, o.(*api.Pod)) })
	for _, o := range cache.Orphans(api.KindPod, m.Namespace) {
		orphans = append(orphans, o.(*api.Pod))
	}
	return owned, orphans
}
