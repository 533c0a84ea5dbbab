package model

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
)

func seed(t *testing.T) *Model {
	t.Helper()
	ex, _ := examples.Get(examples.Default)
	m, err := New(ex.Source)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// A bad edit never destroys the running simulation.
func TestApplyKeepsPreviousOnError(t *testing.T) {
	m := seed(t)
	for i := 0; i < 5; i++ {
		m.Step()
	}
	bad := strings.Replace(m.Applied, "replicas: 3", "replicas: -3", 1)
	if m.Apply(bad) {
		t.Fatal("an invalid scenario must be refused")
	}
	if !m.Refused || m.Status().Tick != 5 || m.Source != bad {
		t.Fatalf("refused %v tick %d: the old simulation keeps running and the edit is kept", m.Refused, m.Status().Tick)
	}
	lines := m.ProblemLines()
	if len(lines) != 1 || !strings.Contains(lines[22][0].Message, "must be greater than or equal to 0") {
		t.Fatalf("problems %+v", m.Problems)
	}
	if !m.Apply(m.Applied) || m.Status().Tick != 0 || m.Refused {
		t.Fatal("a valid scenario applies and starts at tick 0")
	}
}

func TestStepBackSeekAndHorizon(t *testing.T) {
	m := seed(t)
	for i := 0; i < 10; i++ {
		m.Step()
	}
	m.Seek(m.Status().Tick - 1) // a step back, as the page does it
	if s := m.Status(); s.Tick != 9 || s.Horizon != 10 {
		t.Fatalf("%+v", s)
	}
	m.Seek(3)
	if m.Status().Tick != 3 {
		t.Fatal(m.Status())
	}
	m.RunUntilSettled()
	if !m.Status().Settled || !strings.HasPrefix(m.Notice, "Settled at 10.650 s (tick 39).") {
		t.Fatalf("%+v %q", m.Status(), m.Notice)
	}
	m.Seek(0)
	if m.Status().Tick != 0 {
		t.Fatal("reset")
	}
	if !m.StepToClass(trace.Bind) || m.Current().Component != "scheduler" {
		t.Fatalf("the next bind is the scheduler's: %+v", m.Current())
	}
}

// The diagram shows the hierarchy, highlights the tick's effects and
// makes stale caches visible.
func TestFlow(t *testing.T) {
	m := seed(t)
	for m.Current() == nil || m.Current().Component != "replicaset-controller" {
		m.Step()
	}
	f := m.Flow(wide)
	kinds := map[string]int{}
	var rs *Box
	for i := range f.Boxes {
		b := &f.Boxes[i]
		kinds[b.Kind]++
		if b.Kind == api.KindReplicaSet {
			rs = b
		}
	}
	if kinds[api.KindDeployment] != 1 || kinds[api.KindReplicaSet] != 1 || kinds[api.KindPod] != 3 || kinds[api.KindNode] != 3 {
		t.Fatalf("boxes %v", kinds)
	}
	if !rs.Actor {
		t.Error("the ReplicaSet the controller synced is the tick's actor")
	}
	translate := 0
	for _, a := range f.Arrows {
		if a.Class == trace.Translate && a.Y2 > a.Y1 {
			translate++
		}
	}
	if translate != 3 {
		t.Errorf("%d downward translate arrows, want one per created pod", translate)
	}
	stale := 0
	for _, b := range f.Boxes {
		if b.Stale != "" {
			stale++
		}
		if strings.Contains(b.Stale, " still sees ") || strings.Contains(b.Stale, " has not seen it yet") {
			var cached, api int64
			_, after, _ := strings.Cut(b.Stale, "its cache has seen writes up to resourceVersion ")
			if n, _ := fmt.Sscanf(after, "%d · the API server is at %d", &cached, &api); n != 2 || cached >= api {
				t.Errorf("a stale note says how far the cache lags behind the API server: %q", b.Stale)
			}
		}
	}
	if stale == 0 {
		t.Error("right after the pods are created, other components' caches have not seen them")
	}
	if len(f.Edges) < 4 || f.SchedulerY <= rs.Y+rs.H || f.NodesY <= f.SchedulerY {
		t.Errorf("edges %d, scheduler %d, nodes %d", len(f.Edges), f.SchedulerY, f.NodesY)
	}
}

// Many pods in a pane of the usual size are grouped, with counts by
// status, so the text keeps its size; the pods the tick wrote stand
// beside the group; Show all draws every pod.
func TestFlowGroupsManyPods(t *testing.T) {
	ex, _ := examples.Get(examples.Default)
	m, err := New(strings.Replace(ex.Source, "replicas: 3", "replicas: 30", 1))
	if err != nil {
		t.Fatal(err)
	}
	for m.Current() == nil || m.Current().Component != "kubelet" {
		m.Step()
	}
	f := m.Flow(DefaultViewport)
	if !f.Fits || f.Grouped == "" {
		t.Fatalf("30 pods in %dx%d: fits %v, grouped %q", DefaultViewport.W, DefaultViewport.H, f.Fits, f.Grouped)
	}
	counted, drawn := 0, 0
	for _, b := range f.Boxes {
		switch b.Kind {
		case "PodGroup":
			var n int
			if _, err := fmt.Sscanf(b.Title, "%d more pods", &n); err != nil {
				t.Fatalf("group title %q", b.Title)
			}
			counted += n
		case api.KindPod:
			drawn++
			if !m.scene(DefaultViewport).focus[b.Key] {
				t.Errorf("pod %s is drawn by itself but the story is not about it", b.Name)
			}
		}
	}
	if drawn == 0 || counted+drawn != 30 {
		t.Errorf("%d pods counted in groups and %d drawn, want the 30 with the tick's pod drawn", counted, drawn)
	}
	all := DefaultViewport
	all.All = true
	pods := 0
	for _, b := range m.Flow(all).Boxes {
		if b.Kind == api.KindPod {
			pods++
		}
	}
	if pods != 30 {
		t.Errorf("Show all draws %d pods, want 30", pods)
	}
}

func TestInspectorMarksChangedFields(t *testing.T) {
	m := seed(t)
	for m.Current() == nil || m.Current().Component != "scheduler" {
		m.Step()
	}
	m.Select(m.Current().Object)
	in := m.Inspect()
	if !in.Exists || in.Op != "update" {
		t.Fatalf("%+v", in)
	}
	var changed []string
	names := map[string]bool{}
	for _, s := range in.Sections {
		names[s.Name] = true
		for _, l := range s.Lines {
			if l.Changed {
				changed = append(changed, strings.TrimSpace(l.Text))
			}
		}
	}
	if !names["spec"] || !names["status"] || !names["metadata"] {
		t.Fatalf("sections %v", names)
	}
	if !containsPrefix(changed, "nodeName: node-") || !containsPrefix(changed, "- lastProbeTime: null") {
		t.Fatalf("changed lines %q", changed)
	}
}

func containsPrefix(list []string, p string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func TestConsoleAndEvents(t *testing.T) {
	m := seed(t)
	m.RunUntilSettled()
	for _, c := range SeedCommands {
		if e := m.Run(c); e.Failed || e.Output == "" {
			t.Errorf("%s: %+v", c, e)
		}
	}
	if e := m.Run("kubectl frobnicate"); !e.Failed || !strings.Contains(e.Output, "unknown command") {
		t.Errorf("%+v", e)
	}
	if got := m.Console.Previous(); got != "kubectl frobnicate" {
		t.Errorf("history ↑ %q", got)
	}
	if got := m.Console.Previous(); got != SeedCommands[len(SeedCommands)-1] {
		t.Errorf("history ↑↑ %q", got)
	}
	if got := m.Console.Next(); got != "kubectl frobnicate" {
		t.Errorf("history ↓ %q", got)
	}
	out, failed := m.Events("involvedObject.kind=Deployment")
	if failed || !strings.Contains(out, "ScalingReplicaSet") || strings.Contains(out, "Scheduled") {
		t.Errorf("events:\n%s", out)
	}
	if _, failed := m.Events("bogus=1"); !failed {
		t.Error("a bad field selector fails")
	}
}

func TestLogFilterAndWindow(t *testing.T) {
	m := seed(t)
	m.RunUntilSettled()
	rows, total := m.Log(LogFilter{Component: "scheduler"})
	if len(rows) != 3 || total != 3 {
		t.Fatalf("%d rows of %d", len(rows), total)
	}
	rows, _ = m.Log(LogFilter{Class: trace.Aggregate})
	for _, r := range rows {
		if !strings.Contains(r.Arrows, "↑") {
			t.Errorf("row %+v has no aggregate effect", r)
		}
	}
	all, total := m.Log(LogFilter{})
	if last := all[len(all)-1]; !last.Current || total != m.Status().Tick || last.Seq != total {
		t.Errorf("the last row is the current tick")
	}
}

// The window holds between LogWindow-logPage and LogWindow rows, ends at
// the newest tick, and its start moves only in jumps, so one step appends
// one row and leaves the others where they were.
func TestLogWindowMovesInJumps(t *testing.T) {
	m, err := New(examples.Scale(100))
	if err != nil {
		t.Fatal(err)
	}
	m.RunUntilSettled()
	if m.Status().Tick < 2*LogWindow {
		t.Fatalf("the seed settles at tick %d; the test needs a longer run", m.Status().Tick)
	}
	m.Seek(0)
	var prev []LogRow
	jumps := 0
	for m.Step() {
		rows, total := m.Log(LogFilter{})
		if len(rows) > LogWindow || (total > LogWindow && len(rows) <= LogWindow-logPage) {
			t.Fatalf("tick %d: %d rows of %d", m.Status().Tick, len(rows), total)
		}
		if rows[len(rows)-1].Seq != m.Status().Tick {
			t.Fatalf("tick %d: the newest row is %d", m.Status().Tick, rows[len(rows)-1].Seq)
		}
		if prev != nil && rows[0].Seq != prev[0].Seq {
			jumps++
		} else if prev != nil && len(rows) != len(prev)+1 {
			t.Fatalf("tick %d: %d rows after %d without a jump", m.Status().Tick, len(rows), len(prev))
		}
		prev = rows
	}
	if want := (m.Status().Tick - LogWindow + logPage - 1) / logPage; jumps != want {
		t.Errorf("%d jumps over %d ticks, want %d", jumps, m.Status().Tick, want)
	}
}

func TestGuardRecovers(t *testing.T) {
	m := seed(t)
	func() {
		defer m.guard("testing")
		panic("boom")
	}()
	if !strings.Contains(m.Crash, "internal error while testing: boom") {
		t.Fatalf("%q", m.Crash)
	}
	m.Step()
	if m.Status().Tick != 1 {
		t.Fatal("the model keeps working after a recovered panic")
	}
}

// A run until settled goes in slices: each slice reports it is not over
// until the cluster settles or the run reaches its bound, and the bound
// is the same as one uninterrupted run's.
func TestRunInSlices(t *testing.T) {
	ex, _ := examples.Get("crash-loop")
	m, err := New(ex.Source)
	if err != nil {
		t.Fatal(err)
	}
	m.StartRun()
	slices := 1
	for !m.RunSome(10) {
		slices++
	}
	if slices < 3 {
		t.Fatalf("a crash loop never settles; the run ended after %d slices at tick %d", slices, m.Status().Tick)
	}
	if !strings.Contains(m.Notice, "not settled") && !strings.Contains(m.Notice, "still") {
		t.Errorf("the bound is explained: %q", m.Notice)
	}
	whole, _ := New(ex.Source)
	whole.RunUntilSettled()
	if whole.Status().Tick != m.Status().Tick || whole.Notice != m.Notice {
		t.Errorf("sliced run ends at tick %d (%q), one run at tick %d (%q)", m.Status().Tick, m.Notice, whole.Status().Tick, whole.Notice)
	}
}

// The inspector reuses the YAML of an object version it has shown, and
// shows exactly what a fresh model shows at every tick: forward while the
// Deployment is written, and back again.
func TestInspectorCacheFollowsTheObject(t *testing.T) {
	m := seed(t)
	fresh := func() Inspection {
		f := seed(t)
		f.Seek(m.Current().Seq)
		f.Select(m.Selected)
		return f.Inspect()
	}
	for _, target := range []int{5, 12, 20, 40, 60, 30, 7, 61} {
		m.Seek(target)
		if got, want := m.Inspect(), fresh(); !reflect.DeepEqual(got, want) {
			t.Fatalf("tick %d: the inspector shows\n%+v\nwant\n%+v", target, got, want)
		}
	}
}

// SeekSome reaches a tick beyond the horizon in slices, exactly where one
// Seek lands, and stops early when the cluster settles first.
func TestSeekSome(t *testing.T) {
	m, whole := seed(t), seed(t)
	whole.Seek(30)
	slices := 0
	for !m.SeekSome(30, 4) {
		slices++
	}
	if m.Status().Tick != 30 || slices < 30/4-1 || !reflect.DeepEqual(m.Inspect(), whole.Inspect()) {
		t.Fatalf("tick %d after %d slices", m.Status().Tick, slices)
	}
	for !m.SeekSome(1_000_000, 500) {
	}
	if !strings.HasPrefix(m.Notice, "The cluster settled before tick 1000000: nothing is left to do after tick ") || !strings.HasSuffix(m.Notice, "the last change was at 10.650 s (tick 39).") {
		t.Fatalf("notice %q", m.Notice)
	}
	// Back: to the checkpoint at tick 0, then forward 7 ticks per call.
	if m.ReplayTicks(20) != 20 {
		t.Fatalf("going back to tick 20 replays %d ticks, want 20 (from the checkpoint at 0)", m.ReplayTicks(20))
	}
	calls := 1
	for !m.SeekSome(20, 7) {
		calls++
	}
	whole.Seek(20)
	if m.Status().Tick != 20 || calls != 3 || !reflect.DeepEqual(m.Inspect(), whole.Inspect()) {
		t.Fatalf("back to tick 20: at %d after %d calls", m.Status().Tick, calls)
	}
}

// A watch in the console on a cluster that never settles stops after
// ConsoleWatchTicks ticks and says so, instead of running an hour of
// virtual time at once.
func TestConsoleWatchIsBounded(t *testing.T) {
	m, err := New(examples.Flapping(20))
	if err != nil {
		t.Fatal(err)
	}
	before := m.Status().Tick
	e := m.Run("kubectl get pods -w")
	if got := m.Status().Tick - before; got != ConsoleWatchTicks || !strings.Contains(e.Output, "(stopped after 2000 ticks of the simulation, at ") {
		t.Fatalf("the watch took %d ticks; output ends %q", got, e.Output[max(0, len(e.Output)-200):])
	}
}

// The inspector's menu lists every pod of a small cluster; on a large one
// it lists the pods of the ReplicaSet in focus and counts the rest.
func TestPickable(t *testing.T) {
	m := seed(t)
	m.RunUntilSettled()
	pk := m.Pickable()
	if pk.Hidden != 0 || len(pk.Keys) != 1+1+3+3 {
		t.Fatalf("seed: %d keys, %d hidden: %v", len(pk.Keys), pk.Hidden, pk.Keys)
	}
	big, err := New(examples.Scale(MaxPickerPods + 50))
	if err != nil {
		t.Fatal(err)
	}
	big.RunUntilSettled()
	pods := MaxPickerPods + 50
	if pk := big.Pickable(); pk.Hidden != pods || pk.Focus != "" {
		t.Fatalf("with the Deployment selected: %d hidden (want %d), focus %q", pk.Hidden, pods, pk.Focus)
	}
	var rs, pod api.Key
	for _, k := range big.Pickable().Keys {
		if k.Kind == api.KindReplicaSet {
			rs = k
		}
	}
	big.Select(rs)
	pk = big.Pickable()
	listed := 0
	for _, k := range pk.Keys {
		if k.Kind == api.KindPod {
			listed++
			pod = k
		}
	}
	if listed != MaxPickerPods || pk.Hidden != 50 || pk.Focus != rs.Name {
		t.Fatalf("with %s selected: %d pods listed, %d hidden, focus %q", rs, listed, pk.Hidden, pk.Focus)
	}
	big.Select(pod)
	if pk := big.Pickable(); !slices.Contains(pk.Keys, pod) || pk.Focus != rs.Name {
		t.Fatalf("with %s selected the menu keeps it: focus %q", pod, pk.Focus)
	}
}

// A jump to the next tick of a class runs in slices to the same tick as
// one StepToClass, and on a cluster that never produces the class it
// stops after MaxJumpTicks ticks and says so.
func TestJumpInSlices(t *testing.T) {
	m, whole := seed(t), seed(t)
	whole.StepToClass(trace.Realize)
	m.StartJump()
	calls := 1
	for !m.JumpSome(trace.Realize, 2) {
		calls++
	}
	if m.Status().Tick != whole.Status().Tick || m.Notice != "" || calls < 2 {
		t.Fatalf("sliced jump at tick %d after %d calls, one jump at %d (notice %q)", m.Status().Tick, calls, whole.Status().Tick, m.Notice)
	}
	f, err := New(examples.Flapping(3))
	if err != nil {
		t.Fatal(err)
	}
	f.RunSome(400) // the Deployment has long been rolled out
	start := f.Status().Tick
	if f.StepToClass(trace.Translate) || f.Status().Tick-start != MaxJumpTicks || f.Notice != "No translate effect in the next 20000 ticks." {
		t.Fatalf("after %d ticks: %q", f.Status().Tick-start, f.Notice)
	}
}

// What a lagging cache believes is in the inspector too (a phone has no
// hover): the note the diagram's ◔ shows for the same object.
func TestInspectorSaysWhatAStaleCacheBelieves(t *testing.T) {
	m := seed(t)
	for i := 0; i < 100; i++ {
		m.Step()
		for _, b := range m.Flow(wide).Boxes {
			if b.Stale == "" || b.Key.Kind == "" {
				continue
			}
			m.Select(b.Key)
			if in := m.Inspect(); in.Stale != b.Stale {
				t.Fatalf("tick %d: %s's box says %q, the inspector %q", m.Status().Tick, b.Key, b.Stale, in.Stale)
			}
			return
		}
	}
	t.Fatal("no stale cache in 100 ticks")
}

// A tick that creates a hundred pods at once draws the first
// MaxStoryPods of them by themselves and counts the rest in the group,
// with one arrow into it, in every pane size: the text keeps its size,
// and the counts add up.
func TestFlowOfABurst(t *testing.T) {
	m, err := New(examples.Scale(100))
	if err != nil {
		t.Fatal(err)
	}
	for m.Current() == nil || len(m.Current().Effects) < 100 {
		if !m.Step() {
			t.Fatal("no tick creates 100 pods")
		}
	}
	for _, p := range paneSizes {
		f := m.Flow(p.v)
		if problems := layoutProblems(m, f, p.v); len(problems) > 0 && !strings.Contains(strings.Join(problems, " "), "not drawn by itself") {
			t.Errorf("%s: %s", p.name, strings.Join(problems, "; "))
		}
		drawn, counted, intoGroup := 0, 0, 0
		for _, b := range f.Boxes {
			switch b.Kind {
			case api.KindPod:
				drawn++
			case "PodGroup":
				var n int
				if _, err := fmt.Sscanf(strings.TrimPrefix(b.Title, "+"), "%d", &n); err != nil {
					t.Fatalf("%s: group title %q", p.name, b.Title)
				}
				counted += n
				for _, a := range f.Arrows {
					if a.X2 == b.X+b.W/2 && a.Y2 == b.Y {
						intoGroup++
					}
				}
			}
		}
		if drawn != MaxStoryPods || drawn+counted != 100 || intoGroup != 1 {
			t.Errorf("%s: %d pods drawn, %d counted, %d arrows into the group: want %d drawn, 100 in all, one arrow", p.name, drawn, counted, intoGroup, MaxStoryPods)
		}
	}
}
