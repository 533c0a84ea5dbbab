package claim

// This file checks a scenario file's claims against its simulation: it
// resolves the lesson steps that carry claims, runs the scenario once for
// its timeline, then steps a second run forward and reads each claim's
// facts at the ticks it names.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/kubectl"
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
	minTick, untilMS := 0, int64(MaxMS)
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
	tl, err := run(f.Scenario.Config, minTick, untilMS)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Name, err)
	}
	var vs []*verdict
	for _, w := range f.Claims {
		if w.Step >= 0 && w.Claim.When.Timing == AtStep {
			if _, ok := steps[w.Step]; !ok {
				continue // its step did not resolve: reported once, for the step
			}
		}
		v, msg := span(w, tl, steps)
		if msg != "" {
			failures = append(failures, Failure{w.Pos, w.Text, msg})
			continue
		}
		vs = append(vs, v)
	}
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
			return ticks, []Failure{{Pos{f.Name, f.Scenario.Lesson.Steps[i].Line, 0}, fmt.Sprintf("step %d", i+1), err.Error()}}
		}
		ticks[i] = s.Tick
	}
	return ticks, nil
}

// span works out the ticks a claim reads, or why it cannot be checked.
func span(w *Written, tl *timeline, steps map[int]int) (*verdict, string) {
	wh := w.Claim.When
	v := &verdict{w: w, fromMS: wh.From}
	end := tl.end()
	past := func(ms int64) string {
		if !tl.settled && ms > tl.timeOf(end) {
			return fmt.Sprintf("the check ends at %s, before %s: the scenario does not settle", tickName(tl, end), formatMS(ms))
		}
		return ""
	}
	switch wh.Timing {
	case AtStep:
		v.first = steps[w.Step]
		v.point = fmt.Sprintf("at step %d's %s", w.Step+1, tickName(tl, v.first))
	case AtTime:
		if msg := past(wh.MS); msg != "" {
			return nil, msg
		}
		v.first = tl.at(wh.MS)
		v.point = fmt.Sprintf("at %s, after %s", formatMS(wh.MS), tickName(tl, v.first))
	case AtTick:
		if wh.Tick > end {
			return nil, fmt.Sprintf("the run ends at %s, before tick %d", tickName(tl, end), wh.Tick)
		}
		v.first = wh.Tick
		v.point = "at " + tickName(tl, v.first)
	case AtEnd:
		v.first = end
		v.point = "at the end, " + tickName(tl, v.first)
	default:
		// The window is every tick from its start to its end, and the
		// world as it stands when it opens: after the last tick before
		// its start.
		if wh.HasFrom && wh.From > 0 {
			v.first = tl.at(wh.From - 1)
		}
		v.last = end
		if wh.HasTo {
			if msg := past(wh.To); msg != "" {
				return nil, msg
			}
			v.last = tl.at(wh.To)
		}
		v.candidate = v.first + 1
		return v, ""
	}
	v.last = v.first
	return v, ""
}

// read steps a second run of the scenario forward and gives each claim
// what its facts read at the ticks it reads.
func (f *File) read(vs []*verdict, tl *timeline) error {
	last := 0
	for _, v := range vs {
		last = max(last, v.last)
	}
	cfg := f.Scenario.Config
	cfg.MaxTraceTicks = -1
	e, err := engine.New(cfg)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Name, err)
	}
	r := &reader{k: &kubectl.Session{Cluster: e, Namespace: f.Scenario.Namespace}, seen: map[string]string{}}
	for t := 0; t <= last; t++ {
		if t > 0 && e.Step() == nil {
			return fmt.Errorf("%s: the second run ended at tick %d, the first at %d: the simulation is not deterministic", f.Name, t-1, tl.end())
		}
		if e.Tick() != t || t > 0 && e.Trace()[t-1].Time != tl.timeOf(t) {
			return fmt.Errorf("%s: the second run's tick %d differs from the first's: the simulation is not deterministic", f.Name, t)
		}
		r.forget()
		for _, v := range vs {
			if !v.reads(t, tl) {
				continue
			}
			rd, err := readFacts(v, t, tl, r)
			if err != nil {
				v.fail("at %s: %v", tickName(tl, t), err)
				continue
			}
			v.observe(rd, tl, func(t int) (int, string) { return writes(v, t, tl) })
		}
	}
	return nil
}

// readFacts reads every fact of a claim at tick t.
func readFacts(v *verdict, t int, tl *timeline, r *reader) (*reading, error) {
	facts := v.w.Claim.Facts
	rd := &reading{tick: t, truths: make([]bool, len(facts)), values: make([]string, len(facts))}
	for i := range facts {
		f := &facts[i]
		if f.traceFact() {
			rd.truths[i], rd.values[i] = traceFact(f, t, tl, v.fromMS)
			continue
		}
		got, err := r.read(f.Subject)
		if err != nil {
			return nil, err
		}
		ok, err := compare(got, f.Op, f.Value)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		rd.truths[i], rd.values[i] = ok, got
	}
	return rd, nil
}

// traceFact reads a fact about tick t of the trace: the component's tick
// writes the object, its command printed the text, or its error holds
// the text. A tick before the
// window's start (fromMS) or tick 0 makes it false.
func traceFact(f *Fact, t int, tl *timeline, fromMS int64) (bool, string) {
	if t == 0 || tl.timeOf(t) < fromMS {
		// Before the window, no tick wrote, printed or reported.
		if f.Requests != "" {
			return trafficFact(f, nil, tickName(tl, t))
		}
		return false, fmt.Sprintf("%s is before the window", tickName(tl, t))
	}
	tk := tl.tick(t)
	if f.Requests != "" {
		return trafficFact(f, tk, tickName(tl, t))
	}
	what := fmt.Sprintf("%s is %s's (%s)", tickName(tl, t), tk.Actor(), tk.Object.Short())
	if tk.Component != f.Component {
		return false, what
	}
	if f.Writes != "" {
		ref, _ := scenario.ParseRef(f.Writes) // checked when the claim was read
		for _, e := range tk.Effects {
			if e.Class != trace.Event && ref.Matches(e.Object) {
				return true, what
			}
		}
		return false, what + ", which does not write " + f.Writes
	}
	if f.Fails != "" {
		if strings.Contains(tk.Err(), f.Fails) {
			return true, what
		}
		return false, what + fmt.Sprintf(", which failed with %q", tk.Err())
	}
	if out := tk.Output(); strings.Contains(out, f.Prints) {
		return true, what
	} else if out == "" {
		return false, what + ", which printed nothing"
	}
	return false, what + fmt.Sprintf(", which printed %q", tk.Output())
}

// trafficFact compares the requests of one outcome that the tick's
// traffic report counts for the Service (0 when it reports none, or for
// no tick).
func trafficFact(f *Fact, tk *trace.Tick, name string) (bool, string) {
	n := 0
	ref, _ := scenario.ParseRef(f.To) // checked when the claim was read
	var tr *trace.Traffic
	if tk != nil {
		tr = tk.Traffic()
	}
	if tr != nil && ref.Matches(tr.Service) {
		switch f.Requests {
		case "sent":
			n = tr.Sent
		case "served":
			n = tr.Served
		default:
			n = tr.Failed
		}
	}
	ok, _ := compare(strconv.Itoa(n), f.Op, f.Value) // both numbers
	return ok, fmt.Sprintf("%s counts %d %s requests to %s", name, n, f.Requests, f.To)
}

// writes counts tick t's writes (not Events) of the object an in the
// same write claim reads, and names it.
func writes(v *verdict, t int, tl *timeline) (int, string) {
	s := v.w.Claim.Facts[0].Subject
	ref, err := scenario.ParseRef(s.Resource + "/" + s.Name)
	if err != nil {
		return 0, s.Resource + "/" + s.Name
	}
	n := 0
	for _, e := range tl.tick(t).Effects {
		if e.Class != trace.Event && ref.Matches(e.Object) {
			n++
		}
	}
	return n, s.Resource + "/" + s.Name
}
