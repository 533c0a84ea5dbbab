package statefulset

import (
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/order"
)

// getParentNameAndOrdinal reads a pod's parent and ordinal as upstream's
// statefulPodRegex "(.*)-([0-9]+)$" does (the last "-" followed by
// digits only), without a regular expression: ok is false when the name
// does not match; ordinal is -1 when its digits overflow an int32
// (strconv.ParseInt(…, 10, 32), as upstream).
func getParentNameAndOrdinal(name string) (parent string, ordinal int, ok bool) {
	i := strings.LastIndexByte(name, '-')
	if i < 0 || i == len(name)-1 {
		return "", -1, false
	}
	for _, r := range name[i+1:] {
		if r < '0' || r > '9' {
			return "", -1, false
		}
	}
	n, err := strconv.ParseInt(name[i+1:], 10, 32)
	if err != nil {
		n = -1
	}
	return name[:i], int(n), true
}

// getOrdinal is getOrdinal: the pod's ordinal, or -1.
func getOrdinal(p *api.Pod) int {
	_, n, ok := getParentNameAndOrdinal(p.Name)
	if !ok {
		return -1
	}
	return n
}

func podName(set *api.StatefulSet, ordinal int) string {
	return set.Name + "-" + strconv.Itoa(ordinal)
}

// claimName is getPersistentVolumeClaimName: <claim>-<set>-<ordinal>.
func claimName(set *api.StatefulSet, claim *api.PersistentVolumeClaim, ordinal int) string {
	return claim.Name + "-" + set.Name + "-" + strconv.Itoa(ordinal)
}

// claims is getPersistentVolumeClaims: the pod's claims from the set's
// templates, labelled with the templates' labels and the set's selector.
func claims(set *api.StatefulSet, ordinal int) []*api.PersistentVolumeClaim {
	out := make([]*api.PersistentVolumeClaim, len(set.Spec.VolumeClaimTemplates))
	for i := range set.Spec.VolumeClaimTemplates {
		tmpl := &set.Spec.VolumeClaimTemplates[i]
		c := tmpl.DeepCopy()
		c.Name = claimName(set, tmpl, ordinal)
		c.Namespace = set.Namespace
		labels := map[string]string{}
		for k, v := range c.Labels {
			labels[k] = v
		}
		for k, v := range set.Spec.Selector.MatchLabels {
			labels[k] = v
		}
		c.Labels = labels
		c.TypeMeta = api.TypeMeta{}
		c.Status = api.PersistentVolumeClaimStatus{}
		out[i] = c
	}
	return out
}

// newStatefulSetPod is newStatefulSetPod: the template, owned by the
// set, with its identity and storage.
func newStatefulSetPod(set *api.StatefulSet, ordinal int) *api.Pod {
	t := set.Spec.Template.DeepCopy()
	p := &api.Pod{ObjectMeta: api.ObjectMeta{Name: podName(set, ordinal), GenerateName: set.Name + "-", Namespace: set.Namespace,
		Labels: t.Labels, Annotations: t.Annotations, Finalizers: t.Finalizers,
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(set, "apps/v1")}}, Spec: &t.Spec}
	initIdentity(set, p, ordinal)
	updateStorage(set, p, ordinal)
	return p
}

// initIdentity is initIdentity/updateIdentity: hostname, subdomain and
// the identity labels.
func initIdentity(set *api.StatefulSet, p *api.Pod, ordinal int) {
	p.Spec.Hostname = p.Name
	p.Spec.Subdomain = set.Spec.ServiceName
	labels := make(map[string]string, len(p.Labels)+3)
	for k, v := range p.Labels {
		labels[k] = v
	}
	labels[api.LabelStatefulSetPodName] = p.Name
	labels[api.LabelPodIndex] = strconv.Itoa(ordinal)
	p.Labels = labels
}

// identityMatches is identityMatches: the pod still has its identity.
func identityMatches(set *api.StatefulSet, p *api.Pod) bool {
	ordinal := getOrdinal(p)
	parent, _, _ := getParentNameAndOrdinal(p.Name)
	return ordinal >= 0 && set.Name == parent && p.Namespace == set.Namespace &&
		p.Labels[api.LabelStatefulSetPodName] == p.Name
}

// updateStorage is updateStorage: a volume per claim template, then the
// template's other volumes.
func updateStorage(set *api.StatefulSet, p *api.Pod, ordinal int) {
	var vols []api.Volume
	names := map[string]bool{}
	for i := range set.Spec.VolumeClaimTemplates {
		tmpl := &set.Spec.VolumeClaimTemplates[i]
		names[tmpl.Name] = true
		vols = append(vols, api.Volume{Name: tmpl.Name, PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: claimName(set, tmpl, ordinal)}})
	}
	order.SortFunc(vols, func(a, b api.Volume) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	for _, v := range p.Spec.Volumes {
		if !names[v.Name] {
			vols = append(vols, v)
		}
	}
	p.Spec.Volumes = vols
}

// storageMatches is storageMatches: every claim template's volume names
// the pod's claim.
func storageMatches(set *api.StatefulSet, p *api.Pod) bool {
	ordinal := getOrdinal(p)
	if ordinal < 0 {
		return false
	}
	for i := range set.Spec.VolumeClaimTemplates {
		tmpl := &set.Spec.VolumeClaimTemplates[i]
		name, claim := tmpl.Name, claimName(set, tmpl, ordinal)
		found := false
		for _, v := range p.Spec.Volumes {
			if v.Name == name && v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == claim {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// podRevision is getPodRevision: the revision label.
func podRevision(p *api.Pod) string { return p.Labels[api.LabelControllerRevisionHash] }

func setPodRevision(p *api.Pod, revision string) {
	p.Labels[api.LabelControllerRevisionHash] = revision
}

// applyRevision is ApplyRevision: the set with the revision's template.
func applyRevision(set *api.StatefulSet, r *api.ControllerRevision) *api.StatefulSet {
	out := *set
	out.Spec.Template = r.Data.Spec.Template.PodTemplateSpec.DeepCopy()
	return &out
}

// newVersionedStatefulSetPod is newVersionedStatefulSetPod: ordinals
// below the partition (or, without a rollingUpdate block, below the
// current replicas) get the current revision, the others the update.
func newVersionedStatefulSetPod(set *api.StatefulSet, current, update *api.ControllerRevision, ordinal int) *api.Pod {
	r := revisionFor(set, current, update, ordinal)
	p := newStatefulSetPod(applyRevision(set, r), ordinal)
	setPodRevision(p, r.Name)
	return p
}

// revisionFor is the revision newVersionedStatefulSetPod gives a new pod
// at ordinal: the current one below the partition (or, without a
// rollingUpdate block, below status.currentReplicas), else the update.
func revisionFor(set *api.StatefulSet, current, update *api.ControllerRevision, ordinal int) *api.ControllerRevision {
	st := set.Spec.UpdateStrategy
	start := int(set.StartOrdinal())
	if st.Type == api.StatefulSetRollingUpdate &&
		(st.RollingUpdate == nil && ordinal < start+int(set.Status.CurrentReplicas) ||
			st.RollingUpdate != nil && st.RollingUpdate.Partition != nil && ordinal < start+int(*st.RollingUpdate.Partition)) {
		return current
	}
	return update
}

// placeholderPod stands in a missing slot for the pod
// newVersionedStatefulSetPod would build: its name and revision, and no
// status, which is all the sync reads of a pod not created yet. The
// whole pod is built only when it is created (processReplica), so a
// sync of a large set that has created few pods does not build them all.
// Placeholders of one revision share one label map (labels), which
// nothing changes.
func placeholderPod(set *api.StatefulSet, current, update *api.ControllerRevision, ordinal int, labels map[*api.ControllerRevision]map[string]string) *api.Pod {
	r := revisionFor(set, current, update, ordinal)
	l, ok := labels[r]
	if !ok {
		l = map[string]string{api.LabelControllerRevisionHash: r.Name}
		labels[r] = l
	}
	return &api.Pod{ObjectMeta: api.ObjectMeta{Name: podName(set, ordinal), Namespace: set.Namespace, Labels: l}}
}

func isCreated(p *api.Pod) bool     { return p.Status.Phase != "" }
func isPending(p *api.Pod) bool     { return p.Status.Phase == api.PodPending }
func isFailed(p *api.Pod) bool      { return p.Status.Phase == api.PodFailed }
func isSucceeded(p *api.Pod) bool   { return p.Status.Phase == api.PodSucceeded }
func isTerminating(p *api.Pod) bool { return p.DeletionTimestamp != nil }

func isRunningAndReady(p *api.Pod) bool {
	return p.Status.Phase == api.PodRunning && api.IsPodReady(p)
}

func isRunningAndAvailable(p *api.Pod, minReadySeconds int32, now int64) bool {
	return p.Status.Phase == api.PodRunning && api.IsPodAvailable(p, minReadySeconds, now)
}

// isUnavailable is isUnavailable: not Running and available, or
// terminating.
func isUnavailable(p *api.Pod, minReadySeconds int32, now int64) bool {
	return !isRunningAndAvailable(p, minReadySeconds, now) || isTerminating(p)
}
