package kubectl

// This file prints a pod's volumes and a container's mounts as kubectl
// v1.34's describeVolumes and describeContainerVolumes do
// (pkg/describe/describe.go, print*VolumeSource).

import (
	"fmt"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/order"
)

// volumeLines is describeVolumes: each volume's name, then its source's
// lines (at the same column in a pod and in a template).
func volumeLines(w *prefixWriter, level int, vols []api.Volume) {
	if len(vols) == 0 {
		w.line(level, "Volumes:\t<none>")
		return
	}
	w.line(level, "Volumes:")
	indent := ""
	if level > 0 {
		indent = " "
	}
	for i := range vols {
		v := &vols[i]
		w.line(1, "%s%s:", indent, v.Name)
		volumeSourceLines(w, v)
	}
}

// volumeSourceLines prints one volume's source, as its print*VolumeSource.
func volumeSourceLines(w *prefixWriter, v *api.Volume) {
	switch {
	case v.HostPath != nil:
		w.line(2, "Type:\tHostPath (bare host directory volume)")
		w.line(2, "Path:\t%s", v.HostPath.Path)
		w.line(2, "HostPathType:\t%s", derefOr(v.HostPath.Type, "<none>"))
	case v.EmptyDir != nil:
		limit := "<unset>"
		if q := v.EmptyDir.SizeLimit; q != nil && q.MilliValue() > 0 {
			limit = q.String()
		}
		w.line(2, "Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)")
		w.line(2, "Medium:\t%s", v.EmptyDir.Medium)
		w.line(2, "SizeLimit:\t%s", limit)
	case v.Secret != nil:
		w.line(2, "Type:\tSecret (a volume populated by a Secret)")
		w.line(2, "SecretName:\t%s", v.Secret.SecretName)
		w.line(2, "Optional:\t%v", isSet(v.Secret.Optional))
	case v.ConfigMap != nil:
		w.line(2, "Type:\tConfigMap (a volume populated by a ConfigMap)")
		w.line(2, "Name:\t%s", v.ConfigMap.Name)
		w.line(2, "Optional:\t%v", isSet(v.ConfigMap.Optional))
	case v.NFS != nil:
		w.line(2, "Type:\tNFS (an NFS mount that lasts the lifetime of a pod)")
		w.line(2, "Server:\t%s", v.NFS.Server)
		w.line(2, "Path:\t%s", v.NFS.Path)
		w.line(2, "ReadOnly:\t%v", v.NFS.ReadOnly)
	case v.PersistentVolumeClaim != nil:
		w.line(2, "Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)")
		w.line(2, "ClaimName:\t%s", v.PersistentVolumeClaim.ClaimName)
		w.line(2, "ReadOnly:\t%v", v.PersistentVolumeClaim.ReadOnly)
	case v.DownwardAPI != nil:
		w.line(2, "Type:\tDownwardAPI (a volume populated by information about the pod)")
		w.line(2, "Items:")
		downwardLines(w, v.DownwardAPI.Items)
	case v.Projected != nil:
		w.line(2, "Type:\tProjected (a volume that contains injected data from multiple sources)")
		projectedLines(w, v.Projected.Sources)
	default:
		w.line(1, "<unknown>")
	}
}

// downwardLines are a downward API volume's items: field -> file.
func downwardLines(w *prefixWriter, items []api.DownwardAPIVolumeFile) {
	for _, f := range items {
		if f.FieldRef != nil {
			w.line(3, "%s -> %s", f.FieldRef.FieldPath, f.Path)
		}
		if f.ResourceFieldRef != nil {
			w.line(3, "%s -> %s", f.ResourceFieldRef.Resource, f.Path)
		}
	}
}

// projectedLines are printProjectedVolumeSource's lines for each source.
func projectedLines(w *prefixWriter, sources []api.VolumeProjection) {
	for _, s := range sources {
		switch {
		case s.Secret != nil:
			w.line(2, "SecretName:\t%s", s.Secret.Name)
			w.line(2, "Optional:\t%v", isSet(s.Secret.Optional))
		case s.DownwardAPI != nil:
			w.line(2, "DownwardAPI:\ttrue")
		case s.ConfigMap != nil:
			w.line(2, "ConfigMapName:\t%s", s.ConfigMap.Name)
			w.line(2, "Optional:\t%v", isSet(s.ConfigMap.Optional))
		case s.ServiceAccountToken != nil:
			w.line(2, "TokenExpirationSeconds:\t%d", derefOr(s.ServiceAccountToken.ExpirationSeconds, 0))
		}
	}
}

// mountLines is describeContainerVolumes: the mounts sorted by path, each
// read-only or read-write, with its subPath.
func mountLines(w *prefixWriter, level int, mounts []api.VolumeMount) {
	if len(mounts) == 0 {
		w.line(level, "Mounts:\t<none>")
		return
	}
	w.line(level, "Mounts:")
	sorted := slices.Clone(mounts)
	order.SortStableFunc(sorted, func(a, b api.VolumeMount) int { return strings.Compare(a.MountPath, b.MountPath) })
	for _, m := range sorted {
		flags := "rw"
		if m.ReadOnly {
			flags = "ro"
		}
		if m.SubPath != "" {
			flags += fmt.Sprintf(",path=%q", m.SubPath)
		}
		w.line(level+1, "%s from %s (%s)", m.MountPath, m.Name, flags)
	}
}

func isSet(b *bool) bool { return b != nil && *b }

// derefOr is *p, or or when p is nil.
func derefOr[T any](p *T, or T) T {
	if p == nil {
		return or
	}
	return *p
}
