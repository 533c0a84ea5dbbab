package api

import (
	"encoding/json"
	"time"
)

// Epoch is the wall-clock instant that virtual time 0 maps to. It only
// affects how timestamps print; all arithmetic uses virtual milliseconds.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Time is a timestamp in virtual milliseconds since the simulation start.
// Like metav1.Time it serialises with one-second precision and the zero
// value prints as null. Set is false for the zero value.
type Time struct {
	MS  int64
	Set bool
}

// At returns the Time for virtual millisecond ms, truncated to whole
// seconds as the API server stores metav1.Time (RFC 3339, seconds).
func At(ms int64) Time { return Time{MS: ms - ms%1000, Set: true} }

// IsZero reports whether t was never set.
func (t Time) IsZero() bool { return !t.Set }

// Wall returns the wall-clock time t stands for.
func (t Time) Wall() time.Time { return epoch.Add(time.Duration(t.MS) * time.Millisecond) }

// String formats t as RFC 3339 like the API server does.
func (t Time) String() string {
	if !t.Set {
		return "<nil>"
	}
	return t.Wall().Format(time.RFC3339)
}

// MarshalJSON writes RFC 3339 or null.
func (t Time) MarshalJSON() ([]byte, error) {
	if !t.Set {
		return []byte("null"), nil
	}
	return json.Marshal(t.String())
}

// MarshalYAML writes RFC 3339 or null.
func (t Time) MarshalYAML() (any, error) {
	if !t.Set {
		return nil, nil
	}
	return t.String(), nil
}

// ParseTime reads an RFC 3339 timestamp into virtual time.
func ParseTime(s string) (Time, error) {
	w, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return Time{}, err
	}
	return Time{MS: w.Sub(epoch).Milliseconds(), Set: true}, nil
}

// EpochUnixNano is the wall-clock nanoseconds of virtual time 0, used for
// Event names, which embed the creation instant in hex as Kubernetes does.
func EpochUnixNano() int64 { return epoch.UnixNano() }
