package api

import (
	"encoding/json"
	"strconv"
)

// EventRecord is an Event as the API server keeps one an event recorder
// wrote: the fields that differ from one Event to the next, and pointers
// to the parts every Event of one object, or of one source, reason and
// field path, shares. An Event is a 496-byte struct with its name, UID,
// resourceVersion and message beside it, and a cluster keeps five or more
// of them per pod for an hour; a record is 128 bytes with its name and
// message beside it (the UID and the resourceVersions are numbers until
// read). Event builds the Event it stands for when someone reads it
// (kubectl, the inspector, a trace effect's diff); the store, the
// recorder and the trace keep the record.
//
// An Event kept whole is in Full: one a recorder did not write (applied
// from a manifest, or edited by kubectl) or one of a type other than
// Normal and Warning. The record's other fields are then only its key.
type EventRecord struct {
	Name, Namespace string
	UID             EventUID
	RV              int64 // metadata.resourceVersion
	// FirstMS is the creation time (metadata.creationTimestamp and
	// firstTimestamp); LastMS the lastTimestamp.
	FirstMS, LastMS int64
	Count           int32
	// Involved is the object the Event is about without its
	// resourceVersion and fieldPath, shared by the object's Events.
	Involved *ObjectReference
	// InvolvedRV is involvedObject.resourceVersion as a number, 0 for
	// none (the API server's are decimal numbers from 1).
	InvolvedRV int64
	Message    string
	// Origin is what the Events of one source, type, reason and field
	// path share.
	Origin *EventOrigin
	Full   *Event
}

// EventOrigin is what an Event record shares with the others of its
// source, type, reason and involvedObject.fieldPath: a kubelet's
// "Pulled" Events of one container name share one.
type EventOrigin struct {
	// Source is the emitting component and host (also reportingComponent
	// and reportingInstance).
	Source    EventSource
	Reason    string
	FieldPath string // involvedObject.fieldPath
	Warning   bool   // type Warning, else Normal
}

// EventUID is a generated UID held as its 32 hex digits, one per byte
// half, in order: the form the API server's generator makes
// (8-4-4-4-12, a version nibble of 4), formatted when read.
type EventUID [16]byte

// String is the UID as the API server writes it.
func (u EventUID) String() string {
	const hex = "0123456789abcdef"
	var b [36]byte
	d := 0
	for i := range b {
		switch i {
		case 8, 13, 18, 23:
			b[i] = '-'
			continue
		}
		nib := u[d/2] >> 4
		if d%2 == 1 {
			nib = u[d/2] & 0xf
		}
		b[i] = hex[nib]
		d++
	}
	return string(b[:])
}

// GetKind returns "Event".
func (r *EventRecord) GetKind() string { return KindEvent }

// Meta returns the Event's metadata: for a record of a recorder's Event a
// copy made on each call (reading it is all a caller of a stored object
// may do).
func (r *EventRecord) Meta() *ObjectMeta {
	if r.Full != nil {
		return &r.Full.ObjectMeta
	}
	m := r.meta()
	return &m
}

func (r *EventRecord) meta() ObjectMeta {
	return ObjectMeta{Name: r.Name, Namespace: r.Namespace, UID: r.UID.String(), ResourceVersion: strconv.FormatInt(r.RV, 10), CreationTimestamp: At(r.FirstMS)}
}

// DeepCopyObject returns the Event, independent of the record.
func (r *EventRecord) DeepCopyObject() Object {
	if r.Full != nil {
		return r.Full.DeepCopy()
	}
	return r.Event()
}

// Type is the Event's type, Normal or Warning.
func (r *EventRecord) Type() string {
	switch {
	case r.Full != nil:
		return r.Full.Type
	case r.Origin.Warning:
		return EventWarning
	}
	return EventNormal
}

// LastSeenMS is the lastTimestamp.
func (r *EventRecord) LastSeenMS() int64 {
	if r.Full != nil {
		return r.Full.LastTimestamp.MS
	}
	return r.LastMS
}

// Version is the resourceVersion as a number (0 if it is not one).
func (r *EventRecord) Version() int64 {
	if r.Full != nil {
		v, _ := strconv.ParseInt(r.Full.ResourceVersion, 10, 64)
		return v
	}
	return r.RV
}

// Component is source.component.
func (r *EventRecord) Component() string {
	if r.Full != nil {
		return r.Full.Source.Component
	}
	return r.Origin.Source.Component
}

// ReportingComponent is reportingComponent.
func (r *EventRecord) ReportingComponent() string {
	if r.Full != nil {
		return r.Full.ReportingComponent
	}
	return r.Origin.Source.Component
}

// Ref is the involvedObject.
func (r *EventRecord) Ref() ObjectReference {
	if r.Full != nil {
		return r.Full.InvolvedObject
	}
	ref := *r.Involved
	ref.FieldPath = r.Origin.FieldPath
	if r.InvolvedRV != 0 {
		ref.ResourceVersion = strconv.FormatInt(r.InvolvedRV, 10)
	}
	return ref
}

// Event is the Event the record stands for: Full (stored: read it, do not
// change it), or a new Event built from the record.
func (r *EventRecord) Event() *Event {
	if r.Full != nil {
		return r.Full
	}
	return &Event{
		TypeMeta:           TypeMeta{APIVersion: "v1", Kind: KindEvent},
		ObjectMeta:         r.meta(),
		InvolvedObject:     r.Ref(),
		Reason:             r.Origin.Reason,
		Message:            r.Message,
		Source:             r.Origin.Source,
		FirstTimestamp:     At(r.FirstMS),
		LastTimestamp:      At(r.LastMS),
		Count:              r.Count,
		Type:               r.Type(),
		ReportingComponent: r.Origin.Source.Component,
		ReportingInstance:  r.Origin.Source.Host,
	}
}

// EventOf returns o as an Event to read: o itself, or the Event a record
// stands for; false for anything else.
func EventOf(o Object) (*Event, bool) {
	switch e := o.(type) {
	case *Event:
		return e, true
	case *EventRecord:
		return e.Event(), true
	}
	return nil, false
}

// MarshalJSON writes the Event the record stands for.
func (r *EventRecord) MarshalJSON() ([]byte, error) { return json.Marshal(r.Event()) }

// MarshalYAML writes the Event the record stands for.
func (r *EventRecord) MarshalYAML() (any, error) { return r.Event(), nil }
