package conformance

import (
	"maps"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
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
		if tk.Component == "deployment-controller" && strings.Contains(tk.Explanation(), "skipped scaling down old ReplicaSets") {
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

// replayNext steps e to the next tick of component that when accepts,
// replays it upstream, and returns both outcomes as Check compares them
// (upstream's names paired with the engine's, its Events correlated).
func replayNext(t *testing.T, e *engine.Engine, name string, when func(*trace.Tick) bool) (ours, theirs outcome, names map[string]string) {
	t.Helper()
	for {
		e.Drain()
		rv := e.Store().ResourceVersion()
		snap := component(e, name).Clone()
		tk := e.Step()
		if tk == nil {
			t.Fatalf("no tick of the %s as wanted", name)
		}
		if tk.Component != name || !when(tk) {
			continue
		}
		in, err := newTickInput(e, tk, component(e, tk.Component), rv)
		if err != nil {
			t.Fatal(err)
		}
		in.before = snap
		if theirs, err = replayers[name](t.Context(), in); err != nil {
			t.Fatal(err)
		}
		if ours, err = engineOutcome(tk, in.clock); err != nil {
			t.Fatal(err)
		}
		return pairUp(in, ours, theirs, newCorrelator())
	}
}

// The DaemonSet replay speaks up: at the first sync of
// examples/daemonset.yaml's rolling update, which deletes one old pod
// (maxUnavailable 1), the engine's choice agrees with upstream or differs
// only by node order; an engine that deleted a second old pod, or gave
// the tainted control plane a pod, must show as unexplained.
func TestCatchesDaemonSetOverreach(t *testing.T) {
	src, err := os.ReadFile("../examples/daemonset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := load(t, src)
	deletes := func(tk *trace.Tick) bool {
		for _, ef := range tk.Effects {
			if ef.Op == trace.Delete && ef.Object.Kind == "Pod" {
				return true
			}
		}
		return false
	}
	ours, theirs, names := replayNext(t, e, "daemonset-controller", deletes)
	if lines := compare(ours, theirs, names); len(lines) > 0 && allowed(lines, ours, theirs) == "" {
		t.Fatalf("the engine should agree with upstream:\n%s", strings.Join(lines, "\n"))
	}
	var victim, other string
	for _, c := range ours.changes {
		if c.verb == "delete" && c.kind == "Pod" {
			victim = c.name
		}
	}
	for _, o := range e.Store().List("Pod", "default") {
		if n := o.Meta().Name; n != victim && o.Meta().DeletionTimestamp == nil && strings.HasPrefix(n, "fluentd-") {
			other = n
		}
	}
	buggy := ours
	buggy.changes = append(slices.Clone(ours.changes), change{verb: "delete", kind: "Pod", name: other, fields: map[string]string{}})
	buggy.events = append(slices.Clone(ours.events), eventLine("DaemonSet", "fluentd", "Normal", "SuccessfulDelete", "Deleted pod: "+other))
	lines := compare(buggy, theirs, names)
	if len(lines) == 0 {
		t.Fatal("the harness did not notice a second old pod deleted")
	}
	if a := allowed(lines, buggy, theirs); a != "" {
		t.Fatalf("deleting a second old pod was excused by %q:\n%s", a, strings.Join(lines, "\n"))
	}

	// The first sync creates a pod on each worker node, none on cp-1.
	e = load(t, src)
	creates := func(tk *trace.Tick) bool { return len(tk.Effects) > 0 }
	ours, theirs, names = replayNext(t, e, "daemonset-controller", creates)
	if lines := compare(ours, theirs, names); len(lines) > 0 && allowed(lines, ours, theirs) == "" {
		t.Fatalf("the engine should agree with upstream:\n%s", strings.Join(lines, "\n"))
	}
	buggy = ours
	buggy.changes = slices.Clone(ours.changes)
	for i, c := range buggy.changes {
		if c.verb == "create" && c.kind == "Pod" {
			c.fields = maps.Clone(c.fields)
			c.fields[nodeAffinityField] = `"cp-1"`
			buggy.changes[i] = c
			break
		}
	}
	lines = compare(buggy, theirs, names)
	if len(lines) == 0 {
		t.Fatal("the harness did not notice a pod pinned to the tainted control plane")
	}
	if a := allowed(lines, buggy, theirs); a != "" {
		t.Fatalf("a pod on cp-1 was excused by %q:\n%s", a, strings.Join(lines, "\n"))
	}
}

// The StatefulSet replay speaks up: where examples/statefulset.yaml's
// OrderedReady set creates web-1 (web-0 Running and Ready), an engine
// that also created web-2 in the same sync must show as unexplained.
func TestCatchesStatefulSetBurst(t *testing.T) {
	src, err := os.ReadFile("../examples/statefulset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := load(t, src)
	createsWeb1 := func(tk *trace.Tick) bool {
		for _, ef := range tk.Effects {
			if ef.Op == trace.Create && ef.Object.Kind == "Pod" && ef.Object.Name == "web-1" {
				return true
			}
		}
		return false
	}
	ours, theirs, names := replayNext(t, e, "statefulset-controller", createsWeb1)
	lines := compare(ours, theirs, names)
	if _, rest := explain(lines, ours, theirs); len(rest) > 0 {
		t.Fatalf("creating web-1 should agree with upstream:\n%s", strings.Join(rest, "\n"))
	}
	buggy := ours
	buggy.changes = nil
	for _, c := range ours.changes {
		buggy.changes = append(buggy.changes, c)
		if c.verb == "create" && c.kind == "Pod" {
			c.name = "web-2"
			c.fields = maps.Clone(c.fields)
			c.fields["metadata.name"] = `"web-2"`
			buggy.changes = append(buggy.changes, c)
		}
	}
	buggy.events = append(slices.Clone(ours.events), eventLine("StatefulSet", "web", "Normal", "SuccessfulCreate", "create Pod web-2 in StatefulSet web successful"))
	lines = compare(buggy, theirs, names)
	if len(lines) == 0 {
		t.Fatal("the harness did not notice web-2 created before web-1 is Ready")
	}
	if a := allowed(lines, buggy, theirs); a != "" {
		t.Fatalf("creating web-2 early was excused by %q:\n%s", a, strings.Join(lines, "\n"))
	}
}
