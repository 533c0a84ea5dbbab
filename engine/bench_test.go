package engine_test

import (
	"fmt"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples"
)

// BenchmarkCreate runs a Deployment from nothing to settled.
func BenchmarkCreate(b *testing.B) {
	for _, pods := range []int{100, 1000, 10000} {
		b.Run(fmt.Sprintf("pods=%d", pods), func(b *testing.B) {
			src := []byte(examples.Scale(pods))
			ticks := 0
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				e, _ := loadBytes(b, src)
				if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
					b.Fatal(err)
				}
				ticks = e.Tick()
			}
			b.ReportMetric(float64(ticks), "ticks/op")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ticks), "ns/tick")
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
				e, _ := loadBytes(b, src)
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
	e, _ := loadBytes(b, []byte(examples.Scale(1000)))
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
