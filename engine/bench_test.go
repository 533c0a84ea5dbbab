package engine_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// BenchmarkCreate runs a Deployment from nothing to settled. Its peak heap
// is the heap the process obtained so far (sizes run smallest first).
func BenchmarkCreate(b *testing.B) {
	for _, pods := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			src := []byte(examples.Scale(pods))
			ticks := 0
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				e, _ := testkit.Load(b, src, testkit.PrunePodVersions)
				if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
					b.Fatal(err)
				}
				ticks = e.Tick()
			}
			b.ReportMetric(float64(ticks), "ticks/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ticks), "ns/tick")
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapSys)/(1<<20), "peak-heap-MiB")
		})
	}
}

// BenchmarkRollingUpdate measures a rolling update of a settled Deployment
// (the 1,000-pod figure in the engine issue).
func BenchmarkRollingUpdate(b *testing.B) {
	for _, pods := range []int{100, 1000} {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			src := []byte(examples.Scale(pods))
			ticks := 0
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				e, _ := testkit.Load(b, src, testkit.PrunePodVersions)
				if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
					b.Fatal(err)
				}
				start := e.Tick()
				b.StartTimer()
				setImage(e, "default", "web", "web:2")
				if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
					b.Fatal(err)
				}
				ticks = e.Tick() - start
			}
			b.ReportMetric(float64(ticks), "ticks/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ticks), "ns/tick")
		})
	}
}

// BenchmarkSeekBack measures stepping back to the middle of a settled
// 1,000-pod run: restore a checkpoint, replay.
func BenchmarkSeekBack(b *testing.B) {
	e, _ := testkit.Load(b, []byte(examples.Scale(1000)), testkit.PrunePodVersions)
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		b.Fatal(err)
	}
	end := e.Tick()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.Seek(end / 2)
		b.StopTimer()
		e.Seek(end)
		b.StartTimer()
	}
}

// BenchmarkSeekWorst measures, at the end of a settled run, a step back
// from its last tick, the slowest seek the run allows (to the kept tick
// farthest after a checkpoint, found by asking ReplayTicks of every kept
// tick, not chosen), two step backs from there (the first replays the
// distance to the checkpoint again and plans checkpoints on its way, the
// second uses them), and the seek forward again to the end.
// 1,000 and 10,000 pods, created then rolled out.
func BenchmarkSeekWorst(b *testing.B) {
	for _, pods := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			var step, back, second, third, forward time.Duration
			var stepBack, replayed, kept int
			for b.Loop() {
				// Each round starts from a fresh run: a seek leaves
				// checkpoints that make the next round's seeks cheaper.
				e, _ := testkit.Load(b, []byte(examples.Scale(pods)), testkit.PrunePodVersions)
				settleRollout(b, e)
				end := e.Tick()
				worst := worstSeek(e)
				stepBack, replayed, kept = e.ReplayTicks(end-1), e.ReplayTicks(worst), end-e.FirstTick()
				timed := func(d *time.Duration, f func()) {
					start := time.Now()
					f()
					*d += time.Since(start)
				}
				timed(&step, e.StepBack)
				timed(&back, func() { e.Seek(worst) })
				timed(&second, e.StepBack)
				timed(&third, e.StepBack)
				timed(&forward, func() { e.Seek(end) })
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
			b.ReportMetric(ms(step), "step-back-ms")
			b.ReportMetric(float64(stepBack), "step-back-replayed")
			b.ReportMetric(ms(back), "worst-seek-ms")
			b.ReportMetric(float64(replayed), "worst-replayed")
			b.ReportMetric(ms(second), "then-step-back-ms")
			b.ReportMetric(ms(third), "and-again-ms")
			b.ReportMetric(ms(forward), "seek-forward-ms")
			b.ReportMetric(float64(kept), "kept-ticks")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// worstSeek is the kept tick whose seek from the end replays the most
// ticks.
func worstSeek(e *engine.Engine) int {
	worst := e.FirstTick()
	for n := e.FirstTick(); n < e.Tick(); n++ {
		if e.ReplayTicks(n) > e.ReplayTicks(worst) {
			worst = n
		}
	}
	return worst
}

// BenchmarkCluster creates many Deployments from nothing to settled, then
// seeks back to the middle of the run, forward to its end, and back to
// the kept tick whose seek replays the most. It reports the peak heap (the
// heap the runtime obtained from the system) and the seek. make test runs
// the 1,500-pod cluster once; the 150,000-pod cluster on 5,000 nodes (the
// performance issue's target) runs with STATEFLOW_BENCH_LARGE=1, as make
// bench does.
func BenchmarkCluster(b *testing.B) {
	sizes := []struct{ deployments, replicas int }{{10, 150}}
	if os.Getenv("STATEFLOW_BENCH_LARGE") != "" {
		sizes = append(sizes, struct{ deployments, replicas int }{100, 1500})
	}
	for _, size := range sizes {
		b.Run(fmt.Sprintf("pods=%d", size.deployments*size.replicas), func(b *testing.B) {
			src := []byte(examples.Cluster(size.deployments, size.replicas))
			for b.Loop() {
				runtime.GC()
				e, _ := testkit.Load(b, src, testkit.PrunePodVersions)
				start := time.Now()
				if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
					b.Fatal(err)
				}
				settle := time.Since(start)
				end := e.Tick()
				reportRun(b, settle, end)
				b.StopTimer()
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-heap-MiB")
				b.StartTimer()
				start = time.Now()
				e.Seek(e.FirstTick() + (end-e.FirstTick())/2)
				b.ReportMetric(float64(time.Since(start).Milliseconds()), "seek-ms")
				e.Seek(end)
				worst := worstSeek(e)
				b.ReportMetric(float64(e.ReplayTicks(worst)), "worst-replayed-ticks")
				start = time.Now()
				e.Seek(worst)
				b.ReportMetric(float64(time.Since(start).Milliseconds()), "worst-seek-ms")
			}
		})
	}
}

// BenchmarkCreateThenRollout creates a 10,000-pod Deployment, runs it to
// settled, sets a new image and runs the rolling update to settled: the
// state-model issue's headline figure. It reports the whole run's time,
// its ticks, the peak heap (the heap the runtime obtained from the
// system, which never shrinks, so run it alone, with -benchtime 1x), the
// allocations and the live heap the settled engine keeps.
func BenchmarkCreateThenRollout(b *testing.B) {
	src := []byte(examples.Scale(10000))
	b.Run("pods=10000", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			runtime.GC()
			e, _ := testkit.Load(b, src, testkit.PrunePodVersions)
			start := time.Now()
			settleRollout(b, e)
			reportRun(b, time.Since(start), e.Tick())
			// What the settled engine keeps (its trace, checkpoints and
			// world), measured outside the timing.
			b.StopTimer()
			runtime.GC()
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "live-heap-MiB")
			runtime.KeepAlive(e)
			b.StartTimer()
		}
	})
}

// BenchmarkLivePeak runs BenchmarkCreateThenRollout's scenario (10,000
// pods created, then rolled out), collecting garbage every 1,000 ticks,
// and reports the largest live heap it saw and at which tick, with the
// checkpoints kept then: the peak heap the headline reports is about
// twice that at the collector's default. make test runs 1,000 pods;
// 10,000 run with STATEFLOW_BENCH_LARGE=1. Run it with -benchtime 1x.
func BenchmarkLivePeak(b *testing.B) {
	pods := largeOr(1000, 10000)
	b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
		for b.Loop() {
			e, _ := testkit.Load(b, []byte(examples.Scale(pods)), testkit.PrunePodVersions)
			var peak uint64
			var at, checkpoints int
			sample := func() {
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				if ms.HeapAlloc > peak {
					peak, at, checkpoints = ms.HeapAlloc, e.Tick(), len(e.CheckpointTicks())
				}
			}
			run := func() {
				for {
					if e.Tick()%1000 == 0 {
						sample()
					}
					if e.Step() == nil {
						return
					}
				}
			}
			run()
			setImage(e, "default", "web", "web:2")
			run()
			sample()
			b.ReportMetric(float64(peak)/(1<<20), "live-peak-MiB")
			b.ReportMetric(float64(at), "at-tick")
			b.ReportMetric(float64(checkpoints), "checkpoints")
			runtime.KeepAlive(e)
		}
	})
}

// BenchmarkRetained creates a Deployment, rolls it out to settled and
// reports what the settled engine keeps, by holder (a reflective walk
// that counts each object once, for the first holder that reaches it, in
// this order): the store, the Event recorder, every component's own
// state, the trace the engine keeps, then the checkpoints. make test runs
// 1,000 pods; 10,000 run with STATEFLOW_BENCH_LARGE=1. Run it with
// -benchtime 1x. -v lists the biggest types of each holder.
func BenchmarkRetained(b *testing.B) {
	pods := largeOr(1000, 10000)
	b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
		for b.Loop() {
			e, _ := testkit.Load(b, []byte(examples.Scale(pods)), testkit.PrunePodVersions)
			settleRollout(b, e)
			b.StopTimer()
			for _, h := range testkit.Retained(e) {
				b.ReportMetric(float64(h.Bytes)/1e6, h.Name+"-MB")
				if testing.Verbose() {
					b.Logf("%-12s %7.1f MB  %s", h.Name, float64(h.Bytes)/1e6, h.Top)
				}
			}
			b.StartTimer()
		}
	})
}

// settleRollout runs e's Deployment web to settled, sets a new image and
// runs the rolling update to settled.
func settleRollout(b *testing.B, e *engine.Engine) {
	b.Helper()
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		b.Fatal(err)
	}
	setImage(e, "default", "web", "web:2")
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkWorkloads creates each workload to settled, then rolls out a
// new image to settled: a DaemonSet on 5,000 nodes, a 1,000-replica
// StatefulSet (one pod at a time, each with its claim) and a 1,000-pod
// Deployment behind a Service on 100 nodes with traffic, whose every
// slice write reaches 100 kube-proxies. Run it with -benchtime 1x. make
// test runs a tenth of each (a DaemonSet on 500 nodes, 100 replicas, 100
// pods on 10 nodes); the full sizes run with STATEFLOW_BENCH_LARGE=1, as
// make bench does.
func BenchmarkWorkloads(b *testing.B) {
	scale := largeOr(10, 1)
	nodes, replicas, svcNodes := 5000/scale, 1000/scale, 100/scale
	for _, w := range []struct {
		name, src, kind, obj string
	}{
		{fmt.Sprintf("daemonset/nodes=%d", nodes), examples.DaemonSetScale(nodes), "daemonset", "agent"},
		{fmt.Sprintf("statefulset/replicas=%d", replicas), examples.StatefulSetScale(replicas), "statefulset", "db"},
		{fmt.Sprintf("service/pods=%d,nodes=%d", replicas, svcNodes), examples.ServiceScale(replicas, svcNodes), "deployment", "web"},
	} {
		b.Run(w.name, func(b *testing.B) {
			for b.Loop() {
				runtime.GC()
				e, sc := testkit.Load(b, []byte(w.src), testkit.PrunePodVersions)
				start := time.Now()
				if err := e.RunUntilSettled(engine.SettleLimits{MaxTime: 24 * 3_600_000}); err != nil {
					b.Fatal(err)
				}
				created := time.Since(start)
				kubectlAct(b, e, sc, "set image "+w.kind+"/"+w.obj+" web=web:2")
				if err := e.RunUntilSettled(engine.SettleLimits{MaxTime: e.Now() + 24*3_600_000}); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(created.Seconds(), "create-s")
				b.ReportMetric(float64(e.Now())/1000, "virtual-s")
				reportRun(b, time.Since(start), e.Tick())
			}
		})
	}
}

// BenchmarkCronJobDay runs examples.CronJobDay for 24 virtual hours (2.4
// at the default size, the whole day with STATEFLOW_BENCH_LARGE): a Job a
// minute, and an Indexed Job of 1,000 completions (100 by default).
func BenchmarkCronJobDay(b *testing.B) {
	hours, completions := int64(24), 1000
	if os.Getenv("STATEFLOW_BENCH_LARGE") == "" {
		hours, completions = 2, 100
	}
	for b.Loop() {
		runtime.GC()
		e, _ := testkit.Load(b, []byte(examples.CronJobDay(completions)), testkit.PrunePodVersions)
		start := time.Now()
		e.RunUntil(hours * 3_600_000)
		b.ReportMetric(float64(e.Now())/3_600_000, "virtual-h")
		b.ReportMetric(float64(len(e.Store().List(api.KindJob, ""))), "jobs-kept")
		reportRun(b, time.Since(start), e.Tick())
	}
}

// BenchmarkHPAScale runs examples.HPAScale: an HPA following a load jump
// from 10 to 1,000 replicas (100 at the default size), for 10 virtual
// minutes; it reports the virtual time the Deployment reached the
// maximum with every pod Ready.
func BenchmarkHPAScale(b *testing.B) {
	maxR := 1000
	if os.Getenv("STATEFLOW_BENCH_LARGE") == "" {
		maxR = 100
	}
	for b.Loop() {
		runtime.GC()
		e, _ := testkit.Load(b, []byte(examples.HPAScale(maxR)), testkit.PrunePodVersions)
		start := time.Now()
		reached := int64(-1)
		for e.Now() < 10*60_000 {
			e.RunUntil(e.Now() + 5_000)
			if reached < 0 {
				if o, ok := e.Store().Get(api.Key{Kind: api.KindDeployment, Namespace: "default", Name: "web"}); ok {
					if d := o.(*api.Deployment); d.Status.ReadyReplicas == int32(maxR) {
						reached = e.Now()
					}
				}
			}
		}
		if reached < 0 {
			b.Fatalf("the Deployment never reached %d Ready replicas", maxR)
		}
		b.ReportMetric(float64(reached)/1000, "virtual-s-to-max")
		reportRun(b, time.Since(start), e.Tick())
	}
}

// reportRun reports a run that took settle to reach tick ticks, and the
// peak heap so far (the heap the runtime obtained from the system, which
// never shrinks).
func reportRun(b *testing.B, settle time.Duration, ticks int) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(settle.Seconds(), "settle-s")
	b.ReportMetric(float64(ticks), "ticks")
	b.ReportMetric(float64(settle.Nanoseconds())/float64(ticks), "ns/tick")
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "peak-heap-MiB")
}

// largeOr is small, or large with STATEFLOW_BENCH_LARGE set (make bench).
func largeOr[T any](small, large T) T {
	if os.Getenv("STATEFLOW_BENCH_LARGE") != "" {
		return large
	}
	return small
}

// kubectlAct runs a kubectl command against the simulated cluster.
func kubectlAct(b *testing.B, e *engine.Engine, sc *scenario.Scenario, line string) {
	ns := sc.Namespace
	if ns == "" {
		ns = "default"
	}
	if res := (&kubectl.Session{Cluster: e, Namespace: ns}).Run(line); res.Code != 0 {
		b.Fatalf("kubectl %s: %s", line, res.Stderr)
	}
}

// BenchmarkDrain drains one node of a Deployment under a
// PodDisruptionBudget (maxUnavailable 3 %): kubectl drain evicts the
// node's pods at once, the budget lets 3 % of the pods through, and the drain
// retries the rest every 5 s as replacements become Ready elsewhere. 300
// pods on 10 nodes (3,000 on 30 with STATEFLOW_BENCH_LARGE).
func BenchmarkDrain(b *testing.B) {
	pods, nodes := largeOr(300, 3000), largeOr(10, 30)
	src := fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: %d
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: web:1, resources: {requests: {cpu: 10m}}}]
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec:
  maxUnavailable: 3%%
  selector: {matchLabels: {app: web}}
---
apiVersion: stateflow/v1alpha1
kind: Scenario
spec:
  nodes: {count: %d, capacity: {cpu: "64", memory: 256Gi, pods: "500"}}
  images:
    "web:1": {pull: 1s, start: 1s, ready: 5s}
  actions:
    - {at: 60s, kubectl: drain node-1 --ignore-daemonsets}
`, pods, nodes)
	for b.Loop() {
		runtime.GC()
		e, _ := testkit.Load(b, []byte(src), testkit.PrunePodVersions)
		start := time.Now()
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			b.Fatal(err)
		}
		drained := int64(-1)
		for _, tk := range e.Trace() {
			if tk.Component == engine.KubectlActor && strings.HasSuffix(tk.Explanation(), "node/node-1 drained") {
				drained = tk.Time
			}
		}
		if drained < 0 {
			b.Fatal("node-1 was never drained")
		}
		b.ReportMetric(float64(drained-60_000)/1000, "virtual-s-to-drain")
		reportRun(b, time.Since(start), e.Tick())
	}
}
