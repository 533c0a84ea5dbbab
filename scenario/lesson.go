package scenario

// This file reads the Lesson document: a guided walk through the
// scenario's simulation, step by step, each step going to a tick (by
// number, by time, or as the next tick where a component writes an
// object or a class of effect), highlighting objects, and optionally
// asking a question the simulation answers (package lesson resolves and
// asks them). Errors name the line, column and field.

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// MaxLessonSteps bounds a lesson.
const MaxLessonSteps = 100

// Question kinds a lesson may ask.
const (
	AskNextComponent = "next-component" // which component acts (writes) next?
	AskFieldAfter    = "field-after"    // what will a field read after the object's next aggregate write?
	AskMaxPods       = "max-pods"       // how many pods of a Deployment exist at most until its rollout completes?
	AskBindNode      = "bind-node"      // which node will the scheduler bind a pod to?
	AskWhyWriter     = "why-writer"     // which component's write gave a field its value? (its provenance)
)

// Asks lists the question kinds.
var Asks = []string{AskNextComponent, AskFieldAfter, AskMaxPods, AskBindNode, AskWhyWriter}

// Lesson is the scenario's Lesson document.
type Lesson struct {
	// Name is its metadata.name, Title its spec.title.
	Name, Title string
	Steps       []LessonStep
	// Claims are the lesson's own (spec.claims), beside its steps'.
	Claims []Claim
}

// LessonStep is one step of a lesson.
type LessonStep struct {
	// Text is what the step says: Markdown's emphasis (*, **), code (`)
	// and links ([text](https://…)).
	Text string `json:"text" yaml:"text"`
	// Goto is where the step takes the simulation.
	Goto Goto `json:"goto" yaml:"goto"`
	// Highlight is what the page points at.
	Highlight *Highlight `json:"highlight,omitempty" yaml:"highlight,omitempty"`
	// Question, if any, is asked at the step's tick.
	Question *QuestionSpec `json:"question,omitempty" yaml:"question,omitempty"`
	// Claims are what the step's text states, in words the simulation
	// checks (package claim): each holds at the step's tick unless it
	// says when.
	Claims []Claim `json:"claims,omitempty" yaml:"claims,omitempty"`
	// Line is where the step starts in the file.
	Line int `json:"-" yaml:"-"`
}

// Claim is a sentence a lesson states that the simulation must bear out,
// as written; package claim reads and checks it.
type Claim struct {
	// Text is the claim's words.
	Text string `json:"-" yaml:"-"`
	// Line and Column are where Text begins in the file. Column is 0 when
	// Text does not stand on its line as written (a block scalar, or a
	// quoted string with escapes), so columns inside it cannot be told.
	Line, Column int `json:"-" yaml:"-"`
}

// UnmarshalYAML reads a claim from a string, keeping its place.
func (c *Claim) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		hint := ""
		if n.Kind == yaml.MappingNode {
			hint = ` (this one reads as a mapping: YAML takes ": " or a leading { as its own, so quote a claim that holds them)`
		}
		return &yaml.TypeError{Errors: []string{fmt.Sprintf("line %d: a claim is a string, such as \"at 30s, deploy/web {.status.readyReplicas} = 3\"%s", n.Line, hint)}}
	}
	c.Text, c.Line = n.Value, n.Line
	switch {
	case strings.Contains(n.Value, "\n"):
	case n.Style == 0:
		c.Column = n.Column
	case n.Style == yaml.SingleQuotedStyle && !strings.Contains(n.Value, "'"),
		n.Style == yaml.DoubleQuotedStyle && !strings.ContainsAny(n.Value, "\"\\"):
		c.Column = n.Column + 1
	}
	return nil
}

// Goto is exactly one of Tick (a tick number, 0: before the first), At
// (a virtual time: the last tick at or before it) and Next (the first
// tick after the previous step's that matches).
type Goto struct {
	Tick *int   `json:"tick,omitempty" yaml:"tick,omitempty"`
	At   string `json:"at,omitempty" yaml:"at,omitempty"`
	Next *Match `json:"next,omitempty" yaml:"next,omitempty"`
	// AtMS is At in virtual milliseconds.
	AtMS int64 `json:"-" yaml:"-"`
}

// Match picks a tick: its component (the tick's actor, "kubelet" for any
// node's), an object it writes (a reference such as "rs/web-*") and the
// class of an effect; each given field must match.
type Match struct {
	Component string `json:"component,omitempty" yaml:"component,omitempty"`
	Object    string `json:"object,omitempty" yaml:"object,omitempty"`
	Class     string `json:"class,omitempty" yaml:"class,omitempty"`
}

// Highlight is what a step points at: objects (references), a field of
// theirs, a component.
type Highlight struct {
	Objects   []string `json:"objects,omitempty" yaml:"objects,omitempty"`
	Field     string   `json:"field,omitempty" yaml:"field,omitempty"`
	Component string   `json:"component,omitempty" yaml:"component,omitempty"`
}

// QuestionSpec is what a step asks; its answer comes from the trace.
type QuestionSpec struct {
	// Ask is one of Asks.
	Ask string `json:"ask" yaml:"ask"`
	// Object is the object asked about: field-after's and why-writer's
	// (an object the scenario writes), max-pods' Deployment, bind-node's
	// pod.
	Object string `json:"object,omitempty" yaml:"object,omitempty"`
	// Field is field-after's and why-writer's field path
	// ("status.readyReplicas").
	Field string `json:"field,omitempty" yaml:"field,omitempty"`
	// Prompt replaces the question's generated words.
	Prompt string `json:"prompt,omitempty" yaml:"prompt,omitempty"`
}

// Ref is a parsed object reference: a kind and a name pattern ("*"
// matches any run of characters, as path.Match).
type Ref struct {
	Kind, Pattern string
}

// refKinds are the resource names a reference may use.
var refKinds = map[string]string{
	"deploy": api.KindDeployment, "deployment": api.KindDeployment, "deployments": api.KindDeployment,
	"rs": api.KindReplicaSet, "replicaset": api.KindReplicaSet, "replicasets": api.KindReplicaSet,
	"pod": api.KindPod, "po": api.KindPod, "pods": api.KindPod,
	"node": api.KindNode, "no": api.KindNode, "nodes": api.KindNode,
	"svc": api.KindService, "service": api.KindService, "services": api.KindService,
	"ds": api.KindDaemonSet, "daemonset": api.KindDaemonSet, "sts": api.KindStatefulSet, "statefulset": api.KindStatefulSet,
	"job": api.KindJob, "jobs": api.KindJob, "cj": api.KindCronJob, "cronjob": api.KindCronJob,
	"hpa": api.KindHorizontalPodAutoscaler, "pdb": api.KindPodDisruptionBudget,
	"endpointslice": api.KindEndpointSlice, "ep": api.KindEndpoints, "endpoints": api.KindEndpoints,
}

// ParseRef reads "rs/web-*" or "deploy/web".
func ParseRef(s string) (Ref, error) {
	res, name, ok := strings.Cut(s, "/")
	kind, known := refKinds[strings.ToLower(res)]
	switch {
	case !ok || name == "":
		return Ref{}, fmt.Errorf("%q is not an object reference: write TYPE/NAME, such as deploy/web or rs/web-*", s)
	case !known:
		return Ref{}, fmt.Errorf("unknown resource type %q in %q (use deploy, rs, pod, node, svc, ds, sts, job, cj, hpa or pdb)", res, s)
	}
	if _, err := path.Match(name, ""); err != nil {
		return Ref{}, fmt.Errorf("bad name pattern %q: %v", name, err)
	}
	return Ref{Kind: kind, Pattern: name}, nil
}

// Matches reports whether the key is one the reference names.
func (r Ref) Matches(k api.Key) bool {
	ok, _ := path.Match(r.Pattern, k.Name)
	return k.Kind == r.Kind && ok
}

// String is the reference as written, with the short resource name.
func (r Ref) String() string { return api.ShortKind(r.Kind) + "/" + r.Pattern }

// LessonSpec is the Lesson document's spec.
type LessonSpec struct {
	Title string       `json:"title,omitempty" yaml:"title,omitempty"`
	Steps []LessonStep `json:"steps" yaml:"steps"`
	// Claims are what the lesson states as a whole; each says when it
	// holds (package claim).
	Claims []Claim `json:"claims,omitempty" yaml:"claims,omitempty"`
}

// lessonDoc is the Lesson document; the json names are the keys the
// unknown-field check knows.
type lessonDoc struct {
	APIVersion string     `json:"apiVersion" yaml:"apiVersion"`
	Kind       string     `json:"kind" yaml:"kind"`
	Metadata   metadata   `json:"metadata" yaml:"metadata"`
	Spec       LessonSpec `json:"spec" yaml:"spec"`
}

type metadata struct {
	Name string `json:"name" yaml:"name"`
}

// lessonDocument reads and checks the Lesson document.
func (p *parser) lessonDocument(n *yaml.Node, apiVersion string, doc int) {
	if p.sc.Lesson != nil {
		p.errorf(n.Line, n.Column, "", "document %d: a scenario may hold only one Lesson document", doc)
		return
	}
	var ld lessonDoc
	if !p.decodeOwn(n, "Lesson", apiVersion, &ld) {
		return
	}
	l := &Lesson{Name: ld.Metadata.Name, Title: ld.Spec.Title, Steps: ld.Spec.Steps, Claims: ld.Spec.Claims}
	switch {
	case len(l.Steps) == 0:
		at := nodeAt(n, "spec.steps")
		p.errorf(at.Line, at.Column, "spec.steps", "Required value: a lesson has at least one step")
		return
	case len(l.Steps) > MaxLessonSteps:
		at := nodeAt(n, "spec.steps")
		p.errorf(at.Line, at.Column, "spec.steps", "Too many: %d: a lesson has at most %d steps", len(l.Steps), MaxLessonSteps)
		return
	}
	for i := range l.Steps {
		p.lessonStep(n, fmt.Sprintf("spec.steps[%d]", i), &l.Steps[i])
	}
	p.sc.Lesson = l
}

func (p *parser) lessonStep(n *yaml.Node, at string, s *LessonStep) {
	s.Line = nodeAt(n, at).Line
	bad := func(field, format string, args ...any) {
		path := at + field
		pos := nodeAt(n, path)
		p.errorf(pos.Line, pos.Column, path, format, args...)
	}
	if strings.TrimSpace(s.Text) == "" {
		bad(".text", "Required value: a step says something")
	}
	g := &s.Goto
	set := 0
	for _, b := range []bool{g.Tick != nil, g.At != "", g.Next != nil} {
		if b {
			set++
		}
	}
	switch {
	case set != 1:
		bad(".goto", "a step goes to exactly one of tick, at (a time) or next (a matching tick)")
	case g.Tick != nil && *g.Tick < 0:
		bad(".goto.tick", "Invalid value: %d: must be 0 or more", *g.Tick)
	case g.At != "":
		if ms, ok := p.duration(n, at+".goto.at", g.At); ok {
			g.AtMS = ms
		}
	case g.Next != nil:
		lessonMatch(".goto.next", g.Next, bad)
	}
	if h := s.Highlight; h != nil {
		for i, o := range h.Objects {
			if _, err := ParseRef(o); err != nil {
				bad(fmt.Sprintf(".highlight.objects[%d]", i), "%v", err)
			}
		}
		if h.Component != "" && !slices.Contains(engine.ComponentNames(), h.Component) {
			bad(".highlight.component", "unknown component %q (known: %s)", h.Component, strings.Join(engine.ComponentNames(), ", "))
		}
	}
	if q := s.Question; q != nil {
		lessonQuestion(".question", q, bad)
	}
}

// lessonMatch checks a goto's next; field is its path in the step.
func lessonMatch(field string, m *Match, bad func(field, format string, args ...any)) {
	if m.Component == "" && m.Object == "" && m.Class == "" {
		bad(field, "Required value: next names a component, an object or a class (or more)")
	}
	if m.Component != "" && !slices.Contains(engine.ComponentNames(), m.Component) {
		bad(field+".component", "unknown component %q (known: %s)", m.Component, strings.Join(engine.ComponentNames(), ", "))
	}
	if m.Object != "" {
		if _, err := ParseRef(m.Object); err != nil {
			bad(field+".object", "%v", err)
		}
	}
	if m.Class != "" && !knownClass(m.Class) {
		bad(field+".class", "Unsupported value: %q: supported values: \"translate\", \"bind\", \"realize\", \"aggregate\", \"event\"", m.Class)
	}
}

// lessonQuestion checks a step's question; field is its path in the
// step.
func lessonQuestion(field string, q *QuestionSpec, bad func(field, format string, args ...any)) {
	need := func(name, value, what string) {
		if value == "" {
			bad(field+"."+name, "Required value: %s needs %s", q.Ask, what)
		}
	}
	switch q.Ask {
	case AskNextComponent:
	case AskFieldAfter, AskWhyWriter:
		need("object", q.Object, "the object whose field is asked about (such as rs/web-*)")
		need("field", q.Field, "a field path (such as status.readyReplicas)")
	case AskMaxPods:
		need("object", q.Object, "the Deployment (such as deploy/web)")
	case AskBindNode:
		need("object", q.Object, "the pod (such as pod/web-*)")
	case "":
		bad(field+".ask", "Required value: one of %s", strings.Join(Asks, ", "))
		return
	default:
		bad(field+".ask", "Unsupported value: %q: supported values: %s", q.Ask, strings.Join(Asks, ", "))
		return
	}
	if q.Object != "" {
		r, err := ParseRef(q.Object)
		switch {
		case err != nil:
			bad(field+".object", "%v", err)
		case q.Ask == AskMaxPods && r.Kind != api.KindDeployment:
			bad(field+".object", "max-pods asks about a Deployment, not %s", r)
		case q.Ask == AskBindNode && r.Kind != api.KindPod:
			bad(field+".object", "bind-node asks about a pod, not %s", r)
		}
	}
}

// knownClass reports whether name is an effect class's.
func knownClass(name string) bool {
	_, ok := trace.ParseClass(name)
	return ok
}
