package e2e

import (
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/app/model"
	"github.com/stateflow/stateflow/examples"
)

// The browser benchmarks (make bench) measure what a person waits for:
// opening the page, one step, and autoplay. Each runs a fixed number of
// samples inside one iteration and reports the median and the worst, so
// run them with -benchtime 1x.

// BenchmarkFirstInteraction measures navigation until the playground
// answers clicks: cold in a fresh browser context (empty cache, no
// service worker, no storage), warm by reopening in the same tab.
func BenchmarkFirstInteraction(b *testing.B) {
	const samples = 5
	b.Run("cold", func(b *testing.B) {
		var d []time.Duration
		for range samples {
			ctx, cancel := chromedp.NewContext(shared.browser, chromedp.WithNewBrowserContext())
			tb := &tab{t: b, ctx: ctx}
			d = append(d, tb.open(shared.url))
			cancel()
		}
		reportDurations(b, d)
	})
	b.Run("warm", func(b *testing.B) {
		tb := newTab(b)
		tb.open(shared.url)
		var d []time.Duration
		for range samples {
			d = append(d, tb.open(shared.url))
		}
		reportDurations(b, d)
	})
}

// BenchmarkStep measures one click on Step until the tick counter in the
// DOM shows the new tick, and until the next frame is painted, on a
// Deployment of 100 and 1,000 pods while its pods are being created.
func BenchmarkStep(b *testing.B) {
	for _, pods := range []int{100, 1000} {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			tb := newTab(b)
			tb.open(shared.url)
			tb.loadScenario(examples.Scale(pods))
			tb.everyTick()
			timeSteps(b, tb, 60)
		})
	}
	// The story view's Step (the page's default) goes to the next tick
	// that changes something, passing over retries and re-checks.
	b.Run("story/pods=100", func(b *testing.B) {
		tb := newTab(b)
		tb.open(shared.url)
		tb.loadScenario(examples.Scale(100))
		timeSteps(b, tb, 60)
	})
}

// everyTick turns the story view off, so Step takes exactly one tick.
func (tb *tab) everyTick() {
	tb.t.Helper()
	if eval[string](tb, sel("story")+".getAttribute('aria-pressed')") == "true" {
		tb.click("story")
	}
}

// BenchmarkStepRollout measures one step of a rolling update of a settled
// Deployment: the page holds every pod while the step changes a few. The
// page runs the cluster to settled, the console sets a new image, then
// 60 steps are timed. 10,000 pods run with STATEFLOW_BENCH_LARGE=1.
func BenchmarkStepRollout(b *testing.B) {
	sizes := []int{1000}
	if os.Getenv("STATEFLOW_BENCH_LARGE") != "" {
		sizes = append(sizes, 10000)
	}
	for _, pods := range sizes {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			tb := newTab(b)
			tb.open(shared.url)
			tb.loadScenario(examples.Scale(pods))
			eval[[]float64](tb, runTimingJS)
			tb.click("tab-console")
			tb.setValue("console-input", "kubectl set image deployment/web web=web:2")
			eval[bool](tb, `document.querySelector('.prompt-line').requestSubmit(), true`)
			tb.waitFor(sel("console-output")+".textContent.includes('deployment.apps/web image updated')", "the new image")
			tb.click("tab-log")
			tb.everyTick()
			timeSteps(b, tb, 60)
		})
	}
}

// BenchmarkAutoplay plays 100 pods at 60 ticks per second for three
// seconds and reports the frame intervals the page achieved.
func BenchmarkAutoplay(b *testing.B) {
	tb := newTab(b)
	tb.open(shared.url)
	tb.loadScenario(examples.Scale(100))
	tb.everyTick()
	tb.setValue("speed", "60")
	before := eval[int](tb, "+"+sel("tick")+".textContent")
	frames := eval[[]float64](tb, `new Promise(done => {
		const out = []; let last = performance.now(); const end = last + 3000;
		`+sel("play")+`.click();
		const f = now => { out.push(now - last); last = now; if (now < end) requestAnimationFrame(f); else done(out) };
		requestAnimationFrame(f);
	})`)
	tb.click("play")
	after := eval[int](tb, "+"+sel("tick")+".textContent")
	reportMillis(b, "frame", frames)
	b.ReportMetric(float64(after-before)/3, "ticks/s")
}

// BenchmarkRunInPage runs the scale scenario to settled inside the page
// ("Run until settled": the engine in WebAssembly, in slices, rendering
// its progress four times a second) and, in the same benchmark, the same
// view-model natively, and reports both and their ratio. 10,000 pods run
// with STATEFLOW_BENCH_LARGE=1 (make bench), not in make test's smoke run.
// It also reports the WebAssembly memory the tab holds after the run.
func BenchmarkRunInPage(b *testing.B) {
	sizes := []int{1000}
	if os.Getenv("STATEFLOW_BENCH_LARGE") != "" {
		sizes = append(sizes, 10000)
	}
	for _, pods := range sizes {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			src := examples.Scale(pods)
			native, nativeTicks := runNatively(b, src)
			tb := newTab(b)
			tb.open(shared.url)
			tb.loadScenario(src)
			r := eval[[]float64](tb, runTimingJS)
			if int(r[1]) != nativeTicks {
				b.Fatalf("the page settled at tick %d, natively at %d", int(r[1]), nativeTicks)
			}
			mem := eval[[]float64](tb, `stateflowMemory()`)
			b.ReportMetric(r[0], "page-ms")
			b.ReportMetric(native, "native-ms")
			b.ReportMetric(r[0]/native, "page/native")
			b.ReportMetric(r[1], "ticks")
			b.ReportMetric(mem[0]/(1<<20), "wasm-memory-MiB")
			b.ReportMetric(0, "ns/op")
		})
	}
}

// runNatively does natively what the page does: load, step once, run
// until settled. It returns the milliseconds of the run and the tick
// reached.
func runNatively(b *testing.B, src string) (float64, int) {
	m, err := model.New(src)
	if err != nil {
		b.Fatal(err)
	}
	m.Step()
	start := time.Now()
	m.RunUntilSettled()
	ms := float64(time.Since(start).Microseconds()) / 1000
	if st := m.Status(); !st.Settled {
		b.Fatalf("natively the run stopped at tick %d without settling: %s", st.Tick, m.Notice)
	}
	return ms, m.Status().Tick
}

// runTimingJS clicks "Run until settled" and returns the milliseconds
// until the page says it settled, and the tick it settled at.
const runTimingJS = `new Promise(done => {
	const run = document.querySelector('[data-testid=run]');
	const t0 = performance.now();
	run.click();
	const check = () => {
		const notice = document.querySelector('[data-testid=notice]');
		if (run.getAttribute('aria-pressed') === 'false' && notice && notice.textContent.startsWith('Settled at ')) {
			done([performance.now() - t0, +document.querySelector('[data-testid=tick]').textContent]);
			return;
		}
		setTimeout(check, 10);
	};
	setTimeout(check, 10);
})`

// timeSteps takes n steps and reports how long each took until the tick
// counter changed (dom) and until the next frame (frame).
func timeSteps(b *testing.B, tb *tab, n int) {
	var dom, frame []float64
	for range n {
		r := eval[[]float64](tb, clickTimingJS("step"))
		dom, frame = append(dom, r[0]), append(frame, r[1])
	}
	reportMillis(b, "dom", dom)
	reportMillis(b, "frame", frame)
}

// clickTimingJS clicks the button testid once and returns the
// milliseconds until the tick counter changed and until the following
// animation frame.
func clickTimingJS(testid string) string {
	return `new Promise(done => {
	const tick = document.querySelector('[data-testid=tick]');
	const before = tick.textContent;
	const t0 = performance.now();
	const o = new MutationObserver(() => {
		if (tick.textContent === before) return;
		o.disconnect();
		const dom = performance.now() - t0;
		requestAnimationFrame(() => done([dom, performance.now() - t0]));
	});
	o.observe(tick, {childList: true, subtree: true, characterData: true});
	document.querySelector('[data-testid=` + testid + `]').click();
})`
}

// loadScenario replaces the editor's text, applies it and waits for tick 0.
func (tb *tab) loadScenario(src string) {
	tb.t.Helper()
	tb.setValue("editor", src)
	tb.click("apply")
	tb.waitFor(sel("tick")+".textContent.trim() === '0'", "the scenario to load")
	tb.click("step") // tick 1 applies the manifest
}

func reportDurations(b *testing.B, d []time.Duration) {
	ms := make([]float64, len(d))
	for i, x := range d {
		ms[i] = float64(x.Microseconds()) / 1000
	}
	reportMillis(b, "load", ms)
}

// reportMillis reports the median, the 95th percentile and the worst of
// samples in milliseconds.
func reportMillis(b *testing.B, what string, ms []float64) {
	s := slices.Clone(ms)
	slices.Sort(s)
	b.ReportMetric(s[len(s)/2], what+"-median-ms")
	b.ReportMetric(s[len(s)*95/100], what+"-p95-ms")
	b.ReportMetric(s[len(s)-1], what+"-max-ms")
	b.ReportMetric(0, "ns/op")
}
