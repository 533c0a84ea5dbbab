package claim

// This file checks a scenario file's claims against its simulation: it
// resolves the lesson steps that carry claims, runs the scenario once for
// its timeline (timeline.go), works out the ticks each claim reads
// (span.go), then steps a second run forward and reads each claim's facts
// at those ticks (replay.go).

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/lesson"
	"github.com/stateflow/stateflow/scenario"
)

// File is a scenario file with its claims read.
type File struct {
	Name     string
	Scenario *scenario.Scenario
	// Claims are the header's, then the Lesson document's.
	Claims []*Written
}

// Failure is a claim the simulation does not bear out (or cannot check),
// at its place in the file.
type Failure struct {
	Pos   Pos
	Claim string
	Msg   string
}

func (f Failure) String() string { return fmt.Sprintf("%s: %s: %s", f.Pos, f.Claim, f.Msg) }

// Read reads a scenario file and its claims. Its errors (an Errors, or
// the scenario's own) name the file, line and column.
func Read(name string, src []byte) (*File, error) {
	sc, err := scenario.Parse(src)
	if err != nil {
		var se scenario.Errors
		if errors.As(err, &se) {
			var errs Errors
			for _, d := range se {
				errs = append(errs, &Error{Pos{name, d.Line, d.Column}, strings.TrimPrefix(d.String(), fmt.Sprintf("line %d:%d: ", d.Line, d.Column))})
			}
			return nil, errs
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	ws, errs := headerClaims(name, src)
	ws = append(ws, lessonClaims(name, src, sc.Lesson)...)
	errs = append(errs, parseAll(ws)...)
	if len(errs) > 0 {
		slices.SortStableFunc(errs, func(a, b *Error) int { return a.Pos.Line - b.Pos.Line })
		return nil, errs
	}
	return &File{Name: name, Scenario: sc, Claims: ws}, nil
}

// Check reads a scenario file and checks its claims (see File.Check).
func Check(name string, src []byte) ([]Failure, error) {
	f, err := Read(name, src)
	if err != nil {
		return nil, err
	}
	return f.Check()
}

// Check runs the scenario and checks every claim. It returns the claims
// the simulation contradicts, in file order; an error when the scenario
// cannot run at all.
func (f *File) Check() ([]Failure, error) {
	if len(f.Claims) == 0 {
		return nil, nil
	}
	steps, failures := f.stepTicks()
	minTick, untilMS := f.bounds(steps)
	tl, err := run(f.Scenario.Config, minTick, untilMS)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	vs, unchecked := f.verdicts(tl, steps)
	failures = append(failures, unchecked...)
	if err := f.read(vs, tl); err != nil {
		return nil, err
	}
	for _, v := range vs {
		v.finish(tl)
		if v.failure != "" {
			failures = append(failures, Failure{v.w.Pos, v.w.Text, v.failure})
		}
	}
	slices.SortStableFunc(failures, func(a, b Failure) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		return a.Pos.Col - b.Pos.Col
	})
	return failures, nil
}

// bounds is how far the check must run at least: the last tick a claim
// or a step names, and the latest time a claim names (an hour, MaxMS, at
// the least).
func (f *File) bounds(steps map[int]int) (minTick int, untilMS int64) {
	untilMS = MaxMS
	for _, w := range f.Claims {
		wh := w.Claim.When
		untilMS = max(untilMS, wh.MS, wh.From, wh.To)
		if wh.Timing == AtTick {
			minTick = max(minTick, wh.Tick)
		}
		if t, ok := steps[w.Step]; ok && wh.Timing == AtStep {
			minTick = max(minTick, t)
		}
	}
	return minTick, untilMS
}

// verdicts starts each claim's check on the run's timeline, or says why
// it cannot be checked. A step claim whose step did not resolve is left
// out: its step's failure says so once.
func (f *File) verdicts(tl *timeline, steps map[int]int) ([]*verdict, []Failure) {
	var vs []*verdict
	var failures []Failure
	for _, w := range f.Claims {
		if _, ok := steps[w.Step]; w.Step >= 0 && w.Claim.When.Timing == AtStep && !ok {
			continue
		}
		v, msg := span(w, tl, steps)
		if msg != "" {
			failures = append(failures, Failure{w.Pos, w.Text, msg})
			continue
		}
		vs = append(vs, v)
	}
	return vs, failures
}

// stepTicks resolves the lesson's steps up to the last that has claims:
// each step's tick, and a failure at the first step that does not
// resolve.
func (f *File) stepTicks() (map[int]int, []Failure) {
	last := -1
	for _, w := range f.Claims {
		last = max(last, w.Step)
	}
	ticks := map[int]int{}
	if last < 0 {
		return ticks, nil
	}
	l, err := lesson.New(f.Scenario)
	if err != nil {
		return ticks, []Failure{{Pos{f.Name, f.Scenario.Lesson.Steps[0].Line, 0}, "the lesson", err.Error()}}
	}
	for i := 0; i <= last; i++ {
		s, err := l.Step(i)
		if err != nil {
			if inner := errors.Unwrap(err); inner != nil {
				err = inner // the lesson's "step N (line L): " is the failure's place
			}
			return ticks, []Failure{{Pos{f.Name, f.Scenario.Lesson.Steps[i].Line, 0}, fmt.Sprintf("step %d", i+1), "does not resolve: " + err.Error()}}
		}
		ticks[i] = s.Tick
	}
	return ticks, nil
}
