package api

import "slices"

func copyMap[K comparable, V any](m map[K]V) map[K]V {
	if m == nil {
		return nil
	}
	out := make(map[K]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func copySlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// DeepCopy returns an independent copy of the metadata.
func (m *ObjectMeta) DeepCopy() ObjectMeta {
	out := *m
	out.DeletionTimestamp = copyPtr(m.DeletionTimestamp)
	out.DeletionGracePeriodSeconds = copyPtr(m.DeletionGracePeriodSeconds)
	out.Labels = copyMap(m.Labels)
	out.Annotations = copyMap(m.Annotations)
	out.Finalizers = copySlice(m.Finalizers)
	if m.OwnerReferences != nil {
		out.OwnerReferences = make([]OwnerReference, len(m.OwnerReferences))
		for i, r := range m.OwnerReferences {
			r.Controller = copyPtr(r.Controller)
			r.BlockOwnerDeletion = copyPtr(r.BlockOwnerDeletion)
			out.OwnerReferences[i] = r
		}
	}
	return out
}

// DeepCopy returns an independent copy of the selector.
func (s *LabelSelector) DeepCopy() *LabelSelector {
	if s == nil {
		return nil
	}
	out := &LabelSelector{MatchLabels: copyMap(s.MatchLabels)}
	if s.MatchExpressions != nil {
		out.MatchExpressions = make([]LabelSelectorRequirement, len(s.MatchExpressions))
		for i, r := range s.MatchExpressions {
			r.Values = copySlice(r.Values)
			out.MatchExpressions[i] = r
		}
	}
	return out
}

func (p *Probe) deepCopy() *Probe {
	if p == nil {
		return nil
	}
	out := *p
	if p.HTTPGet != nil {
		h := *p.HTTPGet
		h.HTTPHeaders = copySlice(h.HTTPHeaders)
		out.HTTPGet = &h
	}
	out.TCPSocket = copyPtr(p.TCPSocket)
	if p.GRPC != nil {
		g := *p.GRPC
		g.Service = copyPtr(g.Service)
		out.GRPC = &g
	}
	if p.Exec != nil {
		out.Exec = &ExecAction{Command: copySlice(p.Exec.Command)}
	}
	return &out
}

func (c *Container) deepCopy() Container {
	out := *c
	out.Command = copySlice(c.Command)
	out.Args = copySlice(c.Args)
	out.Ports = copySlice(c.Ports)
	out.VolumeMounts = copySlice(c.VolumeMounts)
	out.Env = copySlice(c.Env)
	for i, e := range out.Env {
		if f := e.ValueFrom; f != nil {
			v := &EnvVarSource{FieldRef: copyPtr(f.FieldRef), ConfigMapKeyRef: copyPtr(f.ConfigMapKeyRef), SecretKeyRef: copyPtr(f.SecretKeyRef)}
			if r := f.ResourceFieldRef; r != nil {
				v.ResourceFieldRef = &ResourceFieldSelector{ContainerName: r.ContainerName, Resource: r.Resource, Divisor: copyPtr(r.Divisor)}
			}
			if v.ConfigMapKeyRef != nil {
				v.ConfigMapKeyRef.Optional = copyPtr(f.ConfigMapKeyRef.Optional)
			}
			if v.SecretKeyRef != nil {
				v.SecretKeyRef.Optional = copyPtr(f.SecretKeyRef.Optional)
			}
			out.Env[i].ValueFrom = v
		}
	}
	out.EnvFrom = copySlice(c.EnvFrom)
	for i, e := range out.EnvFrom {
		if r := copyPtr(e.ConfigMapRef); r != nil {
			r.Optional, out.EnvFrom[i].ConfigMapRef = copyPtr(r.Optional), r
		}
		if r := copyPtr(e.SecretRef); r != nil {
			r.Optional, out.EnvFrom[i].SecretRef = copyPtr(r.Optional), r
		}
	}
	out.Resources = ResourceRequirements{Limits: copyMap(c.Resources.Limits), Requests: copyMap(c.Resources.Requests)}
	out.LivenessProbe = c.LivenessProbe.deepCopy()
	out.ReadinessProbe = c.ReadinessProbe.deepCopy()
	out.StartupProbe = c.StartupProbe.deepCopy()
	out.Lifecycle = c.Lifecycle.deepCopy()
	out.RestartPolicy = copyPtr(c.RestartPolicy)
	return out
}

func copyContainers(in []Container) []Container {
	if in == nil {
		return nil
	}
	out := make([]Container, len(in))
	for i := range in {
		out[i] = in[i].deepCopy()
	}
	return out
}

// DeepCopy returns an independent copy of the pod spec.
func (s *PodSpec) DeepCopy() PodSpec {
	out := *s
	out.InitContainers = copyContainers(s.InitContainers)
	out.Containers = copyContainers(s.Containers)
	out.TerminationGracePeriodSeconds = copyPtr(s.TerminationGracePeriodSeconds)
	out.NodeSelector = copyMap(s.NodeSelector)
	out.SecurityContext = copyPtr(s.SecurityContext)
	out.Priority = copyPtr(s.Priority)
	out.PreemptionPolicy = copyPtr(s.PreemptionPolicy)
	out.Affinity = s.Affinity.DeepCopy()
	out.SchedulingGates = slices.Clone(s.SchedulingGates)
	out.TopologySpreadConstraints = deepCopyTopologySpread(s.TopologySpreadConstraints)
	if s.Volumes != nil {
		out.Volumes = make([]Volume, len(s.Volumes))
		for i := range s.Volumes {
			out.Volumes[i] = s.Volumes[i].deepCopy()
		}
	}
	if s.Tolerations != nil {
		out.Tolerations = make([]Toleration, len(s.Tolerations))
		for i, t := range s.Tolerations {
			t.TolerationSeconds = copyPtr(t.TolerationSeconds)
			out.Tolerations[i] = t
		}
	}
	return out
}

// DeepCopy returns an independent copy of the template.
func (t *PodTemplateSpec) DeepCopy() PodTemplateSpec {
	return PodTemplateSpec{ObjectMeta: t.ObjectMeta.DeepCopy(), Spec: t.Spec.DeepCopy()}
}

func (s *ContainerState) deepCopy() ContainerState {
	return ContainerState{Waiting: copyPtr(s.Waiting), Running: copyPtr(s.Running), Terminated: copyPtr(s.Terminated)}
}

// DeepCopy returns an independent copy of the pod.
func (p *Pod) DeepCopy() *Pod {
	out := &Pod{TypeMeta: p.TypeMeta, ObjectMeta: p.ObjectMeta.DeepCopy(), Status: p.Status}
	if p.Spec != nil {
		spec := p.Spec.DeepCopy()
		out.Spec = &spec
	}
	out.Status.Conditions = copySlice(p.Status.Conditions)
	out.Status.StartTime = copyPtr(p.Status.StartTime)
	out.Status.InitContainerStatuses = copyStatuses(p.Status.InitContainerStatuses)
	out.Status.ContainerStatuses = copyStatuses(p.Status.ContainerStatuses)
	return out
}

func copyStatuses(in []ContainerStatus) []ContainerStatus {
	if in == nil {
		return nil
	}
	out := make([]ContainerStatus, len(in))
	for i, cs := range in {
		cs.State = cs.State.deepCopy()
		cs.LastTerminationState = cs.LastTerminationState.deepCopy()
		cs.Started = copyPtr(cs.Started)
		out[i] = cs
	}
	return out
}

// DeepCopyObject implements Object.
func (p *Pod) DeepCopyObject() Object { return p.DeepCopy() }

// DeepCopy returns an independent copy of the deployment.
func (d *Deployment) DeepCopy() *Deployment {
	out := &Deployment{TypeMeta: d.TypeMeta, ObjectMeta: d.ObjectMeta.DeepCopy(), Spec: d.Spec, Status: d.Status}
	out.Spec.Replicas = copyPtr(d.Spec.Replicas)
	out.Spec.Selector = d.Spec.Selector.DeepCopy()
	out.Spec.Template = d.Spec.Template.DeepCopy()
	if ru := d.Spec.Strategy.RollingUpdate; ru != nil {
		out.Spec.Strategy.RollingUpdate = &RollingUpdateDeployment{MaxUnavailable: copyPtr(ru.MaxUnavailable), MaxSurge: copyPtr(ru.MaxSurge)}
	}
	out.Spec.RevisionHistoryLimit = copyPtr(d.Spec.RevisionHistoryLimit)
	out.Spec.ProgressDeadlineSeconds = copyPtr(d.Spec.ProgressDeadlineSeconds)
	out.Status.Conditions = copySlice(d.Status.Conditions)
	out.Status.CollisionCount = copyPtr(d.Status.CollisionCount)
	return out
}

// DeepCopyObject implements Object.
func (d *Deployment) DeepCopyObject() Object { return d.DeepCopy() }

// DeepCopy returns an independent copy of the ReplicaSet.
func (r *ReplicaSet) DeepCopy() *ReplicaSet {
	out := &ReplicaSet{TypeMeta: r.TypeMeta, ObjectMeta: r.ObjectMeta.DeepCopy(), Spec: r.Spec, Status: r.Status}
	out.Spec.Replicas = copyPtr(r.Spec.Replicas)
	out.Spec.Selector = r.Spec.Selector.DeepCopy()
	out.Spec.Template = r.Spec.Template.DeepCopy()
	out.Status.Conditions = copySlice(r.Status.Conditions)
	return out
}

// DeepCopyObject implements Object.
func (r *ReplicaSet) DeepCopyObject() Object { return r.DeepCopy() }

// DeepCopy returns an independent copy of the node.
func (n *Node) DeepCopy() *Node {
	out := &Node{TypeMeta: n.TypeMeta, ObjectMeta: n.ObjectMeta.DeepCopy(), Spec: n.Spec, Status: n.Status}
	if n.Spec.Taints != nil {
		out.Spec.Taints = make([]Taint, len(n.Spec.Taints))
		for i, t := range n.Spec.Taints {
			t.TimeAdded = copyPtr(t.TimeAdded)
			out.Spec.Taints[i] = t
		}
	}
	out.Spec.PodCIDRs = copySlice(n.Spec.PodCIDRs)
	out.Status.Capacity = copyMap(n.Status.Capacity)
	out.Status.Allocatable = copyMap(n.Status.Allocatable)
	out.Status.Conditions = copySlice(n.Status.Conditions)
	out.Status.Addresses = copySlice(n.Status.Addresses)
	return out
}

// DeepCopyObject implements Object.
func (n *Node) DeepCopyObject() Object { return n.DeepCopy() }

// DeepCopy returns an independent copy of the event.
func (e *Event) DeepCopy() *Event {
	out := *e
	out.ObjectMeta = e.ObjectMeta.DeepCopy()
	return &out
}

// DeepCopyObject implements Object.
func (e *Event) DeepCopyObject() Object { return e.DeepCopy() }

// DeepCopyObject implements Object.
func (n *Namespace) DeepCopyObject() Object {
	out := *n
	out.ObjectMeta = n.ObjectMeta.DeepCopy()
	return &out
}
