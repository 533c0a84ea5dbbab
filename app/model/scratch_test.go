package model

import (
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
)

func BenchmarkScratch10k(b *testing.B) {
	m, err := New(examples.Scale(10000))
	if err != nil {
		b.Fatal(err)
	}
	m.RunUntilSettled()
	m.Run("kubectl set image deployment/web web=web:2")
	for range 50 {
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
	b.Run("keys", func(b *testing.B) {
		for b.Loop() {
			var keys []api.Key
			for _, kind := range []string{api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindNode} {
				for _, o := range m.Engine().Store().List(kind, "") {
					keys = append(keys, api.KeyOf(o))
				}
			}
		}
	})
	b.Run("step", func(b *testing.B) {
		for b.Loop() {
			m.Step()
		}
	})
}
