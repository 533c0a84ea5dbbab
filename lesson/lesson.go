package lesson

import (
	"errors"
	"fmt"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/provenance"
	"github.com/stateflow/stateflow/scenario"
)

// MaxTicks bounds how far a lesson runs its simulation to resolve a step
// (its trace is kept whole, for the world at any step's tick).
const MaxTicks = 20_000

// Lesson is a Lesson document being played.
type Lesson struct {
	spec  *scenario.Lesson
	e     *engine.Engine
	steps []Step
	// setup are the objects that exist before the first tick (nodes,
	// namespaces), which no tick writes.
	setup []api.Object
	// limited says StepWithin bounds the ticks it runs: budget more at
	// most; short says it ran out.
	limited bool
	budget  int
	short   bool
}

// ErrNotYet is StepWithin's answer when the step needs more of the
// simulation than its budget: call again, and it goes on from there.
var ErrNotYet = errors.New("the step needs more of the simulation; call again")

// StepWithin is Step, running the simulation at most ticks further, so
// a page can resolve a step in slices and stay responsive: ErrNotYet
// when that was not enough.
func (l *Lesson) StepWithin(i, ticks int) (Step, error) {
	l.limited, l.budget, l.short = true, max(ticks, 1), false
	defer func() { l.limited = false }()
	return l.Step(i)
}

// Step is a resolved step.
type Step struct {
	// Index counts from 0; Text is the step's words.
	Index int
	Text  string
	// Tick is the tick the step shows (the world just after it; 0 is
	// before the first).
	Tick int
	// Highlight is what the page points at: the objects that exist at
	// the tick, a field path and a component.
	Objects   []api.Key
	Field     string
	Component string
	// Question is nil when the step asks nothing.
	Question *Question
}

// Question is a multiple-choice question with exactly one right answer.
type Question struct {
	// Ask is the kind of question (scenario.AskNextComponent, …) and
	// Object what it asks about (none for next-component).
	Ask     string
	Object  api.Key
	Prompt  string
	Choices []string
	// Answer indexes Choices.
	Answer int
	// Proof is the tick that shows the answer, and Why what it did.
	Proof int
	Why   string
	// Chain is the field's provenance, for a why-writer question: the
	// feedback shows it.
	Chain *provenance.Chain
}

// New starts playing the lesson of a scenario on a fresh simulation of
// it.
func New(sc *scenario.Scenario) (*Lesson, error) {
	if sc.Lesson == nil {
		return nil, fmt.Errorf("the scenario has no Lesson document")
	}
	cfg := sc.Config
	cfg.MaxTraceTicks = -1 // the world at a step's tick is read back from the whole trace
	cfg.KeepPodVersions = true
	e, err := engine.New(cfg)
	if err != nil {
		return nil, err
	}
	l := &Lesson{spec: sc.Lesson, e: e}
	for _, kind := range []string{api.KindNode, api.KindNamespace} {
		l.setup = append(l.setup, e.Store().List(kind, "")...)
	}
	return l, nil
}

// Title is the lesson's title (its name when it has none).
func (l *Lesson) Title() string {
	if l.spec.Title != "" {
		return l.spec.Title
	}
	return l.spec.Name
}

// Name is the Lesson document's metadata.name.
func (l *Lesson) Name() string { return l.spec.Name }

// Len is the number of steps.
func (l *Lesson) Len() int { return len(l.spec.Steps) }

// Step resolves the steps up to i and returns step i.
func (l *Lesson) Step(i int) (Step, error) {
	if i < 0 || i >= len(l.spec.Steps) {
		return Step{}, fmt.Errorf("the lesson has steps 1 to %d, not %d", len(l.spec.Steps), i+1)
	}
	for len(l.steps) <= i {
		s, err := l.resolve(len(l.steps))
		if l.short {
			// StepWithin's budget ran out: whatever resolve made of the
			// trace so far is not the answer.
			return Step{}, ErrNotYet
		}
		if err != nil {
			return Step{}, fmt.Errorf("step %d (line %d): %w", len(l.steps)+1, l.spec.Steps[len(l.steps)].Line, err)
		}
		l.steps = append(l.steps, s)
	}
	return l.steps[i], nil
}

// resolve works out step i (the steps before it are resolved).
func (l *Lesson) resolve(i int) (Step, error) {
	sp := &l.spec.Steps[i]
	prev := 0
	if i > 0 {
		prev = l.steps[i-1].Tick
	}
	tick, err := l.gotoTick(&sp.Goto, prev)
	if err != nil {
		return Step{}, err
	}
	s := Step{Index: i, Text: sp.Text, Tick: tick}
	w := l.worldAt(tick)
	if h := sp.Highlight; h != nil {
		s.Field, s.Component = h.Field, h.Component
		for _, o := range h.Objects {
			r, _ := scenario.ParseRef(o) // checked when the scenario was read
			s.Objects = append(s.Objects, w.matching(r)...)
		}
	}
	if q := sp.Question; q != nil {
		if s.Question, err = l.ask(q, tick, w); err != nil {
			return Step{}, err
		}
	}
	return s, nil
}

// ensure runs the simulation until the trace holds tick n (or as many
// as it can): false when it ends first.
func (l *Lesson) ensure(n int) bool {
	for l.e.Tick() < n {
		if l.limited {
			if l.budget == 0 {
				l.short = true
				return false
			}
			l.budget--
		}
		if l.e.Tick() >= MaxTicks || l.e.Step() == nil {
			return false
		}
	}
	return true
}

// tick is trace tick n (1-based); it must have been reached.
func (l *Lesson) tick(n int) *trace.Tick { return l.e.Trace()[n-l.e.FirstTick()-1] }

// find returns the first tick after from that satisfies match, running
// the simulation forward as needed; 0 when there is none.
func (l *Lesson) find(from int, match func(*trace.Tick) bool) int {
	for n := from + 1; l.ensure(n); n++ {
		if match(l.tick(n)) {
			return n
		}
	}
	return 0
}

// gotoTick resolves a goto, from the previous step's tick for next.
func (l *Lesson) gotoTick(g *scenario.Goto, prev int) (int, error) {
	switch {
	case g.Tick != nil:
		if !l.ensure(*g.Tick) {
			return 0, fmt.Errorf("it goes to tick %d, but the simulation ends at tick %d", *g.Tick, l.e.Tick())
		}
		return *g.Tick, nil
	case g.Next != nil:
		n := l.find(prev, matcher(g.Next))
		if n == 0 {
			return 0, fmt.Errorf("no tick after tick %d matches %s", prev, describe(g.Next))
		}
		return n, nil
	}
	// The last tick at or before the time.
	n := 0
	for l.ensure(n+1) && l.tick(n+1).Time <= g.AtMS {
		n++
	}
	return n, nil
}

// matcher is a next's test: a tick of the component (a kubelet on any
// node for "kubelet") with an effect on a matching object, of the class.
func matcher(m *scenario.Match) func(*trace.Tick) bool {
	var ref *scenario.Ref
	if m.Object != "" {
		r, _ := scenario.ParseRef(m.Object)
		ref = &r
	}
	return func(t *trace.Tick) bool {
		if m.Component != "" && t.Component != m.Component {
			return false
		}
		for _, e := range t.Effects {
			if (ref == nil || ref.Matches(e.Object)) && (m.Class == "" || e.Class.String() == m.Class) {
				return true
			}
		}
		return false
	}
}

func describe(m *scenario.Match) string {
	s := "a tick"
	if m.Component != "" {
		s += " of " + m.Component
	}
	s += " that writes"
	if m.Class != "" {
		s += " (" + m.Class + ")"
	}
	if m.Object != "" {
		s += " " + m.Object
	} else {
		s += " something"
	}
	return s
}
