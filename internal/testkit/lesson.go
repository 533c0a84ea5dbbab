package testkit

import (
	"testing"

	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/lesson"
	"github.com/stateflow/stateflow/scenario"
)

// Lesson loads the shipped lesson name (examples.Lesson) and returns its
// scenario file's source and the lesson, ready to play; it fails the test
// if there is no such lesson or it does not load.
func Lesson(t testing.TB, name string) (string, *lesson.Lesson) {
	t.Helper()
	ex, ok := examples.Lesson(name)
	if !ok {
		t.Fatalf("no lesson %s", name)
	}
	sc, err := scenario.Parse([]byte(ex.Source))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lesson.New(sc)
	if err != nil {
		t.Fatal(err)
	}
	return ex.Source, l
}

// Steps resolves every step of l, in order, failing the test at the first
// that does not resolve.
func Steps(t testing.TB, l *lesson.Lesson) []lesson.Step {
	t.Helper()
	steps := make([]lesson.Step, 0, l.Len())
	for i := range l.Len() {
		st, err := l.Step(i)
		if err != nil {
			t.Fatalf("lesson step %d: %v", i, err)
		}
		steps = append(steps, st)
	}
	return steps
}
