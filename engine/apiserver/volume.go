package apiserver

// This file is a pod spec's volumes and a container's mounts: their
// defaults (pkg/apis/core/v1/defaults.go SetDefaults_*VolumeSource) and
// validation (pkg/apis/core/validation ValidateVolumes,
// validateVolumeSource, ValidateVolumeMounts) for the sources Stateflow
// stores. A volume whose source Stateflow does not model (a CSI driver, a
// cloud disk) reaches the API server without one and is not checked for
// it.

import (
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// defaultMode is the mode of the files of ConfigMap, Secret, downward
// API and projected volumes (0644).
const defaultMode = 0o644

// defaultVolumes sets the volume sources' defaults, on a copy of the
// volumes if any lacks one (a pod spec shares its volumes with the
// template it was made from).
func defaultVolumes(s *api.PodSpec) {
	for i := range s.Volumes {
		if defaultVolume(&s.Volumes[i], false) {
			own := api.PodSpec{Volumes: s.Volumes}
			s.Volumes = own.DeepCopy().Volumes
			for j := range s.Volumes {
				defaultVolume(&s.Volumes[j], true)
			}
			return
		}
	}
}

// defaultVolume reports whether v lacks a default, and with apply sets
// them (as defaultContainer).
func defaultVolume(v *api.Volume, apply bool) (lacks bool) {
	mode := func(m **int32) {
		if *m == nil {
			lacks = true
			if apply {
				*m = api.Int32(defaultMode)
			}
		}
	}
	switch {
	case v.ConfigMap != nil:
		mode(&v.ConfigMap.DefaultMode)
	case v.Secret != nil:
		mode(&v.Secret.DefaultMode)
	case v.DownwardAPI != nil:
		mode(&v.DownwardAPI.DefaultMode)
		lacks = defaultFieldRefs(v.DownwardAPI.Items, apply) || lacks
	case v.Projected != nil:
		mode(&v.Projected.DefaultMode)
		lacks = defaultProjections(v.Projected.Sources, apply) || lacks
	case v.HostPath != nil && v.HostPath.Type == nil:
		lacks = true
		if apply {
			v.HostPath.Type = new(string) // HostPathUnset
		}
	}
	return lacks
}

// defaultProjections: a service account token expires after an hour.
func defaultProjections(ps []api.VolumeProjection, apply bool) (lacks bool) {
	for i := range ps {
		if t := ps[i].ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
			lacks = true
			if apply {
				t.ExpirationSeconds = api.Int64(3600)
			}
		}
		if d := ps[i].DownwardAPI; d != nil {
			lacks = defaultFieldRefs(d.Items, apply) || lacks
		}
	}
	return lacks
}

// defaultFieldRefs: a field reference's apiVersion is v1.
func defaultFieldRefs(files []api.DownwardAPIVolumeFile, apply bool) (lacks bool) {
	for i := range files {
		if f := files[i].FieldRef; f != nil && f.APIVersion == "" {
			lacks = true
			if apply {
				f.APIVersion = "v1"
			}
		}
	}
	return lacks
}

// validateVolumes checks each volume's name and source.
func validateVolumes(e *errs, path string, vols []api.Volume) {
	for i := range vols {
		p := path + ".volumes[" + strconv.Itoa(i) + "]"
		validateVolumeSource(e, p, &vols[i])
		switch v := &vols[i]; {
		case v.Name == "":
			e.required(p + ".name")
		case !isDNS1123Label(v.Name):
			e.invalid(p+".name", v.Name, dns1123LabelMsg)
		case volumeIndex(vols[:i], v.Name) >= 0:
			e.add(p+".name", "Duplicate value: %q", v.Name)
		}
	}
}

// validateVolumeSource: one source at most (the second is forbidden),
// and the name each source must have.
func validateVolumeSource(e *errs, p string, v *api.Volume) {
	n := 0
	for _, src := range [...]struct {
		name string
		set  bool
	}{{"hostPath", v.HostPath != nil}, {"emptyDir", v.EmptyDir != nil}, {"secret", v.Secret != nil}, {"nfs", v.NFS != nil},
		{"persistentVolumeClaim", v.PersistentVolumeClaim != nil}, {"downwardAPI", v.DownwardAPI != nil},
		{"configMap", v.ConfigMap != nil}, {"projected", v.Projected != nil}} {
		if src.set {
			if n++; n > 1 {
				e.add(p+"."+src.name, "Forbidden: may not specify more than 1 volume type")
			}
		}
	}
	switch {
	case n > 1:
	case v.ConfigMap != nil && v.ConfigMap.Name == "":
		e.required(p + ".configMap.name")
	case v.Secret != nil && v.Secret.SecretName == "":
		e.required(p + ".secret.secretName")
	case v.HostPath != nil && v.HostPath.Path == "":
		e.required(p + ".hostPath.path")
	case v.PersistentVolumeClaim != nil && v.PersistentVolumeClaim.ClaimName == "":
		e.required(p + ".persistentVolumeClaim.claimName")
	}
}

// volumeOK says volume i raised no error: only those can be mounted
// (ValidateVolumes leaves a volume with errors out of the names the
// mounts may use).
func volumeOK(vols []api.Volume, i int) bool {
	var e errs
	validateVolumeSource(&e, "", &vols[i])
	name := vols[i].Name
	return len(e) == 0 && name != "" && isDNS1123Label(name) && volumeIndex(vols[:i], name) < 0
}

// volumeIndex is the index of the volume called name, -1 if none.
func volumeIndex(vols []api.Volume, name string) int {
	for i := range vols {
		if vols[i].Name == name {
			return i
		}
	}
	return -1
}

// validateVolumeMounts checks a container's mounts: each names a volume
// of the pod, and has a mount path no other mount of the container has.
func validateVolumeMounts(e *errs, c containerPath, mounts []api.VolumeMount, vols []api.Volume) {
	for i, m := range mounts {
		p := c.field(".volumeMounts[" + strconv.Itoa(i) + "]")
		if m.Name == "" {
			e.required(p + ".name")
		}
		if j := volumeIndex(vols, m.Name); j < 0 || !volumeOK(vols, j) {
			e.add(p+".name", "Not found: %q", m.Name)
		}
		if m.MountPath == "" {
			e.required(p + ".mountPath")
		}
		for _, o := range mounts[:i] {
			if o.MountPath == m.MountPath {
				e.invalid(p+".mountPath", m.MountPath, "must be unique")
				break
			}
		}
	}
}
