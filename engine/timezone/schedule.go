package timezone

import (
	"fmt"
	"strings"

	"github.com/robfig/cron/v3"
)

// ParseStandard is cron.ParseStandard (five fields or a descriptor, with
// an optional "TZ=<zone> " or "CRON_TZ=<zone> " prefix) with the zone
// loaded by load instead of time.LoadLocation. robfig/cron reads the
// prefix itself; here its zone is loaded first and the rest parsed by
// robfig/cron as "TZ=UTC <rest>", which loads nothing, so every error
// and schedule is robfig/cron's.
func ParseStandard(spec string, load Loader) (cron.Schedule, error) {
	if !strings.HasPrefix(spec, "TZ=") && !strings.HasPrefix(spec, "CRON_TZ=") {
		return cron.ParseStandard(spec)
	}
	i, eq := strings.Index(spec, " "), strings.Index(spec, "=")
	if i <= eq {
		return cron.ParseStandard(spec) // no zone it can read, and the same failure
	}
	zone := spec[eq+1 : i]
	loc, err := load(zone)
	if err != nil {
		return nil, fmt.Errorf("provided bad location %s: %v", zone, err)
	}
	sched, err := cron.ParseStandard("TZ=UTC" + spec[i:])
	if err != nil {
		return nil, err
	}
	if s, ok := sched.(*cron.SpecSchedule); ok {
		s.Location = loc
	}
	return sched, nil
}
