package e2e

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/examples"
)

// BenchmarkLargeClusterInPage builds the examples menu's largest cluster,
// 150,000 pods on 5,000 nodes, inside the page: it picks the example,
// clicks Run until settled and reports how long the page took (and the
// same run natively, and the ratio), the longest the page went without
// painting a frame meanwhile (the run goes in slices, so the page stays
// responsive), the memory the WebAssembly heap obtained from the browser
// (which never shrinks: the peak) and, on the settled cluster, a step,
// step backs and seeks. It runs only with STATEFLOW_BENCH_LARGE=1, as
// make bench does: about ten minutes.
func BenchmarkLargeClusterInPage(b *testing.B) {
	if os.Getenv("STATEFLOW_BENCH_LARGE") == "" {
		b.Skip("the 150,000-pod cluster runs with STATEFLOW_BENCH_LARGE=1")
	}
	const name = "large-150k-pods"
	ex, ok := examples.Get(name)
	if !ok {
		b.Fatalf("no example %s", name)
	}
	native, nativeTicks := runNatively(b, ex.Source)
	tb := newTabFor(b, 40*time.Minute)
	var console consoleLog
	console.listen(tb)
	tb.open(shared.url)
	tb.chooseExample(name)
	tb.click("step") // tick 1 applies the manifest, as runNatively does
	eval[bool](tb, largeRunJS)
	var r []float64
	for r == nil {
		time.Sleep(10 * time.Second)
		if msgs := console.errors(); len(msgs) > 0 {
			b.Fatalf("the page failed at tick %s: %s", tb.tick(), strings.Join(msgs, "\n"))
		}
		r = eval[[]float64](tb, `window.largeRun || null`)
		if r == nil {
			mem := eval[[]float64](tb, `stateflowMemory()`)
			b.Logf("tick %s, memory %.0f MiB, heap %.0f MiB", tb.tick(), mem[0]/(1<<20), mem[1]/(1<<20))
		}
	}
	if int(r[1]) != nativeTicks {
		b.Fatalf("the page settled at tick %d, natively at %d", int(r[1]), nativeTicks)
	}
	mem := eval[[]float64](tb, `stateflowMemory()`)
	b.ReportMetric(r[0]/1000, "page-s")
	b.ReportMetric(native/1000, "native-s")
	b.ReportMetric(r[0]/native, "page/native")
	b.ReportMetric(r[1], "ticks")
	b.ReportMetric(r[2], "longest-frame-ms")
	b.ReportMetric(mem[0]/(1<<20), "wasm-memory-MiB")
	b.ReportMetric(mem[1]/(1<<20), "heap-MiB")

	tb.everyTick()
	settled := int(r[1])
	var back, fwd []float64
	for range 3 {
		back = append(back, eval[[]float64](tb, clickTimingJS("step-back"))[0])
	}
	for range 3 {
		fwd = append(fwd, eval[[]float64](tb, clickTimingJS("step"))[0])
	}
	reportMillis(b, "step-back", back)
	reportMillis(b, "step", fwd)
	first := atoi(b, eval[string](tb, sel("timeline")+".min"))
	for _, target := range []int{first + (settled-first)/2, first + 1} {
		b.ReportMetric(eval[float64](tb, seekTimingJS(target)), fmt.Sprintf("seek-%dk-back-ms", (settled-target)/1000))
	}
}

// largeRunJS clicks "Run until settled" and, when the page says it
// settled, sets window.largeRun to the milliseconds it took, the tick it
// settled at and the longest interval between two painted frames
// meanwhile.
const largeRunJS = `(() => { new Promise(done => {
	const run = document.querySelector('[data-testid=run]');
	let longest = 0, last = performance.now(), running = true;
	const frame = now => { longest = Math.max(longest, now - last); last = now; if (running) requestAnimationFrame(frame) };
	requestAnimationFrame(frame);
	const t0 = performance.now();
	run.click();
	const check = () => {
		const notice = document.querySelector('[data-testid=notice]');
		if (run.getAttribute('aria-pressed') === 'false' && notice && notice.textContent.startsWith('Settled at ')) {
			running = false;
			done([performance.now() - t0, +document.querySelector('[data-testid=tick]').textContent, longest]);
			return;
		}
		setTimeout(check, 50);
	};
	setTimeout(check, 50);
}).then(r => { window.largeRun = r }); return true })()`

// consoleLog keeps the errors a tab's console shows (the Go runtime
// prints its fatal errors there, and the page stops answering).
type consoleLog struct {
	mu   sync.Mutex
	msgs []string
}

func (c *consoleLog) listen(tb *tab) {
	err := chromedp.Listen(tb.ctx, func(ev any) {
		var msg string
		switch ev := ev.(type) {
		case *cdpruntime.EventConsoleAPICalled:
			for _, a := range ev.Args {
				msg += string(a.Value) + a.Description + " "
			}
			// Go's runtime writes its fatal errors with console.log.
			if ev.Type != cdpruntime.ConsoleAPICalledTypeError && !strings.Contains(msg, "fatal error") && !strings.Contains(msg, "panic") {
				return
			}
		case *cdpruntime.EventExceptionThrown:
			msg = ev.ExceptionDetails.Text
			if e := ev.ExceptionDetails.Exception; e != nil {
				msg += " " + e.Description
			}
		default:
			return
		}
		c.mu.Lock()
		c.msgs = append(c.msgs, msg)
		c.mu.Unlock()
	})
	if err != nil {
		tb.t.Fatal(err)
	}
}

func (c *consoleLog) errors() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.msgs)
}

// seekTimingJS moves the timeline to target and returns the milliseconds
// until the page shows that tick with no seek running.
func seekTimingJS(target int) string {
	return fmt.Sprintf(`new Promise(done => {
	const run = document.querySelector('[data-testid=run]');
	const tick = document.querySelector('[data-testid=tick]');
	const timeline = document.querySelector('[data-testid=timeline]');
	const t0 = performance.now();
	timeline.value = %d;
	timeline.dispatchEvent(new Event('change', {bubbles: true}));
	const check = () => {
		if (run.getAttribute('aria-pressed') === 'false' && tick.textContent.trim() === '%d') { done(performance.now() - t0); return }
		setTimeout(check, 5);
	};
	setTimeout(check, 5);
})`, target, target)
}
