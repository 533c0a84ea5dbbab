package conformance

import (
	"os"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/trace"
)

// The harness is only worth its silence if it speaks up: replaying tick
// 102 of examples/rolling-update.yaml, where the engine once scaled the
// old ReplicaSet up from 2 to 3 and back down to 1 (a negative clean-up
// in cleanupUnhealthyReplicas), it must report those writes and Events as
// an unexplained difference. The engine's decision is replaced by the old
// bug's, written out here; upstream is run for real.
func TestCatchesOldReplicaSetScaleUp(t *testing.T) {
	src, err := os.ReadFile("../examples/rolling-update.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := load(t, src)
	var in *tickInput
	for in == nil {
		rv := e.Store().ResourceVersion()
		tk := e.Step()
		if tk == nil {
			t.Fatal("the run ended before the old ReplicaSet's clean-up")
		}
		if tk.Component == "deployment-controller" && strings.Contains(tk.Explanation, "skipped scaling down old ReplicaSets") {
			if in, err = newTickInput(e, tk, component(e, tk.Component), rv); err != nil {
				t.Fatal(err)
			}
		}
	}
	theirs, err := replayDeployment(t.Context(), in)
	if err != nil {
		t.Fatal(err)
	}
	ours, err := engineOutcome(in.tick, in.clock)
	if err != nil {
		t.Fatal(err)
	}
	names := nameMap(ours, theirs)
	theirs.events, theirs.randomAggregation = newCorrelator().correlate(in.tick.Component, in.tick.Time, theirs.raw)
	if lines := compare(ours, theirs, names); len(lines) > 0 {
		t.Fatalf("the fixed engine should agree with upstream at tick %d:\n%s", in.tick.Seq, strings.Join(lines, "\n"))
	}

	// The old bug's decision at the same tick.
	old := findOldRS(t, in.tick)
	buggy := ours
	buggy.changes = append([]change{
		{verb: "update", kind: "ReplicaSet", name: old, fields: map[string]string{"spec.replicas": "3"}},
		{verb: "update", kind: "ReplicaSet", name: old, fields: map[string]string{"spec.replicas": "1"}},
	}, ours.changes...)
	buggy.events = append([]string{
		eventLine("Deployment", in.tick.Object.Name, "Normal", "ScalingReplicaSet", "Scaled up replica set "+old+" from 2 to 3"),
		eventLine("Deployment", in.tick.Object.Name, "Normal", "ScalingReplicaSet", "Scaled down replica set "+old+" from 3 to 1"),
	}, ours.events...)
	lines := compare(buggy, theirs, names)
	if len(lines) == 0 {
		t.Fatal("the harness did not notice the old ReplicaSet being scaled up")
	}
	if a := allowed(lines, buggy, theirs); a != "" {
		t.Fatalf("the scale-up was excused by %q", a)
	}
	if text := strings.Join(lines, "\n"); !strings.Contains(text, "Scaled up replica set "+old+" from 2 to 3") || !strings.Contains(text, "spec.replicas = 3") {
		t.Fatalf("the diff does not show the scale-up:\n%s", text)
	}
}

// findOldRS names the old ReplicaSet the tick read.
func findOldRS(t *testing.T, tk *trace.Tick) string {
	t.Helper()
	for _, r := range tk.Reads {
		if r.Object.Kind == "ReplicaSet" && strings.HasPrefix(r.Object.Name, "web-7778495659") {
			return r.Object.Name
		}
	}
	t.Fatalf("tick %d read no old ReplicaSet: %+v", tk.Seq, tk.Reads)
	return ""
}
