package daemon

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// daemonTolerations are the tolerations the controller adds to every
// daemon pod (AddOrUpdateDaemonPodTolerations in
// pkg/controller/daemon/util): a daemon pod keeps running on a node that
// is not ready, unreachable, under pressure or cordoned.
var daemonTolerations = []api.Toleration{
	{Key: "node.kubernetes.io/not-ready", Operator: "Exists", Effect: api.TaintNoExecute},
	{Key: "node.kubernetes.io/unreachable", Operator: "Exists", Effect: api.TaintNoExecute},
	{Key: "node.kubernetes.io/disk-pressure", Operator: "Exists", Effect: api.TaintNoSchedule},
	{Key: "node.kubernetes.io/memory-pressure", Operator: "Exists", Effect: api.TaintNoSchedule},
	{Key: "node.kubernetes.io/pid-pressure", Operator: "Exists", Effect: api.TaintNoSchedule},
	{Key: "node.kubernetes.io/unschedulable", Operator: "Exists", Effect: api.TaintNoSchedule},
}

// withTolerations returns the tolerations with the daemon ones added
// (or replaced, if the template has one with the same key and effect).
func withTolerations(tols []api.Toleration) []api.Toleration {
	out := slices.Clone(tols)
	for _, d := range daemonTolerations {
		i := slices.IndexFunc(out, func(t api.Toleration) bool { return t.Key == d.Key && t.Effect == d.Effect })
		if i >= 0 {
			out[i] = d
		} else {
			out = append(out, d)
		}
	}
	return out
}

// NodeShouldRunDaemonPod is NodeShouldRunDaemonPod (daemon_controller.go):
// whether a new daemon pod should run on the node, and whether one
// already there may keep running. An untolerated NoSchedule taint keeps
// new pods away; only an untolerated NoExecute taint sends one away.
func NodeShouldRunDaemonPod(n *api.Node, ds *api.DaemonSet) (shouldRun, shouldContinueRunning bool) {
	spec := &ds.Spec.Template.Spec
	if spec.NodeName != "" && spec.NodeName != n.Name {
		return false, false
	}
	if !spec.RequiredNodeAffinity().Match(n) {
		return false, false
	}
	tols := withTolerations(spec.Tolerations)
	fits, noExecute := true, false
	for _, t := range n.Spec.Taints {
		if t.Effect != api.TaintNoSchedule && t.Effect != api.TaintNoExecute || tolerated(tols, t) {
			continue
		}
		fits = false
		noExecute = noExecute || t.Effect == api.TaintNoExecute
	}
	if !fits {
		return false, !noExecute
	}
	return true, true
}

func tolerated(tols []api.Toleration, t api.Taint) bool {
	for _, tol := range tols {
		if tol.Tolerates(t) {
			return true
		}
	}
	return false
}

// newPod is CreatePodTemplate with the node affinity syncNodes sets: the
// template, its tolerations, the revision labels, pinned to node.
func newPod(ds *api.DaemonSet, hash, node string) *api.Pod {
	t := ds.Spec.Template.DeepCopy()
	labels := make(map[string]string, len(t.Labels)+2)
	for k, v := range t.Labels {
		labels[k] = v
	}
	if g := ds.Annotations[api.AnnotationTemplateGeneration]; g != "" {
		labels[api.LabelPodTemplateGeneration] = g
	}
	labels[api.LabelControllerRevisionHash] = hash
	t.Spec.Tolerations = withTolerations(t.Spec.Tolerations)
	t.Spec.Affinity = pinnedTo(t.Spec.Affinity, node)
	return &api.Pod{ObjectMeta: api.ObjectMeta{GenerateName: ds.Name + "-", Namespace: ds.Namespace, Labels: labels, Annotations: t.Annotations,
		OwnerReferences: []api.OwnerReference{api.NewControllerRef(ds, "apps/v1")}}, Spec: &t.Spec}
}

// pinnedTo is ReplaceDaemonSetPodNodeNameNodeAffinity: the required node
// affinity becomes one term matching the node's name.
func pinnedTo(a *api.Affinity, node string) *api.Affinity {
	sel := &api.NodeSelector{NodeSelectorTerms: []api.NodeSelectorTerm{{MatchFields: []api.NodeSelectorRequirement{{Key: api.ObjectNameField, Operator: "In", Values: []string{node}}}}}}
	if a == nil {
		a = &api.Affinity{}
	}
	a.NodeAffinity = &api.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}
	return a
}

// targetNode is GetTargetNodeName: the node the pod is bound to, or the
// one its node affinity pins it to.
func targetNode(p *api.Pod) string {
	if p.Spec.NodeName != "" {
		return p.Spec.NodeName
	}
	if sel := p.Spec.RequiredNodeSelector(); sel != nil && len(sel.NodeSelectorTerms) == 1 {
		for _, r := range sel.NodeSelectorTerms[0].MatchFields {
			if r.Key == api.ObjectNameField && r.Operator == "In" && len(r.Values) == 1 {
				return r.Values[0]
			}
		}
	}
	return ""
}

// templateGeneration is the DaemonSet's template generation, if known.
func templateGeneration(ds *api.DaemonSet) (int64, bool) {
	g, err := strconv.ParseInt(ds.Annotations[api.AnnotationTemplateGeneration], 10, 64)
	return g, err == nil
}

// isPodUpdated is IsPodUpdated: the pod carries the current revision's
// hash or template generation.
func isPodUpdated(p *api.Pod, hash string, ds *api.DaemonSet) bool {
	if g, ok := templateGeneration(ds); ok && p.Labels[api.LabelPodTemplateGeneration] == strconv.FormatInt(g, 10) {
		return true
	}
	return hash != "" && p.Labels[api.LabelControllerRevisionHash] == hash
}

// byAge is podByCreationTimestampAndPhase: bound pods first, then the
// oldest, then by name.
func byAge(a, b *api.Pod) int {
	if (a.Spec.NodeName != "") != (b.Spec.NodeName != "") {
		if a.Spec.NodeName != "" {
			return -1
		}
		return 1
	}
	return cmp.Or(cmp.Compare(a.CreationTimestamp.MS, b.CreationTimestamp.MS), cmp.Compare(a.Name, b.Name))
}

// counts is updatedDesiredNodeCounts' arithmetic: maxUnavailable and
// maxSurge of desired nodes, rounded up; 1 unavailable if both are 0.
func counts(ds *api.DaemonSet, desired int) (maxSurge, maxUnavailable int) {
	if ru := ds.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if ru.MaxUnavailable != nil {
			maxUnavailable, _ = ru.MaxUnavailable.ScaledValue(desired, true)
		}
		if ru.MaxSurge != nil {
			maxSurge, _ = ru.MaxSurge.ScaledValue(desired, true)
		}
	}
	if desired > 0 && maxUnavailable == 0 && maxSurge == 0 {
		maxUnavailable = 1
	}
	return maxSurge, maxUnavailable
}
