package api

// Event types.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// Event is core/v1 Event, the flat side channel every component writes to.
type Event struct {
	TypeMeta           `json:",inline" yaml:",inline"`
	ObjectMeta         `json:"metadata" yaml:"metadata"`
	InvolvedObject     ObjectReference `json:"involvedObject" yaml:"involvedObject"`
	Reason             string          `json:"reason,omitempty" yaml:"reason,omitempty"`
	Message            string          `json:"message,omitempty" yaml:"message,omitempty"`
	Source             EventSource     `json:"source,omitempty" yaml:"source,omitempty"`
	FirstTimestamp     Time            `json:"firstTimestamp" yaml:"firstTimestamp"`
	LastTimestamp      Time            `json:"lastTimestamp" yaml:"lastTimestamp"`
	Count              int32           `json:"count,omitempty" yaml:"count,omitempty"`
	Type               string          `json:"type,omitempty" yaml:"type,omitempty"`
	EventTime          Time            `json:"eventTime" yaml:"eventTime"`
	ReportingComponent string          `json:"reportingComponent" yaml:"reportingComponent"`
	ReportingInstance  string          `json:"reportingInstance" yaml:"reportingInstance"`
}

// ObjectReference names the object an Event is about.
type ObjectReference struct {
	Kind            string `json:"kind,omitempty" yaml:"kind,omitempty"`
	Namespace       string `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	Name            string `json:"name,omitempty" yaml:"name,omitempty"`
	UID             string `json:"uid,omitempty" yaml:"uid,omitempty"`
	APIVersion      string `json:"apiVersion,omitempty" yaml:"apiVersion,omitempty"`
	ResourceVersion string `json:"resourceVersion,omitempty" yaml:"resourceVersion,omitempty"`
	FieldPath       string `json:"fieldPath,omitempty" yaml:"fieldPath,omitempty"`
}

// EventSource is the component (and host) that emitted an Event.
type EventSource struct {
	Component string `json:"component,omitempty" yaml:"component,omitempty"`
	Host      string `json:"host,omitempty" yaml:"host,omitempty"`
}

// GetKind returns "Event".
func (e *Event) GetKind() string { return KindEvent }

// Meta returns the metadata.
func (e *Event) Meta() *ObjectMeta { return &e.ObjectMeta }
