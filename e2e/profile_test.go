package e2e

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"

	"github.com/stateflow/stateflow/examples"
)

// profiling reports whether the wasm is built with its symbols so that the
// browser's profiler can name Go functions (STATEFLOW_PROFILE=1).
func profiling() bool { return os.Getenv("STATEFLOW_PROFILE") != "" }

// TestProfileSteps samples the page's JavaScript and wasm with the
// DevTools profiler while it takes 40 steps of the 100-pod scale scenario,
// and prints where the time goes: inclusive and self time per function.
// It is a tool, not a check: it runs only with STATEFLOW_PROFILE=1
// (`make profile-page`).
func TestProfileSteps(t *testing.T) {
	profilePage(t, 100, func(tb *tab) {
		for range 20 {
			eval[[]float64](tb, clickTimingJS("step"))
		}
	}, func(tb *tab) {
		for range 40 {
			eval[[]float64](tb, clickTimingJS("step"))
		}
	})
}

// TestProfileRun profiles "Run until settled" of 1,000 pods in the page.
func TestProfileRun(t *testing.T) {
	profilePage(t, 1000, func(*tab) {}, func(tb *tab) { eval[[]float64](tb, runTimingJS) })
}

// TestProfileLoad profiles a cold navigation until the playground answers.
func TestProfileLoad(t *testing.T) {
	if !profiling() {
		t.Skip("set STATEFLOW_PROFILE=1 to profile the page")
	}
	ctx, cancel := chromedp.NewContext(shared.browser, chromedp.WithNewBrowserContext())
	defer cancel()
	tb := &tab{t: t, ctx: ctx}
	if err := chromedp.Do(ctx, chromedp.Navigate("about:blank")); err != nil {
		t.Fatal(err)
	}
	chromedp.Call(ctx, profiler.Enable, cdp.Empty{})
	chromedp.Call(ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
	if _, err := chromedp.Call(ctx, profiler.Start, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	d := tb.open(shared.url)
	res, err := chromedp.Call(ctx, profiler.Stop, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	self, incl, total := summarize(res.Profile)
	fmt.Printf("load %v, %d samples\n\ninclusive\n%s\nself\n%s", d, total, top(incl, total, 70), top(self, total, 30))
}

// profilePage loads the scale scenario, warms up, and profiles work.
func profilePage(t *testing.T, pods int, warm, work func(*tab)) {
	if !profiling() {
		t.Skip("set STATEFLOW_PROFILE=1 to profile the page")
	}
	tb := newTab(t)
	tb.open(shared.url)
	tb.loadScenario(examples.Scale(pods))
	warm(tb)
	chromedp.Call(tb.ctx, profiler.Enable, cdp.Empty{})
	chromedp.Call(tb.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200})
	if _, err := chromedp.Call(tb.ctx, profiler.Start, cdp.Empty{}); err != nil {
		t.Fatal(err)
	}
	work(tb)
	res, err := chromedp.Call(tb.ctx, profiler.Stop, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	self, incl, total := summarize(res.Profile)
	fmt.Printf("%d samples\n\ninclusive\n%s\nself\n%s", total, top(incl, total, 60), top(self, total, 30))
}

// summarize counts samples per function name, inclusive (once per sample
// for every function on the stack) and self (the leaf only).
func summarize(p *profiler.Profile) (self, incl map[string]int, total int) {
	byID := map[int64]*profiler.ProfileNode{}
	parent := map[int64]int64{}
	for _, n := range p.Nodes {
		byID[n.ID] = n
		for _, c := range n.Children {
			parent[c] = n.ID
		}
	}
	self, incl = map[string]int{}, map[string]int{}
	for _, leaf := range p.Samples {
		total++
		self[byID[leaf].CallFrame.FunctionName]++
		seen := map[string]bool{}
		for id, ok := leaf, true; ok; id, ok = parent[id] {
			if name := byID[id].CallFrame.FunctionName; !seen[name] {
				seen[name] = true
				incl[name]++
			}
		}
	}
	return self, incl, total
}

func top(counts map[string]int, total, n int) string {
	names := make([]string, 0, len(counts))
	for k := range counts {
		names = append(names, k)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Or(counts[b]-counts[a], strings.Compare(a, b)) })
	var b strings.Builder
	for _, name := range names[:min(n, len(names))] {
		fmt.Fprintf(&b, "%6.2f%%  %s\n", 100*float64(counts[name])/float64(total), name)
	}
	return b.String()
}
