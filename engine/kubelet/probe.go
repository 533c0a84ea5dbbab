package kubelet

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// maxProbesAhead bounds the search for the next verdict change: a periodic
// app's pattern of answers at probe times repeats within this many probes
// for any period and flap of whole milliseconds up to 100 s.
const maxProbesAhead = 100_000

// answer reports whether the app answers a probe at time t, and the next
// time after t at which that answer changes (-1: never).
type answer func(t int64) (ok bool, next int64)

// probeState evaluates a probe (initialDelaySeconds, then every
// periodSeconds, successThreshold/failureThreshold consecutive results) on
// an app whose answers are given by ans, for a container started at start.
// It returns the probe's verdict at time t (initial before any decisive
// result) and the time of the next verdict change after t (-1: never).
// The app's answers change only at known times, so runs of identical
// answers are skipped instead of probed one by one. An app whose answers
// keep changing without ever crossing a threshold (a readiness flap
// shorter than failureThreshold probes) never flips the verdict: after
// maxProbesAhead probes past t without a flip the verdict is steady.
func probeState(start int64, p *api.Probe, initial bool, ans answer, t int64) (bool, int64) {
	period := int64(max(p.PeriodSeconds, 1)) * 1000
	succT, failT := int(max(p.SuccessThreshold, 1)), int(max(p.FailureThreshold, 1))
	state, succ, fail := initial, 0, 0
	ahead := 0
	for probe := start + int64(p.InitialDelaySeconds)*1000; ; {
		if probe > t {
			if ahead++; ahead > maxProbesAhead {
				return state, -1
			}
		}
		ok, change := ans(probe)
		if ok {
			succ, fail = succ+1, 0
		} else {
			succ, fail = 0, fail+1
		}
		flipped := false
		if !state && ok && succ >= succT || state && !ok && fail >= failT {
			state, flipped = !state, true
		}
		if flipped && probe > t {
			return !state, probe
		}
		if state == ok {
			if change < 0 {
				return state, -1
			}
			if change > probe+period {
				probe += (change - probe + period - 1) / period * period
				continue
			}
		}
		probe += period
	}
}

// readinessAnswer is the app's readiness endpoint: answering from ReadyMS
// after start, then, if it flaps, up for FlapUpMS and down for FlapDownMS.
func readinessAnswer(start int64, b Behavior) answer {
	from := start + b.ReadyMS
	return func(t int64) (bool, int64) {
		if t < from {
			return false, from
		}
		if b.FlapUpMS <= 0 || b.FlapDownMS <= 0 {
			return true, -1
		}
		cycle := b.FlapUpMS + b.FlapDownMS
		at := (t - from) % cycle
		base := t - at
		if at < b.FlapUpMS {
			return true, base + b.FlapUpMS
		}
		return false, base + cycle
	}
}

// livenessAnswer is the app's liveness endpoint: it stops answering
// LivenessFailAfterMS after start, if set.
func livenessAnswer(start int64, b Behavior) answer {
	return func(t int64) (bool, int64) {
		if b.LivenessFailAfterMS <= 0 {
			return true, -1
		}
		if t < start+b.LivenessFailAfterMS {
			return true, start + b.LivenessFailAfterMS
		}
		return false, -1
	}
}

// probeFailure is the message of a failed probe, by handler type
// (pkg/kubelet/prober).
func probeFailure(kind string, p *api.Probe, ip string) string {
	switch {
	case p.HTTPGet != nil:
		code := 503
		if kind == "Liveness" {
			code = 500
		}
		return fmt.Sprintf("%s probe failed: HTTP probe failed with statuscode: %d", kind, code)
	case p.TCPSocket != nil:
		return fmt.Sprintf("%s probe failed: dial tcp %s:%s: connect: connection refused", kind, ip, p.TCPSocket.Port.String())
	case p.Exec != nil:
		return fmt.Sprintf("%s probe failed: command %q exited with 1", kind, fmt.Sprint(p.Exec.Command))
	}
	return kind + " probe failed"
}
