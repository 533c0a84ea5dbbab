package lesson

import (
	"testing"

	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/scenario"
)

// BenchmarkLessons resolves every step of every shipped lesson (the
// simulation each needs and its questions): what the player spends in
// all, natively.
func BenchmarkLessons(b *testing.B) {
	var scs []*scenario.Scenario
	for _, ex := range examples.Lessons() {
		sc, err := scenario.Parse([]byte(ex.Source))
		if err != nil {
			b.Fatal(err)
		}
		scs = append(scs, sc)
	}
	for b.Loop() {
		steps := 0
		for _, sc := range scs {
			l, err := New(sc)
			if err != nil {
				b.Fatal(err)
			}
			for i := range l.Len() {
				if _, err := l.Step(i); err != nil {
					b.Fatal(err)
				}
				steps++
			}
		}
		b.ReportMetric(float64(steps), "steps")
	}
}
