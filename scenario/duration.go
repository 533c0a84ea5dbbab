package scenario

import (
	"fmt"
	"time"
)

// ParseDuration reads a duration such as "250ms", "2s" or "1m30s" into
// virtual milliseconds. Negative durations are refused.
func ParseDuration(s string) (int64, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration (write it like 200ms, 2s or 1m30s)", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is negative; durations must be 0 or more", s)
	}
	return d.Milliseconds(), nil
}
