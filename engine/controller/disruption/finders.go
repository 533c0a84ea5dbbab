package disruption

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// getExpectedPodCount is getExpectedPodCount: an integer minAvailable
// expects the matching pods and desires that many; a percentage or a
// maxUnavailable expects the sum of the pods' controllers' scales and
// rounds the percentage up (intstr.GetScaledValueFromIntOrPercent).
func (c *Controller) getExpectedPodCount(tick reconcile.Tick, pdb *api.PodDisruptionBudget, pods []*api.Pod) (expected, desired int32, unmanaged []string, err error) {
	switch sp := &pdb.Spec; {
	case sp.MaxUnavailable != nil:
		if expected, unmanaged, err = c.getExpectedScale(tick, pods); err != nil {
			return
		}
		var maxUnavailable int
		if maxUnavailable, err = sp.MaxUnavailable.ScaledValue(int(expected), true); err != nil {
			return
		}
		desired = max(expected-int32(maxUnavailable), 0)
	case sp.MinAvailable != nil && !sp.MinAvailable.IsString:
		desired, expected = sp.MinAvailable.IntVal, int32(len(pods))
	case sp.MinAvailable != nil:
		if expected, unmanaged, err = c.getExpectedScale(tick, pods); err != nil {
			return
		}
		var minAvailable int
		if minAvailable, err = sp.MinAvailable.ScaledValue(int(expected), true); err != nil {
			return
		}
		desired = int32(minAvailable)
	}
	return
}

// controllerAndScale is a controller's UID and its spec.replicas.
type controllerAndScale struct {
	uid   string
	scale int32
}

// finder maps a pod's controllerRef to its controller and scale, or nil.
type finder func(tick reconcile.Tick, ref *api.OwnerReference, ns string) (*controllerAndScale, error)

// finders are upstream's, in its order.
func (c *Controller) finders() []finder {
	return []finder{c.getPodReplicationController, c.getPodDeployment, c.getPodReplicaSet, c.getPodStatefulSet, c.getScaleController}
}

// getPodReplicationController finds the pod's ReplicationController.
func (c *Controller) getPodReplicationController(_ reconcile.Tick, ref *api.OwnerReference, ns string) (*controllerAndScale, error) {
	ok, err := verifyGroupKind(ref, api.KindReplicationController, "")
	if !ok || err != nil {
		return nil, err
	}
	rc, found := controllerutil.ResolveControllerRef[*api.ReplicationController](c.Informer, api.KindReplicationController, ns, ref)
	if !found {
		return nil, nil
	}
	return &controllerAndScale{rc.UID, rc.Replicas()}, nil
}

// getExpectedScale sums the scale of every controller of the pods; pods
// without a controller are listed as unmanaged, and a pod whose
// controller no finder knows is an error.
func (c *Controller) getExpectedScale(tick reconcile.Tick, pods []*api.Pod) (int32, []string, error) {
	scales := map[string]int32{}
	var order []string
	var unmanaged []string
	for _, p := range pods {
		ref := p.ControllerRef()
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		if _, ok := scales[ref.UID]; ok {
			continue
		}
		found := false
		for _, f := range c.finders() {
			cs, err := f(tick, ref, p.Namespace)
			if err != nil {
				return 0, unmanaged, err
			}
			if cs != nil {
				if _, ok := scales[cs.uid]; !ok {
					order = append(order, cs.uid)
				}
				scales[cs.uid] = cs.scale
				found = true
				break
			}
		}
		if !found {
			return 0, unmanaged, fmt.Errorf("found no controllers for pod %q", p.Name)
		}
	}
	var expected int32
	for _, uid := range order {
		expected += scales[uid]
	}
	return expected, unmanaged, nil
}

// getPodReplicaSet finds a ReplicaSet no Deployment controls.
func (c *Controller) getPodReplicaSet(_ reconcile.Tick, ref *api.OwnerReference, ns string) (*controllerAndScale, error) {
	rs, err := c.podReplicaSet(ref, ns)
	if rs == nil || err != nil {
		return nil, err
	}
	if owner := rs.ControllerRef(); owner != nil && owner.Kind == api.KindDeployment {
		return nil, nil
	}
	return &controllerAndScale{rs.UID, rs.Replicas()}, nil
}

// podReplicaSet is the cached ReplicaSet a pod's controller reference
// names (nil if it names another kind or the cache does not hold it); a
// ReplicaSet of an unknown group is an error.
func (c *Controller) podReplicaSet(ref *api.OwnerReference, ns string) (*api.ReplicaSet, error) {
	ok, err := verifyGroupKind(ref, api.KindReplicaSet, "apps", "extensions")
	if !ok || err != nil {
		return nil, err
	}
	rs, _ := controllerutil.ResolveControllerRef[*api.ReplicaSet](c.Informer, api.KindReplicaSet, ns, ref)
	return rs, nil
}

// getPodStatefulSet finds the pod's StatefulSet.
func (c *Controller) getPodStatefulSet(_ reconcile.Tick, ref *api.OwnerReference, ns string) (*controllerAndScale, error) {
	ok, err := verifyGroupKind(ref, api.KindStatefulSet, "apps")
	if !ok || err != nil {
		return nil, err
	}
	ss, found := controllerutil.ResolveControllerRef[*api.StatefulSet](c.Informer, api.KindStatefulSet, ns, ref)
	if !found {
		return nil, nil
	}
	return &controllerAndScale{ss.UID, ss.Replicas()}, nil
}

// getPodDeployment finds the Deployment of the pod's ReplicaSet.
func (c *Controller) getPodDeployment(_ reconcile.Tick, ref *api.OwnerReference, ns string) (*controllerAndScale, error) {
	rs, err := c.podReplicaSet(ref, ns)
	if rs == nil || err != nil {
		return nil, err
	}
	owner := rs.ControllerRef()
	if owner == nil {
		return nil, nil
	}
	if ok, err := verifyGroupKind(owner, api.KindDeployment, "apps", "extensions"); !ok || err != nil {
		return nil, err
	}
	d, found := controllerutil.ResolveControllerRef[*api.Deployment](c.Informer, api.KindDeployment, rs.Namespace, owner)
	if !found {
		return nil, nil
	}
	return &controllerAndScale{d.UID, d.Replicas()}, nil
}

// getScaleController reads the controller's scale subresource from the
// API server (a live read, not the cache): a kind without one is an
// error, a missing object none.
func (c *Controller) getScaleController(tick reconcile.Tick, ref *api.OwnerReference, ns string) (*controllerAndScale, error) {
	group, version, err := parseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, err
	}
	if api.APIVersionOf(ref.Kind) != ref.APIVersion || !apiserver.Known(ref.Kind) {
		return nil, fmt.Errorf("no matches for kind %q in version %q", ref.Kind, strings.Trim(group+"/"+version, "/"))
	}
	if !hasScale(ref.Kind) {
		return nil, fmt.Errorf("%s does not implement the scale subresource", apiserver.Resource(ref.Kind))
	}
	o, found := tick.LiveGet(api.Key{Kind: ref.Kind, Namespace: ns, Name: ref.Name})
	if !found || o.Meta().UID != ref.UID {
		return nil, nil
	}
	return &controllerAndScale{ref.UID, scaleOf(o)}, nil
}

// hasScale reports whether the kind serves the scale subresource.
func hasScale(kind string) bool {
	return kind == api.KindDeployment || kind == api.KindReplicaSet || kind == api.KindStatefulSet || kind == api.KindReplicationController
}

func scaleOf(o api.Object) int32 {
	switch t := o.(type) {
	case *api.Deployment:
		return t.Replicas()
	case *api.ReplicaSet:
		return t.Replicas()
	case *api.StatefulSet:
		return t.Replicas()
	case *api.ReplicationController:
		return t.Replicas()
	}
	return 0
}

// verifyGroupKind reports whether ref is of kind in one of groups.
func verifyGroupKind(ref *api.OwnerReference, kind string, groups ...string) (bool, error) {
	group, _, err := parseGroupVersion(ref.APIVersion)
	if err != nil {
		return false, err
	}
	if ref.Kind != kind {
		return false, nil
	}
	for _, g := range groups {
		if g == group {
			return true, nil
		}
	}
	return false, nil
}

// parseGroupVersion is schema.ParseGroupVersion.
func parseGroupVersion(gv string) (group, version string, err error) {
	if gv == "" || gv == "/" {
		return "", "", nil
	}
	switch parts := strings.Split(gv, "/"); len(parts) {
	case 1:
		return "", parts[0], nil
	case 2:
		return parts[0], parts[1], nil
	}
	return "", "", fmt.Errorf("unexpected GroupVersion string: %v", gv)
}
