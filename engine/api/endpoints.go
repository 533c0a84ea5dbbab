package api

// The labels and annotations of EndpointSlices and Endpoints.
const (
	LabelServiceName            = "kubernetes.io/service-name"
	LabelManagedBy              = "endpointslice.kubernetes.io/managed-by"
	ManagedByEndpointSlice      = "endpointslice-controller.k8s.io"
	LabelHeadless               = "service.kubernetes.io/headless"
	AnnotationLastChangeTrigger = "endpoints.kubernetes.io/last-change-trigger-time"
	AnnotationOverCapacity      = "endpoints.kubernetes.io/over-capacity"
)

// AddressTypeIPv4 is the only address type the simulation allocates.
const AddressTypeIPv4 = "IPv4"

// EndpointSlice is discovery.k8s.io/v1 EndpointSlice.
type EndpointSlice struct {
	TypeMeta    `json:",inline" yaml:",inline"`
	ObjectMeta  `json:"metadata" yaml:"metadata"`
	AddressType string         `json:"addressType" yaml:"addressType"`
	Endpoints   []Endpoint     `json:"endpoints" yaml:"endpoints"`
	Ports       []EndpointPort `json:"ports" yaml:"ports"`
}

// Endpoint is discovery.k8s.io/v1 Endpoint.
type Endpoint struct {
	Addresses  []string           `json:"addresses" yaml:"addresses"`
	Conditions EndpointConditions `json:"conditions" yaml:"conditions"`
	Hostname   *string            `json:"hostname,omitempty" yaml:"hostname,omitempty"`
	TargetRef  *ObjectReference   `json:"targetRef,omitempty" yaml:"targetRef,omitempty"`
	NodeName   *string            `json:"nodeName,omitempty" yaml:"nodeName,omitempty"`
	Zone       *string            `json:"zone,omitempty" yaml:"zone,omitempty"`
}

// EndpointConditions is discovery.k8s.io/v1 EndpointConditions.
type EndpointConditions struct {
	Ready       *bool `json:"ready,omitempty" yaml:"ready,omitempty"`
	Serving     *bool `json:"serving,omitempty" yaml:"serving,omitempty"`
	Terminating *bool `json:"terminating,omitempty" yaml:"terminating,omitempty"`
}

// EndpointPort is discovery.k8s.io/v1 EndpointPort.
type EndpointPort struct {
	Name        *string `json:"name,omitempty" yaml:"name,omitempty"`
	Protocol    *string `json:"protocol,omitempty" yaml:"protocol,omitempty"`
	Port        *int32  `json:"port,omitempty" yaml:"port,omitempty"`
	AppProtocol *string `json:"appProtocol,omitempty" yaml:"appProtocol,omitempty"`
}

// GetKind returns "EndpointSlice".
func (s *EndpointSlice) GetKind() string { return KindEndpointSlice }

// Meta returns the metadata.
func (s *EndpointSlice) Meta() *ObjectMeta { return &s.ObjectMeta }

// ReadyCount is how many endpoints are ready.
func (s *EndpointSlice) ReadyCount() int {
	n := 0
	for _, e := range s.Endpoints {
		if e.Conditions.Ready != nil && *e.Conditions.Ready {
			n++
		}
	}
	return n
}

// DeepCopy returns an independent copy of the slice.
func (s *EndpointSlice) DeepCopy() *EndpointSlice {
	out := &EndpointSlice{TypeMeta: s.TypeMeta, ObjectMeta: s.ObjectMeta.DeepCopy(), AddressType: s.AddressType}
	if s.Endpoints != nil {
		out.Endpoints = make([]Endpoint, len(s.Endpoints))
		for i, e := range s.Endpoints {
			out.Endpoints[i] = Endpoint{Addresses: copySlice(e.Addresses), Hostname: copyPtr(e.Hostname), TargetRef: copyPtr(e.TargetRef),
				NodeName: copyPtr(e.NodeName), Zone: copyPtr(e.Zone),
				Conditions: EndpointConditions{Ready: copyPtr(e.Conditions.Ready), Serving: copyPtr(e.Conditions.Serving), Terminating: copyPtr(e.Conditions.Terminating)}}
		}
	}
	if s.Ports != nil {
		out.Ports = make([]EndpointPort, len(s.Ports))
		for i, p := range s.Ports {
			out.Ports[i] = EndpointPort{Name: copyPtr(p.Name), Protocol: copyPtr(p.Protocol), Port: copyPtr(p.Port), AppProtocol: copyPtr(p.AppProtocol)}
		}
	}
	return out
}

// DeepCopyObject implements Object.
func (s *EndpointSlice) DeepCopyObject() Object { return s.DeepCopy() }

// Endpoints is the legacy v1 Endpoints.
type Endpoints struct {
	TypeMeta   `json:",inline" yaml:",inline"`
	ObjectMeta `json:"metadata" yaml:"metadata"`
	Subsets    []EndpointSubset `json:"subsets,omitempty" yaml:"subsets,omitempty"`
}

// EndpointSubset is v1 EndpointSubset.
type EndpointSubset struct {
	Addresses         []EndpointAddress `json:"addresses,omitempty" yaml:"addresses,omitempty"`
	NotReadyAddresses []EndpointAddress `json:"notReadyAddresses,omitempty" yaml:"notReadyAddresses,omitempty"`
	Ports             []EndpointsPort   `json:"ports,omitempty" yaml:"ports,omitempty"`
}

// EndpointAddress is v1 EndpointAddress.
type EndpointAddress struct {
	IP        string           `json:"ip" yaml:"ip"`
	Hostname  string           `json:"hostname,omitempty" yaml:"hostname,omitempty"`
	NodeName  *string          `json:"nodeName,omitempty" yaml:"nodeName,omitempty"`
	TargetRef *ObjectReference `json:"targetRef,omitempty" yaml:"targetRef,omitempty"`
}

// EndpointsPort is v1 EndpointPort (core), named apart from discovery's.
type EndpointsPort struct {
	Name        string `json:"name,omitempty" yaml:"name,omitempty"`
	Port        int32  `json:"port" yaml:"port"`
	Protocol    string `json:"protocol,omitempty" yaml:"protocol,omitempty"`
	AppProtocol string `json:"appProtocol,omitempty" yaml:"appProtocol,omitempty"`
}

// GetKind returns "Endpoints".
func (e *Endpoints) GetKind() string { return KindEndpoints }

// Meta returns the metadata.
func (e *Endpoints) Meta() *ObjectMeta { return &e.ObjectMeta }

// DeepCopy returns an independent copy.
func (e *Endpoints) DeepCopy() *Endpoints {
	out := &Endpoints{TypeMeta: e.TypeMeta, ObjectMeta: e.ObjectMeta.DeepCopy(), Subsets: copySlice(e.Subsets)}
	for i := range out.Subsets {
		s := &out.Subsets[i]
		s.Addresses, s.NotReadyAddresses, s.Ports = copyAddresses(s.Addresses), copyAddresses(s.NotReadyAddresses), copySlice(s.Ports)
	}
	return out
}

func copyAddresses(a []EndpointAddress) []EndpointAddress {
	out := copySlice(a)
	for i := range out {
		out[i].NodeName, out[i].TargetRef = copyPtr(a[i].NodeName), copyPtr(a[i].TargetRef)
	}
	return out
}

// DeepCopyObject implements Object.
func (e *Endpoints) DeepCopyObject() Object { return e.DeepCopy() }
