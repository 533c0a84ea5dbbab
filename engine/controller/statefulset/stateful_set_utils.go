package statefulset

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// statefulPodRegex is how upstream reads a pod's parent and ordinal.
var statefulPodRegex = regexp.MustCompile("(.*)-([0-9]+)$")

// getOrdinal is the pod's ordinal, -1 if its name has none.
func getOrdinal(p *api.Pod) int {
	m := statefulPodRegex.FindStringSubmatch(p.Name)
	if m == nil {
		return -1
	}
	n, err := strconv.Atoi(m[2])
	if err != nil {
		return -1
	}
	return n
}

func podName(set *api.StatefulSet, ordinal int) string {
	return fmt.Sprintf("%s-%d", set.Name, ordinal)
}

// claimName is getPersistentVolumeClaimName: <claim>-<set>-<ordinal>.
func claimName(set *api.StatefulSet, claim *api.PersistentVolumeClaim, ordinal int) string {
	return fmt.Sprintf("%s-%s-%d", claim.Name, set.Name, ordinal)
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
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(set, "apps/v1")}}, Spec: t.Spec}
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
	return ordinal >= 0 && set.Name == statefulPodRegex.FindStringSubmatch(p.Name)[1] && p.Namespace == set.Namespace &&
		p.Labels[api.LabelStatefulSetPodName] == p.Name
}

// updateStorage is updateStorage: a volume per claim template, then the
// template's other volumes.
func updateStorage(set *api.StatefulSet, p *api.Pod, ordinal int) {
	cs := claims(set, ordinal)
	var vols []api.Volume
	names := map[string]bool{}
	for i, c := range cs {
		name := set.Spec.VolumeClaimTemplates[i].Name
		names[name] = true
		vols = append(vols, api.Volume{Name: name, PersistentVolumeClaim: &api.PersistentVolumeClaimVolumeSource{ClaimName: c.Name}})
	}
	slices.SortFunc(vols, func(a, b api.Volume) int {
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
	cs := claims(set, ordinal)
	for i, c := range cs {
		name := set.Spec.VolumeClaimTemplates[i].Name
		found := false
		for _, v := range p.Spec.Volumes {
			if v.Name == name && v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == c.Name {
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
	st := set.Spec.UpdateStrategy
	start := int(set.StartOrdinal())
	if st.Type == api.StatefulSetRollingUpdate &&
		(st.RollingUpdate == nil && ordinal < start+int(set.Status.CurrentReplicas) ||
			st.RollingUpdate != nil && st.RollingUpdate.Partition != nil && ordinal < start+int(*st.RollingUpdate.Partition)) {
		p := newStatefulSetPod(applyRevision(set, current), ordinal)
		setPodRevision(p, current.Name)
		return p
	}
	p := newStatefulSetPod(applyRevision(set, update), ordinal)
	setPodRevision(p, update.Name)
	return p
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
