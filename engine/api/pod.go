package api

import "math"

// Pod phases.
const (
	PodPending   = "Pending"
	PodRunning   = "Running"
	PodSucceeded = "Succeeded"
	PodFailed    = "Failed"
	PodUnknown   = "Unknown"
)

// Pod condition types.
const (
	PodScheduled               = "PodScheduled"
	PodReadyToStartContainers  = "PodReadyToStartContainers"
	PodInitialized             = "Initialized"
	PodReady                   = "Ready"
	ContainersReady            = "ContainersReady"
	DisruptionTarget           = "DisruptionTarget"
	ConditionTrue              = "True"
	ConditionFalse             = "False"
	ConditionUnknown           = "Unknown"
	DefaultSchedulerName       = "default-scheduler"
	DefaultTerminationGraceSec = 30
)

// Pod is v1.Pod.
type Pod struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       *PodSpec  `json:"spec" yaml:"spec"`
	Status     PodStatus `json:"status" yaml:"status"`
}

// PodTemplateSpec is the pod template of a workload.
type PodTemplateSpec struct {
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       PodSpec `json:"spec" yaml:"spec"`
}

// PodSpec is v1.PodSpec, limited to the fields the simulation uses.
type PodSpec struct {
	Volumes                       []Volume          `json:"volumes,omitempty" yaml:"volumes,omitempty"`
	InitContainers                []Container       `json:"initContainers,omitempty" yaml:"initContainers,omitempty"`
	Containers                    []Container       `json:"containers" yaml:"containers"`
	RestartPolicy                 string            `json:"restartPolicy,omitempty" yaml:"restartPolicy,omitempty"`
	TerminationGracePeriodSeconds *int64            `json:"terminationGracePeriodSeconds,omitempty" yaml:"terminationGracePeriodSeconds,omitempty"`
	DNSPolicy                     string            `json:"dnsPolicy,omitempty" yaml:"dnsPolicy,omitempty"`
	NodeSelector                  map[string]string `json:"nodeSelector,omitempty" yaml:"nodeSelector,omitempty"`
	ServiceAccountName            string            `json:"serviceAccountName,omitempty" yaml:"serviceAccountName,omitempty"`
	NodeName                      string            `json:"nodeName,omitempty" yaml:"nodeName,omitempty"`
	SecurityContext               *struct{}         `json:"securityContext,omitempty" yaml:"securityContext,omitempty"`
	Hostname                      string            `json:"hostname,omitempty" yaml:"hostname,omitempty"`
	Subdomain                     string            `json:"subdomain,omitempty" yaml:"subdomain,omitempty"`
	Affinity                      *Affinity         `json:"affinity,omitempty" yaml:"affinity,omitempty"`
	SchedulerName                 string            `json:"schedulerName,omitempty" yaml:"schedulerName,omitempty"`
	Tolerations                   []Toleration      `json:"tolerations,omitempty" yaml:"tolerations,omitempty"`
	PriorityClassName             string            `json:"priorityClassName,omitempty" yaml:"priorityClassName,omitempty"`
	Priority                      *int32            `json:"priority,omitempty" yaml:"priority,omitempty"`
	// PreemptionPolicy is what the Priority admission plugin copies from
	// the pod's PriorityClass (PreemptLowerPriority without one).
	PreemptionPolicy *string `json:"preemptionPolicy,omitempty" yaml:"preemptionPolicy,omitempty"`
	// TopologySpreadConstraints bound how unevenly the pods the
	// constraints select spread over a node label's domains.
	TopologySpreadConstraints []TopologySpreadConstraint `json:"topologySpreadConstraints,omitempty" yaml:"topologySpreadConstraints,omitempty"`
	// SchedulingGates hold the pod back from the scheduler while any is
	// left: they can be set at creation and only removed after.
	SchedulingGates []PodSchedulingGate `json:"schedulingGates,omitempty" yaml:"schedulingGates,omitempty"`
}

// PodSchedulingGate is v1.PodSchedulingGate.
type PodSchedulingGate struct {
	Name string `json:"name" yaml:"name"`
}

// PodReasonSchedulingGated is the reason of the PodScheduled=False
// condition the API server gives a pod created with scheduling gates.
const PodReasonSchedulingGated = "SchedulingGated"

// Container is v1.Container, limited to the fields the simulation uses.
type Container struct {
	Name      string               `json:"name" yaml:"name"`
	Image     string               `json:"image,omitempty" yaml:"image,omitempty"`
	Command   []string             `json:"command,omitempty" yaml:"command,omitempty"`
	Args      []string             `json:"args,omitempty" yaml:"args,omitempty"`
	Ports     []ContainerPort      `json:"ports,omitempty" yaml:"ports,omitempty"`
	Env       []EnvVar             `json:"env,omitempty" yaml:"env,omitempty"`
	EnvFrom   []EnvFromSource      `json:"envFrom,omitempty" yaml:"envFrom,omitempty"`
	Resources ResourceRequirements `json:"resources" yaml:"resources"`
	// RestartPolicy is set only on init containers, and only to
	// "Always": such an init container is a sidecar
	// (IsRestartableInitContainer).
	RestartPolicy            *string       `json:"restartPolicy,omitempty" yaml:"restartPolicy,omitempty"`
	LivenessProbe            *Probe        `json:"livenessProbe,omitempty" yaml:"livenessProbe,omitempty"`
	ReadinessProbe           *Probe        `json:"readinessProbe,omitempty" yaml:"readinessProbe,omitempty"`
	StartupProbe             *Probe        `json:"startupProbe,omitempty" yaml:"startupProbe,omitempty"`
	Lifecycle                *Lifecycle    `json:"lifecycle,omitempty" yaml:"lifecycle,omitempty"`
	TerminationMessagePath   string        `json:"terminationMessagePath,omitempty" yaml:"terminationMessagePath,omitempty"`
	TerminationMessagePolicy string        `json:"terminationMessagePolicy,omitempty" yaml:"terminationMessagePolicy,omitempty"`
	ImagePullPolicy          string        `json:"imagePullPolicy,omitempty" yaml:"imagePullPolicy,omitempty"`
	VolumeMounts             []VolumeMount `json:"volumeMounts,omitempty" yaml:"volumeMounts,omitempty"`
}

// ContainerPort is v1.ContainerPort.
type ContainerPort struct {
	Name          string `json:"name,omitempty" yaml:"name,omitempty"`
	HostPort      int32  `json:"hostPort,omitempty" yaml:"hostPort,omitempty"`
	ContainerPort int32  `json:"containerPort" yaml:"containerPort"`
	Protocol      string `json:"protocol,omitempty" yaml:"protocol,omitempty"`
}

// EnvVar is v1.EnvVar: a literal value, or one read from the pod's own
// fields (the Job controller's JOB_COMPLETION_INDEX), a ConfigMap or a
// Secret.
type EnvVar struct {
	Name      string        `json:"name" yaml:"name"`
	Value     string        `json:"value,omitempty" yaml:"value,omitempty"`
	ValueFrom *EnvVarSource `json:"valueFrom,omitempty" yaml:"valueFrom,omitempty"`
}

// EnvVarSource is v1.EnvVarSource without fileKeyRef (the EnvFiles
// gate is off in v1.34).
type EnvVarSource struct {
	FieldRef         *ObjectFieldSelector   `json:"fieldRef,omitempty" yaml:"fieldRef,omitempty"`
	ResourceFieldRef *ResourceFieldSelector `json:"resourceFieldRef,omitempty" yaml:"resourceFieldRef,omitempty"`
	ConfigMapKeyRef  *ConfigMapKeySelector  `json:"configMapKeyRef,omitempty" yaml:"configMapKeyRef,omitempty"`
	SecretKeyRef     *SecretKeySelector     `json:"secretKeyRef,omitempty" yaml:"secretKeyRef,omitempty"`
}

// ConfigMapKeySelector is v1.ConfigMapKeySelector: one key of a
// ConfigMap of the pod's namespace.
type ConfigMapKeySelector struct {
	Name     string `json:"name" yaml:"name"`
	Key      string `json:"key" yaml:"key"`
	Optional *bool  `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// SecretKeySelector is v1.SecretKeySelector: one key of a Secret of the
// pod's namespace.
type SecretKeySelector struct {
	Name     string `json:"name" yaml:"name"`
	Key      string `json:"key" yaml:"key"`
	Optional *bool  `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// EnvFromSource is v1.EnvFromSource: every key of a ConfigMap or a
// Secret as a variable, with an optional prefix.
type EnvFromSource struct {
	Prefix       string              `json:"prefix,omitempty" yaml:"prefix,omitempty"`
	ConfigMapRef *ConfigMapEnvSource `json:"configMapRef,omitempty" yaml:"configMapRef,omitempty"`
	SecretRef    *SecretEnvSource    `json:"secretRef,omitempty" yaml:"secretRef,omitempty"`
}

// ConfigMapEnvSource is v1.ConfigMapEnvSource.
type ConfigMapEnvSource struct {
	Name     string `json:"name" yaml:"name"`
	Optional *bool  `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// SecretEnvSource is v1.SecretEnvSource.
type SecretEnvSource struct {
	Name     string `json:"name" yaml:"name"`
	Optional *bool  `json:"optional,omitempty" yaml:"optional,omitempty"`
}

// ObjectFieldSelector is v1.ObjectFieldSelector.
type ObjectFieldSelector struct {
	APIVersion string `json:"apiVersion,omitempty" yaml:"apiVersion,omitempty"`
	FieldPath  string `json:"fieldPath" yaml:"fieldPath"`
}

// ResourceRequirements holds requests and limits.
type ResourceRequirements struct {
	Limits   ResourceList `json:"limits,omitempty" yaml:"limits,omitempty"`
	Requests ResourceList `json:"requests,omitempty" yaml:"requests,omitempty"`
}

// Probe is v1.Probe with the handler kinds kept as opaque settings.
type Probe struct {
	HTTPGet             *HTTPGetAction   `json:"httpGet,omitempty" yaml:"httpGet,omitempty"`
	TCPSocket           *TCPSocketAction `json:"tcpSocket,omitempty" yaml:"tcpSocket,omitempty"`
	Exec                *ExecAction      `json:"exec,omitempty" yaml:"exec,omitempty"`
	GRPC                *GRPCAction      `json:"grpc,omitempty" yaml:"grpc,omitempty"`
	InitialDelaySeconds int32            `json:"initialDelaySeconds,omitempty" yaml:"initialDelaySeconds,omitempty"`
	TimeoutSeconds      int32            `json:"timeoutSeconds,omitempty" yaml:"timeoutSeconds,omitempty"`
	PeriodSeconds       int32            `json:"periodSeconds,omitempty" yaml:"periodSeconds,omitempty"`
	SuccessThreshold    int32            `json:"successThreshold,omitempty" yaml:"successThreshold,omitempty"`
	FailureThreshold    int32            `json:"failureThreshold,omitempty" yaml:"failureThreshold,omitempty"`
}

// HTTPGetAction is a probe's httpGet.
type HTTPGetAction struct {
	Path        string       `json:"path,omitempty" yaml:"path,omitempty"`
	Port        IntOrString  `json:"port" yaml:"port"`
	Scheme      string       `json:"scheme,omitempty" yaml:"scheme,omitempty"`
	HTTPHeaders []HTTPHeader `json:"httpHeaders,omitempty" yaml:"httpHeaders,omitempty"`
}

// HTTPHeader is one header an httpGet probe sends.
type HTTPHeader struct {
	Name  string `json:"name" yaml:"name"`
	Value string `json:"value" yaml:"value"`
}

// GRPCAction is a probe's grpc: the gRPC health checking protocol on the
// pod's port, for the service named (the API server defaults it to "").
type GRPCAction struct {
	Port    int32   `json:"port" yaml:"port"`
	Service *string `json:"service" yaml:"service"`
}

// TCPSocketAction is a probe's tcpSocket.
type TCPSocketAction struct {
	Port IntOrString `json:"port" yaml:"port"`
}

// ExecAction is a probe's exec.
type ExecAction struct {
	Command []string `json:"command,omitempty" yaml:"command,omitempty"`
}

// Toleration is v1.Toleration.
type Toleration struct {
	Key               string `json:"key,omitempty" yaml:"key,omitempty"`
	Operator          string `json:"operator,omitempty" yaml:"operator,omitempty"`
	Value             string `json:"value,omitempty" yaml:"value,omitempty"`
	Effect            string `json:"effect,omitempty" yaml:"effect,omitempty"`
	TolerationSeconds *int64 `json:"tolerationSeconds,omitempty" yaml:"tolerationSeconds,omitempty"`
}

// Tolerates reports whether the toleration matches taint
// (v1.Toleration.ToleratesTaint).
func (t Toleration) Tolerates(taint Taint) bool {
	if t.Effect != "" && t.Effect != taint.Effect {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", "Equal":
		return t.Value == taint.Value
	case "Exists":
		return true
	}
	return false
}

// PodStatus is v1.PodStatus.
type PodStatus struct {
	Phase                 string            `json:"phase,omitempty" yaml:"phase,omitempty"`
	Conditions            []PodCondition    `json:"conditions,omitempty" yaml:"conditions,omitempty"`
	Message               string            `json:"message,omitempty" yaml:"message,omitempty"`
	Reason                string            `json:"reason,omitempty" yaml:"reason,omitempty"`
	HostIP                string            `json:"hostIP,omitempty" yaml:"hostIP,omitempty"`
	PodIP                 string            `json:"podIP,omitempty" yaml:"podIP,omitempty"`
	StartTime             *Time             `json:"startTime,omitempty" yaml:"startTime,omitempty"`
	InitContainerStatuses []ContainerStatus `json:"initContainerStatuses,omitempty" yaml:"initContainerStatuses,omitempty"`
	ContainerStatuses     []ContainerStatus `json:"containerStatuses,omitempty" yaml:"containerStatuses,omitempty"`
	QOSClass              string            `json:"qosClass,omitempty" yaml:"qosClass,omitempty"`
}

// PodCondition is v1.PodCondition.
type PodCondition struct {
	Type               string `json:"type" yaml:"type"`
	Status             string `json:"status" yaml:"status"`
	LastProbeTime      Time   `json:"lastProbeTime" yaml:"lastProbeTime"`
	LastTransitionTime Time   `json:"lastTransitionTime" yaml:"lastTransitionTime"`
	Reason             string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string `json:"message,omitempty" yaml:"message,omitempty"`
}

// ContainerStatus is v1.ContainerStatus.
type ContainerStatus struct {
	Name                 string         `json:"name" yaml:"name"`
	State                ContainerState `json:"state" yaml:"state"`
	LastTerminationState ContainerState `json:"lastState" yaml:"lastState"`
	Ready                bool           `json:"ready" yaml:"ready"`
	RestartCount         int32          `json:"restartCount" yaml:"restartCount"`
	Image                string         `json:"image" yaml:"image"`
	ImageID              string         `json:"imageID" yaml:"imageID"`
	ContainerID          string         `json:"containerID,omitempty" yaml:"containerID,omitempty"`
	Started              *bool          `json:"started,omitempty" yaml:"started,omitempty"`
}

// ContainerState holds at most one of its members.
type ContainerState struct {
	Waiting    *ContainerStateWaiting    `json:"waiting,omitempty" yaml:"waiting,omitempty"`
	Running    *ContainerStateRunning    `json:"running,omitempty" yaml:"running,omitempty"`
	Terminated *ContainerStateTerminated `json:"terminated,omitempty" yaml:"terminated,omitempty"`
}

// ContainerStateWaiting is a waiting container.
type ContainerStateWaiting struct {
	Reason  string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message string `json:"message,omitempty" yaml:"message,omitempty"`
}

// ContainerStateRunning is a running container.
type ContainerStateRunning struct {
	StartedAt Time `json:"startedAt" yaml:"startedAt"`
}

// ContainerStateTerminated is an exited container.
type ContainerStateTerminated struct {
	ExitCode    int32  `json:"exitCode" yaml:"exitCode"`
	Reason      string `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message     string `json:"message,omitempty" yaml:"message,omitempty"`
	StartedAt   Time   `json:"startedAt" yaml:"startedAt"`
	FinishedAt  Time   `json:"finishedAt" yaml:"finishedAt"`
	ContainerID string `json:"containerID,omitempty" yaml:"containerID,omitempty"`
}

// GetKind returns "Pod".
func (p *Pod) GetKind() string { return KindPod }

// Meta returns the metadata.
func (p *Pod) Meta() *ObjectMeta { return &p.ObjectMeta }

// Condition returns the pod condition of type t, or nil.
func (s *PodStatus) Condition(t string) *PodCondition {
	for i := range s.Conditions {
		if s.Conditions[i].Type == t {
			return &s.Conditions[i]
		}
	}
	return nil
}

// UpdatePodCondition is pkg/api/v1/pod's UpdatePodCondition at virtual
// time now: the condition of its type is replaced whole, keeping its
// transition time when the status does not change. It reports a change.
func UpdatePodCondition(st *PodStatus, c PodCondition, now int64) bool {
	c.LastTransitionTime = At(now)
	for i := range st.Conditions {
		old := &st.Conditions[i]
		if old.Type != c.Type {
			continue
		}
		if old.Status == c.Status {
			c.LastTransitionTime = old.LastTransitionTime
		}
		same := *old == c
		*old = c
		return !same
	}
	st.Conditions = append(st.Conditions, c)
	return true
}

// IsPodReady reports whether the Ready condition is True (pod/util.go).
func IsPodReady(p *Pod) bool {
	c := p.Status.Condition(PodReady)
	return c != nil && c.Status == ConditionTrue
}

// IsPodAvailable reports whether p has been ready for minReadySeconds at
// now (pod/util.go IsPodAvailable, v1.34: lastTransitionTime+minReady at
// or before now).
func IsPodAvailable(p *Pod, minReadySeconds int32, nowMS int64) bool {
	if !IsPodReady(p) {
		return false
	}
	if minReadySeconds == 0 {
		return true
	}
	c := p.Status.Condition(PodReady)
	return c.LastTransitionTime.Set && c.LastTransitionTime.MS+int64(minReadySeconds)*1000 <= nowMS
}

// IsPodActive reports whether p is neither terminal nor being deleted
// (controller_utils.go IsPodActive).
func IsPodActive(p *Pod) bool {
	return p.Status.Phase != PodSucceeded && p.Status.Phase != PodFailed && p.DeletionTimestamp == nil
}

// PodRequests is the pod's effective requests, as
// component-helpers' resource.PodRequests aggregates them: the containers
// and the sidecars together, or an init container with the sidecars
// started before it, whichever is larger, per resource.
func PodRequests(p *PodSpec) ResourceList {
	return AggregateRequests(p, func(c *Container) ResourceList { return c.Resources.Requests })
}

// AggregateRequests is PodRequests of the requests of reports for each
// container (the scheduler's, with defaults for missing ones).
func AggregateRequests(p *PodSpec, of func(*Container) ResourceList) ResourceList {
	out := ResourceList{}
	for i := range p.Containers {
		addRequests(out, of(&p.Containers[i]))
	}
	if len(p.InitContainers) == 0 {
		return out // most pods: no maps for init containers
	}
	sidecars, inits := ResourceList{}, ResourceList{}
	for i := range p.InitContainers {
		c := &p.InitContainers[i]
		r := sidecars
		if IsRestartableInitContainer(c) {
			addRequests(out, of(c))
			addRequests(sidecars, of(c))
		} else {
			r = ResourceList{}
			addRequests(r, of(c))
			addRequests(r, sidecars)
		}
		for name, q := range r {
			if q.MilliValue() > inits[name].MilliValue() {
				inits[name] = q
			}
		}
	}
	for name, q := range inits {
		if q.MilliValue() > out[name].MilliValue() {
			out[name] = q
		}
	}
	return out
}

// addRequests adds from to to, saturating rather than wrapping.
func addRequests(to, from ResourceList) {
	for name, q := range from {
		a, b := to[name].MilliValue(), q.MilliValue()
		sum := a + b
		if b > 0 && sum < a {
			sum = math.MaxInt64
		}
		to[name] = MilliQuantity(sum)
	}
}

// ContainerRestartPolicyAlways is the one restartPolicy an init container
// may have: it makes the init container a sidecar.
const ContainerRestartPolicyAlways = "Always"

// IsRestartableInitContainer reports whether the init container c is a
// sidecar (restartPolicy Always): started before the containers, kept
// running beside them and counted in READY (podutil's helper of the
// same name).
func IsRestartableInitContainer(c *Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == ContainerRestartPolicyAlways
}
