package engine_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
)

// lastEffectTick is the last tick up to the current one that has an
// effect, and its time, read from the trace.
func lastEffectTick(e *engine.Engine) (int, int64) {
	tr := e.Trace()
	for i := len(tr) - 1; i >= 0; i-- {
		if len(tr[i].Effects) > 0 {
			return tr[i].Seq, tr[i].Time
		}
	}
	return 0, 0
}

// The cluster settles at the last tick that changed the API server, not
// at the deployment controller's no-op progress-deadline re-check.
func TestLastChangeIsWhenTheClusterSettled(t *testing.T) {
	e, _ := testkit.LoadFile(t, seed)
	if tick, at := e.LastChange(); tick != 0 || at != 0 {
		t.Fatalf("before any tick: %d at %d", tick, at)
	}
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	tick, at := e.LastChange()
	if tick != 39 || at != 10_650 || e.Tick() <= tick || e.Now() != 601_000 {
		t.Fatalf("last change at tick %d (%d ms); the run ended at tick %d (%d ms); want tick 39 at 10.650 s, before the re-check at 601 s", tick, at, e.Tick(), e.Now())
	}
	if wt, wat := lastEffectTick(e); wt != tick || wat != at {
		t.Fatalf("the trace's last tick with an effect is %d at %d", wt, wat)
	}
	what, when, ok := e.LaterWork()
	if !ok || what != "the deployment controller's progress-deadline re-check of deploy/codartium-api" || when != 601_000 {
		t.Fatalf("later work %q at %d (%v)", what, when, ok)
	}
	e.Seek(tick)
	if _, _, ok := e.LaterWork(); ok {
		t.Fatal("at the last change there is no later work yet")
	}
}

// LastChange follows the engine through Seek, StepBack and checkpoint
// restores: it always equals what the trace says, at every tick, with
// checkpoints every 7 ticks.
func TestLastChangeAfterSeek(t *testing.T) {
	e, _ := testkit.LoadFile(t, "../examples/rolling-update.yaml", testkit.CheckpointEvery(7))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	end := e.Tick()
	endTick, endAt := e.LastChange()
	// Every tick, backwards (each a restore from a checkpoint, some with
	// nothing to replay), then a few jumps both ways.
	var targets []int
	for n := end; n >= 0; n-- {
		targets = append(targets, n)
	}
	for _, n := range append(targets, 3, end-1, 40, 1, 41, 100, 8, end, 0, 57) {
		e.Seek(n)
		tick, at := e.LastChange()
		if wt, wat := lastEffectTick(e); tick != wt || at != wat {
			t.Fatalf("after Seek(%d): last change %d at %d, the trace says %d at %d", n, tick, at, wt, wat)
		}
	}
	e.Seek(end)
	e.StepBack()
	e.Seek(end)
	if tick, at := e.LastChange(); tick != endTick || at != endAt {
		t.Fatalf("back at the end: %d at %d, want %d at %d", tick, at, endTick, endAt)
	}
}

// Busy names what keeps a scenario that never settles busy, in a
// learner's words, with the engine's detail after it in the error.
func TestBusyNamesWhatNeverSettles(t *testing.T) {
	noNode4 := strings.Replace(mustRead(t, "../examples/insufficient-cpu.yaml"), "  actions:\n    - at: 30s\n      kubectl: uncordon node-4\n", "", 1)
	for _, tc := range []struct {
		name  string
		src   string
		until int64 // run to this time instead of until settled
		want  string
	}{
		{"crash-loop", mustRead(t, "../examples/crash-loop.yaml"), 0,
			"Never settles: pod api-7755f686bf-rkh4q crashes and restarts (CrashLoopBackOff, back-off 5m0s, 16 restarts)"},
		{"crash-loop, between two crashes", mustRead(t, "../examples/crash-loop.yaml"), 8_000,
			"Never settles: pod api-7755f686bf-rkh4q crashes and restarts (exit code 1, 1 restart)"},
		{"image-pull-failure", mustRead(t, "../examples/image-pull-failure.yaml"), 0,
			"Never settles: pod web-fddbd9fd-4b7q2 cannot pull example/web:v2 (ImagePullBackOff); deploy/web's rollout stopped at its progress deadline (ProgressDeadlineExceeded)"},
		{"image-pull-failure, before the deadline", mustRead(t, "../examples/image-pull-failure.yaml"), 60_000,
			"Never settles: pod web-fddbd9fd-4b7q2 cannot pull example/web:v2 (ImagePullBackOff)"},
		{"progress-deadline", mustRead(t, "../examples/progress-deadline.yaml"), 0,
			"Never settles: pod web-fddbd9fd-4b7q2 cannot pull example/web:v2 (ImagePullBackOff); deploy/web's rollout stopped at its progress deadline (ProgressDeadlineExceeded)"},
		{"insufficient-cpu, before node-4 is uncordoned", mustRead(t, "../examples/insufficient-cpu.yaml"), 20_000,
			"Not settled yet: 2 pods cannot be scheduled (0/4 nodes are available: 1 node(s) were unschedulable, 3 Insufficient cpu) and the scheduler retries them; a scenario action is still due at 30.000 s"},
		{"insufficient-cpu without node-4", noNode4, 0,
			"Never settles: 2 pods cannot be scheduled (0/4 nodes are available: 1 node(s) were unschedulable, 3 Insufficient cpu) and the scheduler retries them"},
		{"flapping readiness", examples.Flapping(5), 0,
			"Never settles: the readiness of pod flappy-6755995f5b-gx9s5 flaps (its app passes its readiness probe, then fails it, over and over), like that of 4 more pods"},
		{"an env reference to a ConfigMap that does not exist", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: nginx, env: [{name: A, valueFrom: {configMapKeyRef: {name: nowhere, key: a}}}]}]\n", 0,
			`Never settles: pod p waits for a ConfigMap or Secret (CreateContainerConfigError: configmap "nowhere" not found)`},
		{"a ConfigMap volume that does not exist", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: nginx, volumeMounts: [{name: v, mountPath: /v}]}]\n  volumes: [{name: v, configMap: {name: nowhere}}]\n", 0,
			"Never settles: pod p waits for a ConfigMap or Secret (FailedMount: a volume of it cannot be set up)"},
		{"insufficient-cpu, settled", mustRead(t, "../examples/insufficient-cpu.yaml"), 0, ""},
		{"codartium-api, settled", mustRead(t, seed), 0, ""},
		{"codartium-api, rolling out", mustRead(t, seed), 5_000, ""},
		{"a scenario action still to come", mustRead(t, "../examples/rolling-update.yaml"), 1_000,
			"Not settled yet: a scenario action (kubectl on deploy/web) is due at 20.000 s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, _ := testkit.Load(t, []byte(tc.src))
			if tc.until > 0 {
				e.RunUntil(tc.until)
			} else if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				var ns *engine.NotSettledError
				if !errors.As(err, &ns) || ns.Reason != tc.want {
					t.Fatalf("error %v; want its Reason %q", err, tc.want)
				}
				if !strings.HasPrefix(err.Error(), tc.want+". Not settled after ") || !strings.Contains(err.Error(), "work is still scheduled (") {
					t.Errorf("the error leads with the sentence, then the engine's detail: %q", err)
				}
			}
			if got := e.Busy(); got != tc.want {
				t.Errorf("Busy() = %q\nwant      %q", got, tc.want)
			}
		})
	}
}
