package model

import (
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
			m.Flow()
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
