package timezone

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"
)

// ParseStandard with the embedded database's loader parses as
// robfig/cron does: the same error, or a schedule with the same next
// times. The oracle is cron.ParseStandard itself, which loads zones with
// time.LoadLocation.
func TestParseStandardIsRobfigs(t *testing.T) {
	load, err := FromZip(zoneinfoZip(t))
	if err != nil {
		t.Fatal(err)
	}
	specs := []string{
		"*/5 * * * *", "0 9 * * 1-5", "@hourly", "@every 90s", "@daily",
		"TZ=Europe/Paris 0 9 * * *", "CRON_TZ=America/New_York 30 2 * * *", "TZ=Asia/Kolkata @daily",
		"TZ=Europe/Paris @every 1h", "TZ=UTC 0 0 * * *", "TZ= 0 0 * * *", "TZ=Mars/Olympus 0 9 * * *",
		"TZ=Europe/Paris ", "TZ=Europe/Paris 61 * * * *", "TZ=../x 0 * * * *", "TZ=a..b 0 * * * *", "60 * * * *", "", "* * * *",
	}
	from := time.Date(2026, 3, 28, 22, 0, 0, 0, time.UTC)
	for _, spec := range specs {
		want, wantErr := cron.ParseStandard(spec)
		got, gotErr := ParseStandard(spec, load)
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
			t.Errorf("%q: error %v, want %v", spec, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		w, g := from, from
		for range 5 {
			w, g = want.Next(w), got.Next(g)
			if !w.Equal(g) || w.Location().String() != g.Location().String() {
				t.Errorf("%q: next %v, want %v", spec, g, w)
				break
			}
		}
	}
}
