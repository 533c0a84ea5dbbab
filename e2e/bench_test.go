package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

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
			var dom, frame []float64
			for range 60 {
				r := eval[[]float64](tb, stepTimingJS)
				dom, frame = append(dom, r[0]), append(frame, r[1])
			}
			reportMillis(b, "dom", dom)
			reportMillis(b, "frame", frame)
		})
	}
}

// BenchmarkAutoplay plays 100 pods at 60 ticks per second for three
// seconds and reports the frame intervals the page achieved.
func BenchmarkAutoplay(b *testing.B) {
	tb := newTab(b)
	tb.open(shared.url)
	tb.loadScenario(examples.Scale(100))
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

// stepTimingJS clicks Step once and returns the milliseconds until the
// tick counter changed and until the following animation frame.
const stepTimingJS = `new Promise(done => {
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
	document.querySelector('[data-testid=step]').click();
})`

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
