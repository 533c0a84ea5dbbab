package kubectl

// This file prints StatefulSets and PersistentVolumeClaims: their get
// columns (pkg/printers/internalversion/printers.go printStatefulSet,
// printPersistentVolumeClaim), describe (k8s.io/kubectl pkg/describe
// StatefulSetDescriber, PersistentVolumeClaimDescriber and the volumes
// of describePod and DescribePodTemplate) and rollout status of a
// StatefulSet (pkg/polymorphichelpers StatefulSetStatusViewer). Its
// history and undo are revisions.go's, shared with DaemonSets.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// statefulSetRow is printStatefulSet: READY is ready pods over
// spec.replicas.
func statefulSetRow(s *api.StatefulSet, name string, wide bool, now int64) []string {
	r := []string{name, fmt.Sprintf("%d/%d", s.Status.ReadyReplicas, s.Replicas()), age(s.CreationTimestamp, now)}
	if wide {
		r = append(r, containerNames(&s.Spec.Template.Spec), images(&s.Spec.Template.Spec))
	}
	return r
}

// claimRow is printPersistentVolumeClaim: the capacity and access modes
// come from the status, and only once the claim names a volume; there
// are no VolumeAttributesClasses here.
func claimRow(c *api.PersistentVolumeClaim, name string, wide bool, now int64) []string {
	phase := c.Status.Phase
	if c.DeletionTimestamp != nil {
		phase = "Terminating"
	}
	capacity, modes := "", ""
	if c.Spec.VolumeName != "" {
		modes = accessModes(c.Status.AccessModes)
		q := c.Status.Capacity["storage"]
		capacity = q.String()
	}
	r := []string{name, phase, c.Spec.VolumeName, capacity, modes, claimClass(c), "<unset>", age(c.CreationTimestamp, now)}
	if wide {
		r = append(r, orUnset(c.Spec.VolumeMode))
	}
	return r
}

// accessModes is GetAccessModesAsString: the modes abbreviated, each
// once, always in the order RWO, ROX, RWX, RWOP.
func accessModes(modes []string) string {
	var out []string
	for _, m := range []struct{ mode, short string }{{"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}} {
		if contains(modes, m.mode) {
			out = append(out, m.short)
		}
	}
	return strings.Join(out, ",")
}

// betaStorageClassAnnotation names a claim's class before
// spec.storageClassName existed; it still wins.
const betaStorageClassAnnotation = "volume.beta.kubernetes.io/storage-class"

// claimClass is GetPersistentVolumeClaimClass.
func claimClass(c *api.PersistentVolumeClaim) string {
	if class, ok := c.Annotations[betaStorageClassAnnotation]; ok {
		return class
	}
	if c.Spec.StorageClassName != nil {
		return *c.Spec.StorageClassName
	}
	return ""
}

func orUnset(s string) string {
	if s == "" {
		return "<unset>"
	}
	return s
}

// describeStatefulSet is describeStatefulSet: the partition (and, only
// under it, maxUnavailable) when there is a rollingUpdate block, the pod
// template, then the claim templates.
func (s *Session) describeStatefulSet(w *prefixWriter, set *api.StatefulSet) {
	w.line(0, "Name:\t%s", set.Name)
	w.line(0, "Namespace:\t%s", set.Namespace)
	w.line(0, "CreationTimestamp:\t%s", timestamp(set.CreationTimestamp))
	w.line(0, "Selector:\t%s", set.Spec.Selector.String())
	mapLines(w, 0, "Labels", set.Labels, "=")
	annotationLines(w, set.Annotations)
	w.line(0, "Replicas:\t%d desired | %d total", set.Replicas(), set.Status.Replicas)
	w.line(0, "Update Strategy:\t%s", set.Spec.UpdateStrategy.Type)
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		w.line(1, "Partition:\t%d", *ru.Partition)
		if ru.MaxUnavailable != nil {
			w.line(1, "MaxUnavailable:\t%s", ru.MaxUnavailable.String())
		}
	}
	running, waiting, succeeded, failed := s.podPhases(set.Namespace, set.Spec.Selector, set.UID)
	w.line(0, "Pods Status:\t%d Running / %d Waiting / %d Succeeded / %d Failed", running, waiting, succeeded, failed)
	w.line(0, "Pod Template:")
	templateLines(w, 1, &set.Spec.Template)
	claimTemplateLines(w, set.Spec.VolumeClaimTemplates)
}

// claimTemplateLines is describeVolumeClaimTemplates. Annotations are
// printed like labels ("key=value"), and the access modes as Go prints a
// slice.
func claimTemplateLines(w *prefixWriter, templates []api.PersistentVolumeClaim) {
	if len(templates) == 0 {
		w.line(0, "Volume Claims:\t<none>")
		return
	}
	w.line(0, "Volume Claims:")
	for i := range templates {
		c := &templates[i]
		w.line(1, "Name:\t%s", c.Name)
		w.line(1, "StorageClass:\t%s", claimClass(c))
		mapLines(w, 1, "Labels", c.Labels, "=")
		mapLines(w, 1, "Annotations", c.Annotations, "=")
		if q, ok := c.Spec.Resources.Requests["storage"]; ok {
			w.line(1, "Capacity:\t%s", q.String())
		} else {
			w.line(1, "Capacity:\t<default>")
		}
		w.line(1, "Access Modes:\t%v", c.Spec.AccessModes)
	}
}

// describeClaim is describePersistentVolumeClaim: printPersistentVolumeClaim
// for a full claim, then the pods that mount it.
func (s *Session) describeClaim(w *prefixWriter, c *api.PersistentVolumeClaim) {
	w.line(0, "Name:\t%s", c.Name)
	w.line(0, "Namespace:\t%s", c.Namespace)
	w.line(0, "StorageClass:\t%s", claimClass(c))
	if c.DeletionTimestamp != nil {
		w.line(0, "Status:\tTerminating (lasts %s)", age(*c.DeletionTimestamp, s.Cluster.Now()))
	} else {
		w.line(0, "Status:\t%s", c.Status.Phase)
	}
	w.line(0, "Volume:\t%s", c.Spec.VolumeName)
	mapLines(w, 0, "Labels", c.Labels, "=")
	annotationLines(w, c.Annotations)
	w.line(0, "Finalizers:\t%v", c.Finalizers)
	capacity, modes := "", ""
	if c.Spec.VolumeName != "" {
		modes = accessModes(c.Status.AccessModes)
		q := c.Status.Capacity["storage"]
		capacity = q.String()
	}
	w.line(0, "Capacity:\t%s", capacity)
	w.line(0, "Access Modes:\t%s", modes)
	if c.Spec.VolumeMode != "" {
		w.line(0, "VolumeMode:\t%s", c.Spec.VolumeMode)
	}
	users := s.claimUsers(c)
	if len(users) == 0 {
		w.line(0, "Used By:\t<none>")
	}
	for i, name := range users {
		label := "Used By:"
		if i > 0 {
			label = ""
		}
		w.line(0, "%s\t%s", label, name)
	}
}

// claimUsers is getPodsForPVC: the names of the namespace's pods with a
// volume from the claim (a pod once for each such volume), then the pods
// among its owners, sorted.
func (s *Session) claimUsers(c *api.PersistentVolumeClaim) []string {
	var names []string
	byUID := map[string]string{}
	for _, o := range s.Cluster.Store().List(api.KindPod, c.Namespace) {
		p := o.(*api.Pod)
		byUID[p.UID] = p.Name
		for _, v := range p.Spec.Volumes {
			if v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == c.Name {
				names = append(names, p.Name)
			}
		}
	}
	for _, ref := range c.OwnerReferences {
		if name, ok := byUID[ref.UID]; ok && ref.Kind == api.KindPod && !contains(names, name) {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// statefulSetStatus is StatefulSetStatusViewer.Status (it ignores
// --revision). With a rollingUpdate block (the default) it counts pods
// against the partition; without one, it compares the revisions.
func statefulSetStatus(set *api.StatefulSet) (string, bool, error) {
	if set.Spec.UpdateStrategy.Type != api.StatefulSetRollingUpdate {
		return "", true, errorf("rollout status is only available for %s strategy type", api.StatefulSetRollingUpdate)
	}
	st := set.Status
	if st.ObservedGeneration == 0 || set.Generation > st.ObservedGeneration {
		return "Waiting for statefulset spec update to be observed...\n", false, nil
	}
	replicas := set.Replicas()
	if set.Spec.Replicas != nil && st.ReadyReplicas < replicas {
		return fmt.Sprintf("Waiting for %d pods to be ready...\n", replicas-st.ReadyReplicas), false, nil
	}
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		if set.Spec.Replicas != nil && ru.Partition != nil && st.UpdatedReplicas < replicas-*ru.Partition {
			return fmt.Sprintf("Waiting for partitioned roll out to finish: %d out of %d new pods have been updated...\n", st.UpdatedReplicas, replicas-*ru.Partition), false, nil
		}
		return fmt.Sprintf("partitioned roll out complete: %d new pods have been updated...\n", st.UpdatedReplicas), true, nil
	}
	if st.UpdateRevision != st.CurrentRevision {
		return fmt.Sprintf("waiting for statefulset rolling update to complete %d pods at revision %s...\n", st.UpdatedReplicas, st.UpdateRevision), false, nil
	}
	return fmt.Sprintf("statefulset rolling update complete %d pods at revision %s...\n", st.CurrentReplicas, st.CurrentRevision), true, nil
}
