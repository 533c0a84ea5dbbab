package kubelet

import (
	"math/rand/v2"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

func TestProbeStateReadiness(t *testing.T) {
	p := &api.Probe{InitialDelaySeconds: 2, PeriodSeconds: 5, SuccessThreshold: 1, FailureThreshold: 3}
	ans := readinessAnswer(1000, Behavior{ReadyMS: 3000})
	if st, next := probeState(1000, p, false, ans, 1000); st || next != 8000 {
		t.Fatalf("at start: %v next %d; probes at 3s, 8s and the app answers from 4s", st, next)
	}
	if st, next := probeState(1000, p, false, ans, 9000); !st || next != -1 {
		t.Fatalf("after 8s: %v next %d", st, next)
	}
}

// Flapping: up 30s, down 20s; with period 5 and failureThreshold 3 the
// probe notices the outage on the third failed probe, and recovery on the
// first success.
func TestProbeStateFlapping(t *testing.T) {
	p := &api.Probe{PeriodSeconds: 5, SuccessThreshold: 1, FailureThreshold: 3}
	ans := readinessAnswer(0, Behavior{FlapUpMS: 30_000, FlapDownMS: 20_000})
	st, next := probeState(0, p, false, ans, 0)
	if !st || next != 40_000 {
		t.Fatalf("the probe at 0 already succeeds: %v %d", st, next)
	}
	st, next = probeState(0, p, false, ans, 1)
	if !st || next != 40_000 {
		t.Fatalf("ready until the third failed probe (30, 35, 40s): %v %d", st, next)
	}
	st, next = probeState(0, p, false, ans, 40_001)
	if st || next != 50_000 {
		t.Fatalf("not ready until the app answers again at 50s: %v %d", st, next)
	}
}

func TestProbeStateLiveness(t *testing.T) {
	p := &api.Probe{InitialDelaySeconds: 0, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
	ans := livenessAnswer(0, Behavior{LivenessFailAfterMS: 60_000})
	if st, next := probeState(0, p, true, ans, 0); !st || next != 80_000 {
		t.Fatalf("alive until failures at 60, 70, 80s: %v %d", st, next)
	}
	if st, next := probeState(0, p, true, livenessAnswer(0, Behavior{}), 1e9); !st || next != -1 {
		t.Fatalf("a healthy app never fails: %v %d", st, next)
	}
}

// A readiness flap too short to reach failureThreshold never flips the
// verdict: the container stays ready and no change is scheduled (this
// used to loop forever).
func TestShortFlapNeverFlips(t *testing.T) {
	p := &api.Probe{PeriodSeconds: 5, FailureThreshold: 3}
	ans := readinessAnswer(0, Behavior{ReadyMS: 2000, FlapUpMS: 20_000, FlapDownMS: 10_000})
	st, next := probeState(0, p, false, ans, 60_000)
	if !st || next != -1 {
		t.Fatalf("verdict %v, next change %d; want ready for good", st, next)
	}
}

// Resuming from a cursor gives exactly what evaluating from the start
// gives, for random probes, flapping apps and times that mostly move
// forward and sometimes jump back (a seek restores an older kubelet).
func TestProbeCursorMatchesAFullEvaluation(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := range 120 {
		p := &api.Probe{InitialDelaySeconds: int32(r.IntN(5)), PeriodSeconds: int32(1 + r.IntN(10)),
			SuccessThreshold: int32(1 + r.IntN(3)), FailureThreshold: int32(1 + r.IntN(4))}
		b := Behavior{ReadyMS: int64(r.IntN(20_000)), FlapUpMS: int64(1 + r.IntN(60_000)), FlapDownMS: int64(1 + r.IntN(60_000))}
		if r.IntN(4) == 0 {
			b.FlapUpMS, b.FlapDownMS = 0, 0
		}
		start, appStart := int64(r.IntN(5000)), int64(0)
		ans := readinessAnswer(appStart, b)
		var cur probeCursor
		at := start
		for range 60 {
			if r.IntN(8) == 0 {
				at -= int64(r.IntN(200_000))
			} else {
				at += int64(r.IntN(30_000))
			}
			at = max(at, start)
			wantState, wantNext := probeState(start, p, false, ans, at)
			gotState, gotNext := probeStateAt(&cur, start, appStart, p, false, ans, at)
			if gotState != wantState || gotNext != wantNext {
				t.Fatalf("trial %d, probe %+v, app %+v, t=%d: resumed (%v, %d), full (%v, %d)", trial, p, b, at, gotState, gotNext, wantState, wantNext)
			}
		}
	}
}
