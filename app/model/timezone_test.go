package model

import (
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine/timezone"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/scenario"
)

// The model's zone loader is the one every part uses: the scenario's
// validation, the API server's, the CronJob controller (its Job's
// scheduled time is on the zone's clock), kubectl's manifests and its
// server-side dry run. The zone is one time.LoadLocation does not know,
// so a part that loaded zones another way would refuse it.
func TestTheZoneLoaderReachesEveryPart(t *testing.T) {
	zone := time.FixedZone("Test/Zone", 3*3600+30*60)
	load := func(name string) (*time.Location, error) {
		if name == "Test/Zone" {
			return zone, nil
		}
		return timezone.Default(name)
	}
	if _, err := timezone.Default("Test/Zone"); err == nil {
		t.Fatal("time.LoadLocation knows Test/Zone: the test proves nothing")
	}
	m, err := NewWith(testkit.ZonedCronJob("report", "Test/Zone"), scenario.Options{TimeZones: load})
	if err != nil {
		t.Fatalf("the scenario is refused: %v", err)
	}
	for m.eng.Store().Count("Job") == 0 {
		if !m.Step() {
			t.Fatal("no Job was created")
		}
	}
	e := m.Run(`kubectl get jobs -o 'jsonpath={.items[0].metadata.annotations.batch\.kubernetes\.io/cronjob-scheduled-timestamp}'`)
	if e.Output != "2025-01-01T03:31:00+03:30" {
		t.Errorf("the Job's scheduled time is %q, want 2025-01-01T03:31:00+03:30 (the zone's clock)", e.Output)
	}
	if _, err := m.decode([]byte(testkit.ZonedCronJob("other", "Test/Zone"))); err != nil {
		t.Errorf("kubectl's manifests refuse the zone: %v", err)
	}
	e = m.Run(`kubectl create cronjob nightly --image=example/report:v1 --schedule='TZ=Test/Zone 0 9 * * *' --dry-run=server`)
	if !strings.Contains(e.Output, "cannot use TZ or CRON_TZ in schedule") || strings.Contains(e.Output, "bad location") {
		t.Errorf("the server-side dry run: %q, want only the TZ rule's error", e.Output)
	}
	if _, err := NewWith(testkit.ZonedCronJob("report", "Mars/Olympus"), scenario.Options{TimeZones: load}); err == nil || !strings.Contains(err.Error(), "unknown time zone Mars/Olympus") {
		t.Errorf("an unknown zone: %v", err)
	}
}
