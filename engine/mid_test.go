package engine_test

import (
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples"
)

func BenchmarkMid(b *testing.B) {
	src := []byte(examples.Cluster(20, 1500))
	for b.Loop() {
		e, _ := loadBytes(b, src)
		if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(e.Tick()), "ticks")
	}
}
