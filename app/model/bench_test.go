package model

import (
	"os"
	"testing"

	"github.com/stateflow/stateflow/examples"
)

// BenchmarkViews measures what the playground computes for one render,
// 200 ticks into the creation of 100 pods. "inspect" is a step that did
// not write the selected object, "inspect-new-version" one that did.
func BenchmarkViews(b *testing.B) {
	m, err := New(examples.Scale(100))
	if err != nil {
		b.Fatal(err)
	}
	for range 200 {
		m.Step()
	}
	b.Run("flow", func(b *testing.B) {
		for b.Loop() {
			m.Flow(DefaultViewport)
		}
	})
	b.Run("inspect", func(b *testing.B) {
		for b.Loop() {
			m.Inspect()
		}
	})
	b.Run("inspect-new-version", func(b *testing.B) {
		for b.Loop() {
			m.inspected = inspected{} // as after a step that wrote the object
			m.Inspect()
		}
	})
	b.Run("log", func(b *testing.B) {
		for b.Loop() {
			m.Log(LogFilter{})
		}
	})
	b.Run("events", func(b *testing.B) {
		for b.Loop() {
			m.Events("")
		}
	})
}

// BenchmarkViewsLarge measures the views of the examples menu's largest
// cluster, 150,000 pods on 5,000 nodes in 100 Deployments, once it has
// settled: the diagram, which the page computes for every render of a run
// at that size, and the Events tab's table (its 300 most recent of
// 750,000 Events), computed for every render while the tab is open. It
// runs only with STATEFLOW_BENCH_LARGE=1 (settling the cluster takes
// about a minute).
func BenchmarkViewsLarge(b *testing.B) {
	if os.Getenv("STATEFLOW_BENCH_LARGE") == "" {
		b.Skip("the 150,000-pod cluster runs with STATEFLOW_BENCH_LARGE=1")
	}
	ex, ok := examples.Get("large-150k-pods")
	if !ok {
		b.Fatal("no example large-150k-pods")
	}
	m, err := New(ex.Source)
	if err != nil {
		b.Fatal(err)
	}
	m.RunUntilSettled()
	b.Run("flow", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Flow(DefaultViewport)
		}
	})
	b.Run("events", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.Events("")
		}
	})
}
