package model

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/kubectl"
	"github.com/stateflow/stateflow/scenario"
)

// Model is the playground's state.
type Model struct {
	// Source is the editor's text; Applied is the text of the running
	// scenario (they differ while the visitor edits, or after a refused
	// apply).
	Source, Applied string
	// Problems are the errors and warnings of the last apply; Refused says
	// the last apply had errors and the previous scenario kept running.
	Problems []scenario.Diagnostic
	Refused  bool
	// Crash is a report of a recovered internal error, if any.
	Crash string
	// Selected is the object shown in the inspector.
	Selected api.Key
	// Console is the kubectl console's transcript and history.
	Console Console
	// Horizon is the furthest tick reached, for the timeline.
	Horizon int
	// Notice is a one-line message for the visitor (settled, bounds…).
	Notice string

	// opts are how every scenario and kubectl manifest is parsed (the
	// time zones CronJobs name).
	opts    scenario.Options
	sc      *scenario.Scenario
	eng     *engine.Engine
	kubectl *kubectl.Session
	// runFrom and runUntil bound the run until settled in progress.
	runFrom  int
	runUntil int64
	// jumpFrom is where a jump to the next tick of a class began.
	jumpFrom int
	// inspected caches the inspector's YAML of one object version.
	inspected inspected
	// gen counts the scenarios applied, for Rev.
	gen int
	// lesson is the lesson player (nil when closed), lessonGen counts its
	// moves, and progress is the learner's in every lesson (lesson.go).
	lesson    *player
	lessonGen int
	progress  Progress
	// why is the inspector's open answer to "why?" (why.go).
	why *WhyAnswer
}

// Rev identifies what the page shows of the model: the scenario applied,
// the tick and the furthest tick reached. A component that takes it as
// an input re-renders only when it changes.
type Rev struct {
	Gen, Tick, Horizon, First int
}

// Rev is the model's current revision.
func (m *Model) Rev() Rev {
	if m.eng == nil {
		return Rev{Gen: m.gen}
	}
	return Rev{Gen: m.gen, Tick: m.eng.Tick(), Horizon: m.Horizon, First: m.eng.FirstTick()}
}

// ConsoleWatchTicks bounds how far one console command (get --watch,
// rollout status) advances the simulation, so that it answers in about a
// second on a large or never-settling cluster; run again, it continues.
const ConsoleWatchTicks = 2000

// New loads source, which must be a valid scenario.
func New(source string) (*Model, error) { return NewWith(source, scenario.Options{}) }

// NewWith is New with the options of every parse, this one's and later
// ones'.
func NewWith(source string, opts scenario.Options) (*Model, error) {
	m := Empty(opts)
	if !m.Apply(source) {
		return nil, errors.New(m.ProblemsText())
	}
	return m, nil
}

// Empty is a model that runs nothing until a scenario applies: the
// first that does is its first simulation. Until then it has nothing to
// show but the problems of what was refused.
func Empty(opts scenario.Options) *Model { return &Model{opts: opts} }

// Running reports whether a scenario has applied.
func (m *Model) Running() bool { return m.eng != nil }

// ProblemsText is the errors of the last apply, one per line.
func (m *Model) ProblemsText() string { return problemsText(m.Problems) }

// decode reads the manifests of kubectl apply -f - as the scenario was
// read.
func (m *Model) decode(src []byte) ([]api.Object, error) {
	return scenario.DecodeObjectsWith(src, m.opts)
}

func problemsText(ds []scenario.Diagnostic) string {
	var out []string
	for _, d := range ds {
		if d.Severity == scenario.Error {
			out = append(out, d.String())
		}
	}
	return strings.Join(out, "\n")
}

// Apply parses source and, if it has no errors, replaces the running
// simulation with it (at tick 0). With errors the previous simulation keeps
// running and Problems say why. It reports whether it applied.
func (m *Model) Apply(source string) (applied bool) {
	m.Source = source
	defer m.guard("applying the scenario")
	sc, err := scenario.ParseWith([]byte(source), m.opts)
	if err != nil {
		var errs scenario.Errors
		if !errors.As(err, &errs) {
			errs = scenario.Errors{{Severity: scenario.Error, Message: err.Error()}}
		}
		m.Problems, m.Refused = errs, m.eng != nil
		return false
	}
	e, err := engine.New(sc.Config)
	if err != nil {
		m.Problems, m.Refused = scenario.Errors{{Severity: scenario.Error, Message: err.Error()}}, m.eng != nil
		return false
	}
	m.sc, m.eng, m.Applied = sc, e, source
	m.kubectl = &kubectl.Session{Cluster: e, Namespace: sc.Namespace, Decode: m.decode, WatchTicks: ConsoleWatchTicks}
	m.Problems, m.Refused, m.Horizon, m.Notice, m.Crash = sc.Warnings, false, 0, "", ""
	m.gen++
	m.Selected, m.why = api.Key{}, nil
	for _, o := range sc.Objects {
		if o.GetKind() == api.KindDeployment {
			m.Selected = api.KeyOf(o)
			break
		}
	}
	if m.Selected.Kind == "" && len(sc.Objects) > 0 {
		m.Selected = api.KeyOf(sc.Objects[0])
	}
	if p := m.lesson; p != nil {
		// The player follows the scenario: its lesson again (at the same
		// step if it is the same lesson), or closed when it has none.
		step := -1
		if sc.Lesson != nil && sc.Lesson.Name == p.spec.Name {
			step = p.index
		}
		m.StartLesson(step)
	}
	return true
}

// DismissCrash clears a crash report and restarts the running scenario.
func (m *Model) DismissCrash() {
	m.Crash = ""
	m.Apply(m.Applied)
}

// Edit records the editor's text; Apply runs it.
func (m *Model) Edit(source string) { m.Source = source }

// guard turns a panic into a crash report; the model stays usable.
func (m *Model) guard(what string) {
	if r := recover(); r != nil {
		m.Crash = fmt.Sprintf("Stateflow hit an internal error while %s: %v\n\nPlease report it with the scenario and this text:\n%s", what, r, debug.Stack())
	}
}

// Scenario is the running scenario.
func (m *Model) Scenario() *scenario.Scenario { return m.sc }

// Engine is the running simulation.
func (m *Model) Engine() *engine.Engine { return m.eng }

// Namespace is the console's current namespace.
func (m *Model) Namespace() string {
	if m.kubectl == nil {
		return "default"
	}
	return m.kubectl.Namespace
}

// ProblemLines maps line numbers to their diagnostics, for the editor's gutter.
func (m *Model) ProblemLines() map[int][]scenario.Diagnostic {
	out := map[int][]scenario.Diagnostic{}
	for _, d := range m.Problems {
		if d.Line > 0 {
			out[d.Line] = append(out[d.Line], d)
		}
	}
	return out
}
