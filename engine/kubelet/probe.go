package kubelet

import (
	"fmt"
	"path"

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
	return resumeProbe(nil, probeCursor{next: start + int64(p.InitialDelaySeconds)*1000, state: initial}, p, ans, t)
}

// probeCursor is how far an evaluation of one container's probe got: the
// verdict and the consecutive counts before the probe at next, every
// earlier probe evaluated (the last at last). probeState is a pure
// function of its inputs, so a later call for the same container resumes
// from its cursor instead of replaying every probe since the container
// started, which made the cost of a tick grow with the time a flapping
// container had been running.
type probeCursor struct {
	key        probeKey
	next, last int64
	state      bool
	succ, fail int
}

// probeKey is what a probe's evaluation depends on besides the app's
// behaviour, which is fixed for a container: when probing began, when the
// app started, the probe's timing and thresholds, and the initial verdict.
type probeKey struct {
	start, appStart      int64
	delay, period        int32
	succT, failT         int32
	initial, initialized bool
}

// probeStateAt is probeState for a container, remembering its progress in
// cur: calls with the same key and a t at or after the cursor's last
// evaluated probe resume from it.
func probeStateAt(cur *probeCursor, start, appStart int64, p *api.Probe, initial bool, ans answer, t int64) (bool, int64) {
	key := probeKey{start: start, appStart: appStart, delay: p.InitialDelaySeconds, period: p.PeriodSeconds,
		succT: p.SuccessThreshold, failT: p.FailureThreshold, initial: initial, initialized: true}
	from := probeCursor{key: key, next: start + int64(p.InitialDelaySeconds)*1000, last: -1, state: initial}
	if cur.key == key && cur.last <= t {
		from = *cur
	}
	return resumeProbe(cur, from, p, ans, t)
}

// resumeProbe evaluates probes from c.next on; it saves in save (if not
// nil) where it got to before the first probe after t.
func resumeProbe(save *probeCursor, c probeCursor, p *api.Probe, ans answer, t int64) (bool, int64) {
	period := int64(max(p.PeriodSeconds, 1)) * 1000
	succT, failT := int(max(p.SuccessThreshold, 1)), int(max(p.FailureThreshold, 1))
	state, succ, fail := c.state, c.succ, c.fail
	ahead := 0
	for probe := c.next; ; {
		if probe > t {
			if ahead == 0 && save != nil {
				*save = probeCursor{key: c.key, next: probe, last: c.last, state: state, succ: succ, fail: fail}
			}
			if ahead++; ahead > maxProbesAhead {
				return state, -1
			}
		} else {
			c.last = probe
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
				if ahead == 0 && save != nil {
					// Nothing changes any more: resume here next time.
					*save = probeCursor{key: c.key, next: probe + period, last: c.last, state: state, succ: succ, fail: fail}
				}
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
func probeFailure(kind string, p *api.Probe, ip, image string) string {
	switch {
	case p.HTTPGet != nil:
		code := 503
		if kind != "Readiness" {
			code = 500 // the liveness endpoint, which a startup probe hits too
		}
		return fmt.Sprintf("%s probe failed: HTTP probe failed with statuscode: %d", kind, code)
	case p.TCPSocket != nil:
		return fmt.Sprintf("%s probe failed: dial tcp %s:%s: connect: connection refused", kind, ip, p.TCPSocket.Port.String())
	case p.Exec != nil:
		return kind + " probe failed: " + execOutput(p, image)
	case p.GRPC != nil:
		// The health service answers, but not SERVING (pkg/probe/grpc).
		return kind + ` probe failed: service unhealthy (responded with "NOT_SERVING")`
	}
	return kind + " probe failed"
}

// execOutput is what a failing exec probe's command prints, which the
// kubelet puts in the Event (pkg/probe/exec): for a probe that reads a
// file Infer follows (cat FILE, ls FILE), the missing file's message as
// busybox or coreutils prints it; nothing for a check that prints
// nothing (test, [) or a command Stateflow does not know.
func execOutput(p *api.Probe, image string) string {
	file, ok := probedFile(p)
	if !ok {
		return ""
	}
	busybox := imageName(image) == "busybox"
	switch path.Base(probeProgram(p)) {
	case "cat":
		if busybox {
			return fmt.Sprintf("cat: can't open '%s': No such file or directory", file)
		}
		return fmt.Sprintf("cat: %s: No such file or directory", file)
	case "ls":
		if busybox {
			return fmt.Sprintf("ls: %s: No such file or directory", file)
		}
		return fmt.Sprintf("ls: cannot access '%s': No such file or directory", file)
	}
	return ""
}
