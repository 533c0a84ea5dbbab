package model

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// seekTime moves the model to the last tick at or before ms.
func seekTime(t *testing.T, m *Model, ms int64) {
	t.Helper()
	n := 0
	for _, tk := range m.Engine().Trace() {
		if tk.Time <= ms {
			n = tk.Seq
		}
	}
	m.Seek(n)
}

// A Job is drawn over its pods with its progress, its failures and how
// it ended; a finished pod reads as kubectl says it (Completed, Error).
func TestFlowDrawsJobsOverTheirPods(t *testing.T) {
	m := load(t, "job-backoff")
	seekTime(t, m, 30_000)
	f := m.Flow(wide)
	pi := box(f, api.KindJob, "pi")
	if pi.Kind == "" || pi.Lines[0] != "Running · 0/1 done · 2 failed" || pi.Status != "warn" {
		t.Fatalf("job/pi at 30s: %+v", pi)
	}
	failed := 0
	for _, b := range f.Boxes {
		if b.Kind == api.KindPod && strings.Join(b.Lines, " · ") == "Error · exit 1" && strings.HasPrefix(b.Name, "pi-") {
			failed++
			if b.Status != "bad" || b.Y <= pi.Y {
				t.Errorf("failed pod %+v", b)
			}
		}
	}
	if failed != 2 {
		t.Errorf("%d pods drawn as Error · exit 1 at 30s, want 2", failed)
	}
	f = load(t, "job-backoff").Flow(wide)
	if pi := box(f, api.KindJob, "pi"); pi.Lines[0] != "Failed · 0/1 done · 3 failed" || pi.Lines[1] != "Failed: BackoffLimitExceeded" || pi.Status != "bad" {
		t.Errorf("job/pi at the end: %+v", pi)
	}
	if ok := box(f, api.KindJob, "ok"); ok.Lines[0] != "Complete · 1/1 done · 0 failed" || ok.Status != "ok" {
		t.Errorf("job/ok at the end: %+v", ok)
	}
	if p := podBoxes(f, "ok-"); len(p) != 1 || strings.Join(p[0].Lines, " · ") != "Completed · exit 0" || p[0].Status != "ok" {
		t.Errorf("job/ok's pod: %+v", p)
	}
}

// A CronJob sits at the top row with its Jobs under it, linked, and says
// its schedule, policy and last run.
func TestFlowDrawsCronJobOverItsJobs(t *testing.T) {
	m := load(t, "cronjob-concurrency")
	seekTime(t, m, 130_000)
	f := m.Flow(wide)
	cj := box(f, api.KindCronJob, "report-replace")
	if cj.Lines[0] != "* * * * * · Replace" || cj.Lines[1] != "active 1 · last run 00:02:00" || cj.Status != "progress" {
		t.Fatalf("cj/report-replace at 130s: %+v", cj)
	}
	jobs := 0
	for _, e := range f.Edges {
		if e.From == "CronJob/default/report-replace" && e.Kind == "owns" {
			jobs++
			if j := f.box(e.To); j.Y <= cj.Y+cj.H {
				t.Errorf("job %s at y %d is not under its CronJob (y %d to %d)", e.To, j.Y, cj.Y, cj.Y+cj.H)
			}
		}
	}
	if jobs != 1 {
		t.Errorf("cj/report-replace owns %d drawn Jobs at 130s, want 1 (the first was replaced)", jobs)
	}
	end := load(t, "cronjob-concurrency").Flow(wide)
	if cj := box(end, api.KindCronJob, "report-forbid"); !strings.HasSuffix(cj.Lines[0], "· suspended") || cj.Status != "warn" {
		t.Errorf("cj/report-forbid at the end: %+v", cj)
	}
}

func podBoxes(f Flow, prefix string) []Box {
	var out []Box
	for _, b := range f.Boxes {
		if b.Kind == api.KindPod && strings.HasPrefix(b.Name, prefix) {
			out = append(out, b)
		}
	}
	return out
}

func (f Flow) box(id string) Box {
	for _, b := range f.Boxes {
		if b.ID == id {
			return b
		}
	}
	return Box{}
}
