package scenario

import (
	"fmt"
	"strings"
)

// Severity tells errors from warnings.
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Diagnostic is one problem found in a scenario, with its position.
type Diagnostic struct {
	Severity Severity `json:"severity"`
	Line     int      `json:"line"`             // 1-based; 0 when unknown
	Column   int      `json:"column,omitempty"` // 1-based; 0 when unknown
	Path     string   `json:"path,omitempty"`   // field path, such as spec.replicas
	Message  string   `json:"message"`
}

// String renders "line 12:5: spec.replicas: message".
func (d Diagnostic) String() string {
	var b strings.Builder
	switch {
	case d.Line > 0 && d.Column > 0:
		fmt.Fprintf(&b, "line %d:%d: ", d.Line, d.Column)
	case d.Line > 0:
		fmt.Fprintf(&b, "line %d: ", d.Line)
	}
	if d.Path != "" && !strings.HasPrefix(d.Message, d.Path) {
		b.WriteString(d.Path + ": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Errors is the error Parse returns: every error found, in file order.
type Errors []Diagnostic

func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, d := range e {
		msgs[i] = d.String()
	}
	return strings.Join(msgs, "\n")
}
