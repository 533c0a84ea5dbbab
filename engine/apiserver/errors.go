package apiserver

import (
	"errors"
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// Reason classifies an API error like metav1.StatusReason.
type Reason string

// The reasons the simulated API server returns.
const (
	ReasonNotFound      Reason = "NotFound"
	ReasonAlreadyExists Reason = "AlreadyExists"
	ReasonConflict      Reason = "Conflict"
	ReasonInvalid       Reason = "Invalid"
	ReasonForbidden     Reason = "Forbidden"
	// ReasonTooManyRequests is 429: the Eviction API's answer when a
	// PodDisruptionBudget does not allow the disruption now.
	ReasonTooManyRequests Reason = "TooManyRequests"
	// ReasonInternalError is 500.
	ReasonInternalError Reason = "InternalError"
)

// StatusError is an API error with the message kubectl prints.
type StatusError struct {
	Reason  Reason
	Message string
	// Causes are the details' causes (metav1.StatusCause messages), such
	// as why an eviction was refused; kubectl does not print them.
	Causes []string
}

func (e *StatusError) Error() string { return e.Message }

// IsReason reports whether err, or an error it wraps, is a StatusError
// with reason r, as apimachinery's ReasonForError reads it through
// errors.As: a controller that adds context with %w keeps the class.
func IsReason(err error, r Reason) bool {
	var se *StatusError
	return errors.As(err, &se) && se.Reason == r
}

// Resource returns the plural resource name with its group, as the API
// server names it in messages ("deployments.apps", "pods"): the API's
// registry of kinds says both.
func Resource(kind string) string {
	k, ok := api.LookupKind(kind)
	if !ok {
		return strings.ToLower(kind) + "s"
	}
	if g := k.Group(); g != "" {
		return k.Resource + "." + g
	}
	return k.Resource
}

// NotFound is the error for a missing object.
func NotFound(kind, name string) error {
	return &StatusError{Reason: ReasonNotFound, Message: fmt.Sprintf("%s %q not found", Resource(kind), name)}
}

func alreadyExists(kind, name string) error {
	return &StatusError{Reason: ReasonAlreadyExists, Message: fmt.Sprintf("%s %q already exists", Resource(kind), name)}
}

func conflict(kind, name string) error {
	return &StatusError{Reason: ReasonConflict, Message: fmt.Sprintf("Operation cannot be fulfilled on %s %q: the object has been modified; please apply your changes to the latest version and try again", Resource(kind), name)}
}

// FieldError is one validation failure: a field path and what is wrong.
type FieldError struct {
	Path   string
	Detail string
}

func (f FieldError) Error() string { return f.Path + ": " + f.Detail }

// InvalidError is the API server's 422 for an object that failed
// validation. Fields lists every failure with its field path.
type InvalidError struct {
	Kind, Name string
	Fields     []FieldError
}

func (e *InvalidError) Error() string {
	group := ""
	if api.APIVersionOf(e.Kind) == "apps/v1" {
		group = ".apps"
	}
	msgs := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		msgs[i] = f.Error()
	}
	body := msgs[0]
	if len(msgs) > 1 {
		body = "[" + strings.Join(msgs, ", ") + "]"
	}
	return fmt.Sprintf("%s%s %q is invalid: %s", e.Kind, group, e.Name, body)
}
