package api

// Service types (spec.type).
const (
	ServiceTypeClusterIP    = "ClusterIP"
	ServiceTypeNodePort     = "NodePort"
	ServiceTypeLoadBalancer = "LoadBalancer"
	ServiceTypeExternalName = "ExternalName"
)

// ClusterIPNone is spec.clusterIP of a headless Service.
const ClusterIPNone = "None"

// Service is v1 Service.
type Service struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Spec       ServiceSpec   `json:"spec" yaml:"spec"`
	Status     ServiceStatus `json:"status" yaml:"status"`
}

// ServiceSpec is v1 ServiceSpec (the fields the simulation uses or
// defaults; the field order is the API's).
type ServiceSpec struct {
	Ports                    []ServicePort     `json:"ports,omitempty" yaml:"ports,omitempty"`
	Selector                 map[string]string `json:"selector,omitempty" yaml:"selector,omitempty"`
	ClusterIP                string            `json:"clusterIP,omitempty" yaml:"clusterIP,omitempty"`
	ClusterIPs               []string          `json:"clusterIPs,omitempty" yaml:"clusterIPs,omitempty"`
	Type                     string            `json:"type,omitempty" yaml:"type,omitempty"`
	ExternalIPs              []string          `json:"externalIPs,omitempty" yaml:"externalIPs,omitempty"`
	SessionAffinity          string            `json:"sessionAffinity,omitempty" yaml:"sessionAffinity,omitempty"`
	ExternalName             string            `json:"externalName,omitempty" yaml:"externalName,omitempty"`
	ExternalTrafficPolicy    string            `json:"externalTrafficPolicy,omitempty" yaml:"externalTrafficPolicy,omitempty"`
	PublishNotReadyAddresses bool              `json:"publishNotReadyAddresses,omitempty" yaml:"publishNotReadyAddresses,omitempty"`
	IPFamilies               []string          `json:"ipFamilies,omitempty" yaml:"ipFamilies,omitempty"`
	IPFamilyPolicy           string            `json:"ipFamilyPolicy,omitempty" yaml:"ipFamilyPolicy,omitempty"`
	InternalTrafficPolicy    string            `json:"internalTrafficPolicy,omitempty" yaml:"internalTrafficPolicy,omitempty"`
}

// ServicePort is v1 ServicePort.
type ServicePort struct {
	Name        string      `json:"name,omitempty" yaml:"name,omitempty"`
	Protocol    string      `json:"protocol,omitempty" yaml:"protocol,omitempty"`
	AppProtocol string      `json:"appProtocol,omitempty" yaml:"appProtocol,omitempty"`
	Port        int32       `json:"port" yaml:"port"`
	TargetPort  IntOrString `json:"targetPort" yaml:"targetPort"`
	NodePort    int32       `json:"nodePort,omitempty" yaml:"nodePort,omitempty"`
}

// ServiceStatus is v1 ServiceStatus.
type ServiceStatus struct {
	LoadBalancer LoadBalancerStatus `json:"loadBalancer" yaml:"loadBalancer"`
}

// LoadBalancerStatus is v1 LoadBalancerStatus.
type LoadBalancerStatus struct {
	Ingress []LoadBalancerIngress `json:"ingress,omitempty" yaml:"ingress,omitempty"`
}

// LoadBalancerIngress is v1 LoadBalancerIngress.
type LoadBalancerIngress struct {
	IP       string `json:"ip,omitempty" yaml:"ip,omitempty"`
	Hostname string `json:"hostname,omitempty" yaml:"hostname,omitempty"`
}

// GetKind returns "Service".
func (s *Service) GetKind() string { return KindService }

// Meta returns the metadata.
func (s *Service) Meta() *ObjectMeta { return &s.ObjectMeta }

// Headless reports whether the Service has no cluster IP.
func (s *Service) Headless() bool {
	return s.Spec.ClusterIP == ClusterIPNone || s.Spec.ClusterIP == ""
}

// DeepCopy returns an independent copy of the Service.
func (s *Service) DeepCopy() *Service {
	out := &Service{TypeMeta: s.TypeMeta, ObjectMeta: s.ObjectMeta.DeepCopy(), Spec: s.Spec, Status: s.Status}
	out.Spec.Ports = copySlice(s.Spec.Ports)
	out.Spec.Selector = copyMap(s.Spec.Selector)
	out.Spec.ClusterIPs = copySlice(s.Spec.ClusterIPs)
	out.Spec.ExternalIPs = copySlice(s.Spec.ExternalIPs)
	out.Spec.IPFamilies = copySlice(s.Spec.IPFamilies)
	out.Status.LoadBalancer.Ingress = copySlice(s.Status.LoadBalancer.Ingress)
	return out
}

// DeepCopyObject implements Object.
func (s *Service) DeepCopyObject() Object { return s.DeepCopy() }
