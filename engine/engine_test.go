package engine_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

const seed = "../examples/codartium-api.yaml"

// Every example, run twice, gives byte-identical JSON traces.
func TestDeterminism(t *testing.T) {
	for _, path := range testkit.Examples(t, "../examples") {
		t.Run(filepath.Base(path), func(t *testing.T) {
			run := func() []byte {
				e, _ := testkit.LoadFile(t, path)
				_ = e.RunUntilSettled(engine.SettleLimits{MaxTicks: 20000})
				return traceJSON(t, e.Trace())
			}
			a, b := run(), run()
			if len(a) == 0 {
				t.Fatal("empty trace")
			}
			if !bytes.Equal(a, b) {
				t.Fatal("two runs of the same scenario gave different traces")
			}
		})
	}
}

// Seek(n) then stepping forward gives the same trace as running straight
// through, from several points and across checkpoints.
func TestSeekReplaysIdentically(t *testing.T) {
	straight, _ := testkit.LoadFile(t, seed)
	if err := straight.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	want := traceJSON(t, straight.Trace())
	n := straight.Tick()
	for _, every := range []int{1, 7, 256} {
		for _, back := range []int{0, 1, n / 3, n / 2, n - 1} {
			e, _ := testkit.LoadFile(t, seed, testkit.CheckpointEvery(every))
			e.Seek(n)
			replay := e.ReplayTicks(back)
			e.Rewind(back)
			if got := back - e.Tick(); got != replay || e.Tick() > back {
				t.Fatalf("checkpoint every %d: Rewind(%d) went to tick %d, ReplayTicks said %d to replay", every, back, e.Tick(), replay)
			}
			e.Seek(back)
			if e.Tick() != back {
				t.Fatalf("Seek(%d) left the engine at tick %d", back, e.Tick())
			}
			if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
				t.Fatal(err)
			}
			if got := traceJSON(t, e.Trace()); !bytes.Equal(got, want) {
				t.Fatalf("checkpoint every %d, seek back to %d: the replayed trace differs", every, back)
			}
			if fingerprint(t, e) != fingerprint(t, straight) {
				t.Fatalf("checkpoint every %d, seek back to %d: the final state differs", every, back)
			}
		}
	}
}

// StepBack returns exactly the state of the previous tick.
func TestStepBackRestoresPreviousState(t *testing.T) {
	e, _ := testkit.LoadFile(t, seed, testkit.CheckpointEvery(5))
	var states []string
	states = append(states, fingerprint(t, e))
	for e.Step() != nil {
		states = append(states, fingerprint(t, e))
	}
	for i := len(states) - 2; i >= 0; i-- {
		e.StepBack()
		if got := fingerprint(t, e); got != states[i] {
			t.Fatalf("StepBack to tick %d: state differs from the state first seen after tick %d", i, i)
		}
	}
}

// The seed scenario's whole trace is a golden file.
func TestSeedGolden(t *testing.T) {
	e, _ := testkit.LoadFile(t, seed)
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, tk := range e.Trace() {
		text.WriteString(tk.Text() + "\n")
	}
	golden(t, "testdata/codartium-api.trace.txt", []byte(text.String()))
	golden(t, "testdata/codartium-api.trace.jsonl", traceJSON(t, e.Trace()))
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./engine -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (- golden, + now); if the change is intended, run go test ./engine -update:\n%s", path, unifiedDiff(string(want), string(got), 3, 80))
	}
}

// unifiedDiff is a line diff of a and b in the unified format (hunks with
// context lines around each change), at most limit lines of it.
func unifiedDiff(a, b string, context, limit int) string {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	// lcs[i][j] is the length of the longest common subsequence of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
		a, b int
	}
	var ops []line
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			ops = append(ops, line{' ', x[i], i, j})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, line{'-', x[i], i, j})
			i++
		default:
			ops = append(ops, line{'+', y[j], i, j})
			j++
		}
	}
	var out []string
	for k := 0; k < len(ops) && len(out) < limit; {
		if ops[k].op == ' ' {
			k++
			continue
		}
		// A hunk: context before the first change, every change closer
		// than 2×context equal lines to the last, context after.
		start, end := max(0, k-context), k
		for last := k; end < len(ops) && end-last <= 2*context; end++ {
			if ops[end].op != ' ' {
				last = end
			}
			if end-last == context && end+1 < len(ops) && !nearChange(ops[end+1:], context+1, func(o line) bool { return o.op != ' ' }) {
				end++
				break
			}
		}
		out = append(out, fmt.Sprintf("@@ -%d +%d @@", ops[start].a+1, ops[start].b+1))
		for _, l := range ops[start:min(end, len(ops))] {
			out = append(out, string(l.op)+l.text)
		}
		k = end
	}
	if len(out) >= limit {
		out = append(out[:limit], "… (more differences)")
	}
	return strings.Join(out, "\n")
}

// The seed scenario ends as a real cluster would: Available and
// NewReplicaSetAvailable, 3/3 ready and available, every pod bound and
// Running, and the events of every layer.
func TestSeedEndState(t *testing.T) {
	e, _ := testkit.LoadFile(t, seed)
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	d := testkit.Deployment(t, e, "codartium-team", "codartium-api")
	st := d.Status
	if st.Replicas != 3 || st.ReadyReplicas != 3 || st.AvailableReplicas != 3 || st.UpdatedReplicas != 3 || st.UnavailableReplicas != 0 {
		t.Errorf("status = %+v, want 3 replicas, all ready, updated and available", st)
	}
	if st.ObservedGeneration != d.Generation {
		t.Errorf("observedGeneration %d, generation %d", st.ObservedGeneration, d.Generation)
	}
	wantConds := []struct{ typ, status, reason, msg string }{
		{"Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability."},
		{"Progressing", "True", "NewReplicaSetAvailable", ""},
	}
	if len(st.Conditions) != 2 {
		t.Fatalf("conditions = %+v", st.Conditions)
	}
	for i, w := range wantConds {
		c := st.Conditions[i]
		if c.Type != w.typ || c.Status != w.status || c.Reason != w.reason || (w.msg != "" && c.Message != w.msg) {
			t.Errorf("condition %d = %+v, want %+v", i, c, w)
		}
	}
	rss := testkit.ReplicaSets(e, "codartium-team")
	if len(rss) != 1 {
		t.Fatalf("%d ReplicaSets", len(rss))
	}
	rs := rss[0]
	if want := fmt.Sprintf("ReplicaSet %q has successfully progressed.", rs.Name); st.Conditions[1].Message != want {
		t.Errorf("Progressing message %q, want %q", st.Conditions[1].Message, want)
	}
	if !strings.HasPrefix(rs.Name, "codartium-api-") || rs.Labels["pod-template-hash"] == "" || rs.Annotations["deployment.kubernetes.io/revision"] != "1" {
		t.Errorf("rs = %s labels %v annotations %v", rs.Name, rs.Labels, rs.Annotations)
	}
	if rs.Status.Replicas != 3 || rs.Status.ReadyReplicas != 3 || rs.Status.AvailableReplicas != 3 || rs.Status.FullyLabeledReplicas != 3 {
		t.Errorf("rs status = %+v", rs.Status)
	}
	ps := testkit.Pods(e, "codartium-team")
	if len(ps) != 3 {
		t.Fatalf("%d pods", len(ps))
	}
	nodes := map[string]bool{}
	for _, p := range ps {
		if p.Spec.NodeName == "" || p.Status.Phase != api.PodRunning || !api.IsPodReady(p) || p.Status.PodIP == "" {
			t.Errorf("pod %s: node %q phase %s ready %v ip %q", p.Name, p.Spec.NodeName, p.Status.Phase, api.IsPodReady(p), p.Status.PodIP)
		}
		nodes[p.Spec.NodeName] = true
	}
	if len(nodes) != 3 {
		t.Errorf("pods spread over %d nodes, want 3 (LeastAllocated spreads them)", len(nodes))
	}
	reasons := map[string]int{}
	for _, ev := range testkit.Events(e, "codartium-team") {
		reasons[ev.Source.Component+"/"+ev.Reason]++
	}
	for want, n := range map[string]int{"deployment-controller/ScalingReplicaSet": 1, "replicaset-controller/SuccessfulCreate": 3,
		"default-scheduler/Scheduled": 3, "kubelet/Pulling": 3, "kubelet/Pulled": 3, "kubelet/Created": 3, "kubelet/Started": 3} {
		if reasons[want] != n {
			t.Errorf("%s events = %d, want %d (all: %v)", want, reasons[want], n, reasons)
		}
	}
}

// A status aggregation never runs ahead of the layer below: the
// Deployment's availableReplicas never exceeds the ReplicaSets', which
// never exceeds the ready pods at the same moment.
func TestAggregationLagsTheLayerBelow(t *testing.T) {
	e, _ := testkit.LoadFile(t, seed)
	for e.Step() != nil {
		readyPods := int32(0)
		for _, p := range testkit.Pods(e, "codartium-team") {
			if api.IsPodReady(p) && p.DeletionTimestamp == nil {
				readyPods++
			}
		}
		var rsAvail int32
		for _, rs := range testkit.ReplicaSets(e, "codartium-team") {
			rsAvail += rs.Status.AvailableReplicas
			if rs.Status.ReadyReplicas > readyPods {
				t.Fatalf("tick %d: rs %s says %d ready, only %d pods are", e.Tick(), rs.Name, rs.Status.ReadyReplicas, readyPods)
			}
		}
		if d := testkit.Deployment(t, e, "codartium-team", "codartium-api"); d.Status.AvailableReplicas > rsAvail {
			t.Fatalf("tick %d: deployment says %d available, its ReplicaSets %d", e.Tick(), d.Status.AvailableReplicas, rsAvail)
		}
	}
}

// A run stopped by its tick bound while a large cluster is busy names the
// three earliest items of work and counts the rest.
func TestNotSettledNamesTheEarliestWork(t *testing.T) {
	e, _ := testkit.Load(t, []byte(examples.Scale(300)))
	err := e.RunUntilSettled(engine.SettleLimits{MaxTicks: 40})
	var ns *engine.NotSettledError
	if !errors.As(err, &ns) {
		t.Fatalf("err = %v, want NotSettledError", err)
	}
	if len(ns.Pending) != 3 || ns.More < 10 || !strings.HasSuffix(err.Error(), fmt.Sprintf(", %s and %d more)", ns.Pending[2], ns.More)) {
		t.Errorf("message %q: %d named, %d more", err, len(ns.Pending), ns.More)
	}
	var last time.Duration
	for _, p := range ns.Pending {
		at, err := time.ParseDuration(p[strings.LastIndex(p, " at ")+4:])
		if err != nil || at < last {
			t.Errorf("pending %q: not earliest first (%v)", ns.Pending, err)
		}
		last = at
	}
}

// RunUntilSettled stops at its bound with a clear error when a scenario
// never settles (a container that crashes forever).
func TestRunUntilSettledBound(t *testing.T) {
	src := strings.Replace(mustRead(t, seed), `"codartium/api:1.4.2": {pull: 2s, start: 1s, ready: 3s}`,
		`"codartium/api:1.4.2": {pull: 2s, start: 1s, ready: 3s, exitAfter: 5s, exitCode: 1}`, 1)
	e, _ := testkit.Load(t, []byte(src))
	err := e.RunUntilSettled(engine.SettleLimits{MaxTime: 30 * 60 * 1000})
	var ns *engine.NotSettledError
	if !errors.As(err, &ns) {
		t.Fatalf("err = %v, want NotSettledError", err)
	}
	if !strings.HasPrefix(err.Error(), "Never settles: pod codartium-api-") || !strings.Contains(err.Error(), "crashes and restarts (") ||
		!strings.Contains(err.Error(), ", like 2 more pods") || !strings.Contains(err.Error(), ". Not settled after ") || !strings.Contains(err.Error(), "kubelet") {
		t.Errorf("message %q does not say what keeps the cluster busy", err)
	}
	if len(ns.Pending) != 3 || ns.More != 0 || !strings.Contains(err.Error(), "("+strings.Join(ns.Pending, ", ")+")") {
		t.Errorf("message %q names %d items and %d more; want the three crash-looping pods", err, len(ns.Pending), ns.More)
	}
	for _, p := range testkit.Pods(e, "codartium-team") {
		if p.Status.Phase != api.PodRunning || p.Status.ContainerStatuses[0].RestartCount < 5 {
			t.Errorf("pod %s phase %s restarts %d; a crash-looping pod stays Running and keeps restarting", p.Name, p.Status.Phase, p.Status.ContainerStatuses[0].RestartCount)
		}
	}
}

func mustRead(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// setImage changes the deployment's container image like kubectl set image.
func setImage(e *engine.Engine, ns, name, image string) *trace.Tick {
	key := api.Key{Kind: api.KindDeployment, Namespace: ns, Name: name}
	return e.Act("kubectl", key, func(tick reconcile.Tick) error {
		o, _ := tick.LiveGet(key)
		d := o.(*api.Deployment).DeepCopy()
		d.Spec.Template.Spec.Containers[0].Image = image
		_, err := tick.Update(trace.Translate, d, "kubectl set image: "+image)
		tick.Explain("kubectl set image deployment/%s %s", name, image)
		return err
	})
}

// A template change rolls out through a second ReplicaSet without ever
// exceeding maxSurge or dropping below minAvailable (25%/25% at 3 replicas:
// at most 4 pods, at least 3 available), and ends with the old one at 0.
func TestRollingUpdate(t *testing.T) {
	e, _ := testkit.LoadFile(t, seed)
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	if tk := setImage(e, "codartium-team", "codartium-api", "codartium/api:1.5.0"); tk.Err() != "" {
		t.Fatal(tk.Err())
	}
	for e.Step() != nil {
		if err := testkit.RolloutBounds(e, "codartium-team", 4, 3); err != nil {
			t.Fatal(err)
		}
	}
	d := testkit.Deployment(t, e, "codartium-team", "codartium-api")
	if d.Annotations["deployment.kubernetes.io/revision"] != "2" || d.Status.UpdatedReplicas != 3 || d.Status.AvailableReplicas != 3 {
		t.Errorf("after rollout: revision %s status %+v", d.Annotations["deployment.kubernetes.io/revision"], d.Status)
	}
	var scaling []string
	for _, ev := range testkit.Events(e, "codartium-team") {
		if ev.Reason == "ScalingReplicaSet" {
			scaling = append(scaling, ev.Message)
		}
	}
	if len(scaling) != 7 {
		t.Errorf("ScalingReplicaSet events = %d %q, want the initial one plus 6 (S3: up/down alternating)", len(scaling), scaling)
	}
	for _, rs := range testkit.ReplicaSets(e, "codartium-team") {
		if rs.Annotations["deployment.kubernetes.io/revision"] == "1" && (rs.Replicas() != 0 || rs.Status.Replicas != 0) {
			t.Errorf("old rs %s still has %d/%d", rs.Name, rs.Replicas(), rs.Status.Replicas)
		}
	}
	for _, p := range testkit.Pods(e, "codartium-team") {
		if p.Spec.Containers[0].Image != "codartium/api:1.5.0" {
			t.Errorf("pod %s still runs %s", p.Name, p.Spec.Containers[0].Image)
		}
	}
}

// Recreate scales the old ReplicaSet to 0, waits until every old pod
// object is gone, then creates the new one at full size.
func TestRecreate(t *testing.T) {
	src := strings.Replace(mustRead(t, seed), "  replicas: 3\n", "  replicas: 3\n  strategy:\n    type: Recreate\n", 1)
	e, _ := testkit.Load(t, []byte(src))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	setImage(e, "codartium-team", "codartium-api", "codartium/api:1.5.0")
	sawGap := false
	for e.Step() != nil {
		oldPods, newPods := 0, 0
		for _, p := range testkit.Pods(e, "codartium-team") {
			if p.Spec.Containers[0].Image == "codartium/api:1.5.0" {
				newPods++
			} else {
				oldPods++
			}
		}
		if oldPods > 0 && newPods > 0 {
			t.Fatalf("tick %d: %d old and %d new pods exist together under Recreate", e.Tick(), oldPods, newPods)
		}
		if oldPods == 0 && newPods == 0 {
			sawGap = true
		}
	}
	if !sawGap {
		t.Error("Recreate should leave a window with no pods")
	}
	d := testkit.Deployment(t, e, "codartium-team", "codartium-api")
	if d.Status.AvailableReplicas != 3 || d.Status.Conditions[len(d.Status.Conditions)-1].Reason != "NewReplicaSetAvailable" {
		t.Errorf("status %+v", d.Status)
	}
}

// Drain takes no tick and changes nothing Step then does: a run that
// drains before every step has the same trace as one that does not.
func TestDrainKeepsTheTrace(t *testing.T) {
	plain, _ := testkit.LoadFile(t, "../examples/rolling-update.yaml")
	drained, _ := testkit.LoadFile(t, "../examples/rolling-update.yaml")
	for i := 0; i < 400; i++ {
		before := drained.Tick()
		drained.Drain()
		if drained.Tick() != before {
			t.Fatalf("Drain took a tick at %d", before)
		}
		a, b := plain.Step(), drained.Step()
		if (a == nil) != (b == nil) {
			t.Fatalf("step %d: one run ended, the other did not", i)
		}
		if a == nil {
			break
		}
	}
	if got, want := string(traceJSON(t, drained.Trace())), string(traceJSON(t, plain.Trace())); got != want {
		t.Fatal("draining before each step changed the trace")
	}
}

// nearChange reports whether one of the first n items of s is a change.
func nearChange[T any](s []T, n int, changed func(T) bool) bool {
	for _, o := range s[:min(n, len(s))] {
		if changed(o) {
			return true
		}
	}
	return false
}

// A golden failure shows what changed, not only that something did.
func TestUnifiedDiff(t *testing.T) {
	a := "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	b := "one\ntwo\nthree\nFOUR\nfive\nsix\nseven\neight\n"
	got := unifiedDiff(a, b, 1, 80)
	want := "@@ -3 +3 @@\n three\n-four\n+FOUR\n five\n@@ -7 +7 @@\n seven\n+eight\n " // the last line is the empty one after "eight\n"
	if got != want {
		t.Fatalf("diff:\n%s\nwant:\n%s", got, want)
	}
}
