package api

// Volume is v1.Volume with the sources pods commonly use: a claim, a
// scratch directory, a ConfigMap, a Secret, a host path, the downward
// API, a projection of several, and NFS. The kubelet mounts the
// ConfigMaps and Secrets (FailedMount while one is missing); the others
// mount at once.
type Volume struct {
	Name                  string                             `json:"name" yaml:"name"`
	PersistentVolumeClaim *PersistentVolumeClaimVolumeSource `json:"persistentVolumeClaim,omitempty" yaml:"persistentVolumeClaim,omitempty"`
	// EmptyDir is a scratch directory that lives as long as the pod
	// (kubectl drain refuses such pods without --delete-emptydir-data).
	EmptyDir    *EmptyDirVolumeSource    `json:"emptyDir,omitempty" yaml:"emptyDir,omitempty"`
	ConfigMap   *ConfigMapVolumeSource   `json:"configMap,omitempty" yaml:"configMap,omitempty"`
	Secret      *SecretVolumeSource      `json:"secret,omitempty" yaml:"secret,omitempty"`
	HostPath    *HostPathVolumeSource    `json:"hostPath,omitempty" yaml:"hostPath,omitempty"`
	DownwardAPI *DownwardAPIVolumeSource `json:"downwardAPI,omitempty" yaml:"downwardAPI,omitempty"`
	Projected   *ProjectedVolumeSource   `json:"projected,omitempty" yaml:"projected,omitempty"`
	NFS         *NFSVolumeSource         `json:"nfs,omitempty" yaml:"nfs,omitempty"`
}

// EmptyDirVolumeSource is v1.EmptyDirVolumeSource.
type EmptyDirVolumeSource struct {
	Medium    string    `json:"medium,omitempty" yaml:"medium,omitempty"`
	SizeLimit *Quantity `json:"sizeLimit,omitempty" yaml:"sizeLimit,omitempty"`
}

// KeyToPath is v1.KeyToPath: one key of a ConfigMap or a Secret, as a
// file.
type KeyToPath struct {
	Key  string `json:"key" yaml:"key"`
	Path string `json:"path" yaml:"path"`
	Mode *int32 `json:"mode,omitempty" yaml:"mode,omitempty"`
}

// ConfigMapVolumeSource is v1.ConfigMapVolumeSource: the ConfigMap's
// keys (or the items named) as files.
type ConfigMapVolumeSource struct {
	Name        string      `json:"name,omitempty" yaml:"name,omitempty"`
	Items       []KeyToPath `json:"items,omitempty" yaml:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty" yaml:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// SecretVolumeSource is v1.SecretVolumeSource.
type SecretVolumeSource struct {
	SecretName  string      `json:"secretName,omitempty" yaml:"secretName,omitempty"`
	Items       []KeyToPath `json:"items,omitempty" yaml:"items,omitempty"`
	DefaultMode *int32      `json:"defaultMode,omitempty" yaml:"defaultMode,omitempty"`
	Optional    *bool       `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// HostPathVolumeSource is v1.HostPathVolumeSource.
type HostPathVolumeSource struct {
	Path string  `json:"path" yaml:"path"`
	Type *string `json:"type,omitempty" yaml:"type,omitempty"`
}

// DownwardAPIVolumeFile is v1.DownwardAPIVolumeFile: a field of the pod
// as a file.
type DownwardAPIVolumeFile struct {
	Path             string                 `json:"path" yaml:"path"`
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty" yaml:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty" yaml:"resourceFieldRef,omitempty"`
	Mode             *int32                 `json:"mode,omitempty" yaml:"mode,omitempty"`
}

// ResourceFieldSelector is v1.ResourceFieldSelector.
type ResourceFieldSelector struct {
	ContainerName string    `json:"containerName,omitempty" yaml:"containerName,omitempty"`
	Resource      string    `json:"resource" yaml:"resource"`
	Divisor       *Quantity `json:"divisor,omitempty" yaml:"divisor,omitempty"`
}

// DownwardAPIVolumeSource is v1.DownwardAPIVolumeSource.
type DownwardAPIVolumeSource struct {
	Items       []DownwardAPIVolumeFile `json:"items,omitempty" yaml:"items,omitempty"`
	DefaultMode *int32                  `json:"defaultMode,omitempty" yaml:"defaultMode,omitempty"`
}

// ProjectedVolumeSource is v1.ProjectedVolumeSource.
type ProjectedVolumeSource struct {
	Sources     []VolumeProjection `json:"sources" yaml:"sources"`
	DefaultMode *int32             `json:"defaultMode,omitempty" yaml:"defaultMode,omitempty"`
}

// VolumeProjection is v1.VolumeProjection, one source of a projected
// volume.
type VolumeProjection struct {
	Secret              *SecretProjection              `json:"secret,omitempty" yaml:"secret,omitempty"`
	DownwardAPI         *DownwardAPIProjection         `json:"downwardAPI,omitempty" yaml:"downwardAPI,omitempty"`
	ConfigMap           *ConfigMapProjection           `json:"configMap,omitempty" yaml:"configMap,omitempty"`
	ServiceAccountToken *ServiceAccountTokenProjection `json:"serviceAccountToken,omitempty" yaml:"serviceAccountToken,omitempty"`
}

// SecretProjection is v1.SecretProjection.
type SecretProjection struct {
	Name     string      `json:"name,omitempty" yaml:"name,omitempty"`
	Items    []KeyToPath `json:"items,omitempty" yaml:"items,omitempty"`
	Optional *bool       `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// ConfigMapProjection is v1.ConfigMapProjection.
type ConfigMapProjection struct {
	Name     string      `json:"name,omitempty" yaml:"name,omitempty"`
	Items    []KeyToPath `json:"items,omitempty" yaml:"items,omitempty"`
	Optional *bool       `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// DownwardAPIProjection is v1.DownwardAPIProjection.
type DownwardAPIProjection struct {
	Items []DownwardAPIVolumeFile `json:"items,omitempty" yaml:"items,omitempty"`
}

// ServiceAccountTokenProjection is v1.ServiceAccountTokenProjection.
type ServiceAccountTokenProjection struct {
	Audience          string `json:"audience,omitempty" yaml:"audience,omitempty"`
	ExpirationSeconds *int64 `json:"expirationSeconds,omitempty" yaml:"expirationSeconds,omitempty"`
	Path              string `json:"path" yaml:"path"`
}

// NFSVolumeSource is v1.NFSVolumeSource.
type NFSVolumeSource struct {
	Server   string `json:"server" yaml:"server"`
	Path     string `json:"path" yaml:"path"`
	ReadOnly bool   `json:"readOnly,omitempty" yaml:"readOnly,omitempty"`
}

// VolumeMount is v1.VolumeMount: where a container sees a volume.
type VolumeMount struct {
	Name      string `json:"name" yaml:"name"`
	ReadOnly  bool   `json:"readOnly,omitempty" yaml:"readOnly,omitempty"`
	MountPath string `json:"mountPath" yaml:"mountPath"`
	SubPath   string `json:"subPath,omitempty" yaml:"subPath,omitempty"`
}

// deepCopy is a copy of the volume that shares nothing with it.
func (v *Volume) deepCopy() Volume {
	out := *v
	out.PersistentVolumeClaim = copyPtr(v.PersistentVolumeClaim)
	if v.EmptyDir != nil {
		e := *v.EmptyDir
		e.SizeLimit = copyPtr(e.SizeLimit)
		out.EmptyDir = &e
	}
	if c := v.ConfigMap; c != nil {
		out.ConfigMap = &ConfigMapVolumeSource{Name: c.Name, Items: copyItems(c.Items), DefaultMode: copyPtr(c.DefaultMode), Optional: copyPtr(c.Optional)}
	}
	if s := v.Secret; s != nil {
		out.Secret = &SecretVolumeSource{SecretName: s.SecretName, Items: copyItems(s.Items), DefaultMode: copyPtr(s.DefaultMode), Optional: copyPtr(s.Optional)}
	}
	if h := v.HostPath; h != nil {
		out.HostPath = &HostPathVolumeSource{Path: h.Path, Type: copyPtr(h.Type)}
	}
	if d := v.DownwardAPI; d != nil {
		out.DownwardAPI = &DownwardAPIVolumeSource{Items: copyFiles(d.Items), DefaultMode: copyPtr(d.DefaultMode)}
	}
	if p := v.Projected; p != nil {
		out.Projected = &ProjectedVolumeSource{Sources: copyProjections(p.Sources), DefaultMode: copyPtr(p.DefaultMode)}
	}
	out.NFS = copyPtr(v.NFS)
	return out
}

func copyItems(items []KeyToPath) []KeyToPath {
	out := copySlice(items)
	for i := range out {
		out[i].Mode = copyPtr(out[i].Mode)
	}
	return out
}

func copyFiles(files []DownwardAPIVolumeFile) []DownwardAPIVolumeFile {
	out := copySlice(files)
	for i := range out {
		f := &out[i]
		f.FieldRef, f.Mode = copyPtr(f.FieldRef), copyPtr(f.Mode)
		if r := f.ResourceFieldRef; r != nil {
			f.ResourceFieldRef = &ResourceFieldSelector{ContainerName: r.ContainerName, Resource: r.Resource, Divisor: copyPtr(r.Divisor)}
		}
	}
	return out
}

func copyProjections(ps []VolumeProjection) []VolumeProjection {
	out := copySlice(ps)
	for i := range out {
		p := &out[i]
		if s := p.Secret; s != nil {
			p.Secret = &SecretProjection{Name: s.Name, Items: copyItems(s.Items), Optional: copyPtr(s.Optional)}
		}
		if c := p.ConfigMap; c != nil {
			p.ConfigMap = &ConfigMapProjection{Name: c.Name, Items: copyItems(c.Items), Optional: copyPtr(c.Optional)}
		}
		if d := p.DownwardAPI; d != nil {
			p.DownwardAPI = &DownwardAPIProjection{Items: copyFiles(d.Items)}
		}
		if t := p.ServiceAccountToken; t != nil {
			p.ServiceAccountToken = &ServiceAccountTokenProjection{Audience: t.Audience, ExpirationSeconds: copyPtr(t.ExpirationSeconds), Path: t.Path}
		}
	}
	return out
}
