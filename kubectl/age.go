package kubectl

import (
	"time"

	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/stateflow/stateflow/engine/api"
)

// age renders how long ago t was, at virtual time now, as kubectl's AGE
// column does (duration.HumanDuration).
func age(t api.Time, now int64) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(time.Duration(now-t.MS) * time.Millisecond)
}
