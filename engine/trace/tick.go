package trace

import (
	"fmt"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
)

// Class says which way an effect moves state. It is a byte (an effect is
// kept for every write in the trace); its name is its String.
type Class uint8

// The effect classes.
const (
	Translate Class = iota + 1 // ↓ writes desired state one layer down
	Bind                       // ⇣ the scheduler sets spec.nodeName
	Realize                    // ● the kubelet turns spec into container state
	Aggregate                  // ↑ a status summarised from the layer below
	Event                      // ◇ an Event on the side channel
)

var classNames = [...]string{"", "translate", "bind", "realize", "aggregate", "event"}

// String is the class's name: "translate", "bind", "realize",
// "aggregate" or "event" ("" for none).
func (c Class) String() string { return nameOf(classNames[:], uint8(c), "class") }

// MarshalText writes the class's name (the JSON trace's "class").
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a class's name.
func (c *Class) UnmarshalText(b []byte) error {
	v, ok := ParseClass(string(b))
	if !ok {
		return fmt.Errorf("unknown effect class %q", b)
	}
	*c = v
	return nil
}

// ParseClass is the class named s, false if none is.
func ParseClass(s string) (Class, bool) {
	v, ok := valueOf(classNames[:], s)
	return Class(v), ok
}

// Classes lists every class in display order.
var Classes = []Class{Translate, Bind, Realize, Aggregate, Event}

// Symbol is the arrow the text trace and the diagram use for c.
func (c Class) Symbol() string {
	switch c {
	case Translate:
		return "↓"
	case Bind:
		return "⇣"
	case Realize:
		return "●"
	case Aggregate:
		return "↑"
	case Event:
		return "◇"
	}
	return "?"
}

// Op is the API operation an effect performed, a byte like Class.
type Op uint8

// The operations.
const (
	Create Op = iota + 1
	Update
	Delete
)

var opNames = [...]string{"", "create", "update", "delete"}

// String is the operation's name: "create", "update" or "delete".
func (o Op) String() string { return nameOf(opNames[:], uint8(o), "op") }

// MarshalText writes the operation's name (the JSON trace's "op").
func (o Op) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

// UnmarshalText reads an operation's name.
func (o *Op) UnmarshalText(b []byte) error {
	v, ok := valueOf(opNames[:], string(b))
	if !ok {
		return fmt.Errorf("unknown operation %q", b)
	}
	*o = Op(v)
	return nil
}

// nameOf is the name of byte value v in names (names[0] is no value's),
// or kind(v) for a value past them.
func nameOf(names []string, v uint8, kind string) string {
	if int(v) < len(names) {
		return names[v]
	}
	return kind + "(" + strconv.Itoa(int(v)) + ")"
}

// valueOf is the byte value names gives the name s, false for none.
func valueOf(names []string, s string) (uint8, bool) {
	for i, n := range names[1:] {
		if n == s {
			return uint8(i + 1), true
		}
	}
	return 0, false
}

// Effect is one write made during a tick.
type Effect struct {
	Class  Class
	Op     Op
	Object api.Key
	Before api.Object // nil for a create
	After  api.Object // nil for a delete
	// summary is what the writer said it did; empty when Text can say
	// it from the effect itself.
	summary Line
}

// NewEffect is the effect of a write: its class, operation, the object
// written, the object before and after it, and what the writer said it
// did (summary, about object).
func NewEffect(class Class, op Op, object api.Key, before, after api.Object, summary Line) Effect {
	return Effect{Class: class, Op: op, Object: object, Before: before, After: after, summary: summary}
}

// Summary is what the writer said the effect did, "" when it said
// nothing (Text then says it from the effect itself).
func (e *Effect) Summary() string { return e.summary.Render(e.Object) }

// Text is the effect in a sentence: its Summary, or, for an Event the
// recorder wrote, its type, reason, object and message, or else the
// operation and the object. What can be said from the objects is said
// when read, not when the tick runs.
func (e *Effect) Text() string {
	if e.summary != "" {
		return e.summary.Render(e.Object)
	}
	if e.Class == Event {
		switch ev := e.After.(type) {
		case *api.EventRecord:
			if ev.Full == nil {
				o := ev.Involved
				return ev.Type() + " " + ev.Origin.Reason + " on " + api.Key{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}.Short() + ": " + ev.Message
			}
			return eventText(ev.Full)
		case *api.Event:
			return eventText(ev)
		}
	}
	return e.Op.String() + "d " + e.Object.Short()
}

// readable is o, or the Event a record stands for.
func readable(o api.Object) api.Object {
	if r, ok := o.(*api.EventRecord); ok {
		return r.Event()
	}
	return o
}

func eventText(ev *api.Event) string {
	o := ev.InvolvedObject
	return ev.Type + " " + ev.Reason + " on " + api.Key{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name}.Short() + ": " + ev.Message
}

// Changes returns the fields the effect changed. It is computed on demand
// from the immutable before and after objects.
//
// An effect of a Pruned tick on a pod has no objects, and no changes.
func (e *Effect) Changes() []Change {
	if e.Op != Update || e.Before == nil || e.After == nil {
		return nil
	}
	return Diff(readable(e.Before), readable(e.After))
}

// Read is a cached object a component acted on, with the version its
// cache held and the version the API server held at that moment; they
// differ when the component acted on stale state; "<deleted>" stands
// for an object that is gone. Queued marks an object whose watch event
// queued the tick's key: what the component saw change (Cached is then
// the version its cache held when the tick began).
type Read struct {
	Object api.Key
	Cached string
	Live   string
	Queued bool
}

// Stale reports whether the cache lagged the API server.
func (r Read) Stale() bool { return r.Cached != r.Live }

// Tick is one step of the simulation: one component handling one key.
type Tick struct {
	Seq       int
	Time      int64 // virtual milliseconds
	Component string
	Host      string // the node, for kubelets
	Object    api.Key
	Reads     []Read
	Effects   []Effect
	// explanation is the tick's one-line explanation (Explanation).
	explanation Line
	// rare holds what few ticks have (Err, Rules, Traffic, Output), nil
	// when the tick has none of it: a tick is kept for every step of the
	// trace, and those four would make it a third larger.
	rare *rare
	// Pruned marks a tick whose effects on Pods dropped their Before and
	// After objects to bound the trace's memory (engine.Config's
	// KeepPodVersions); Engine.FullTick rebuilds the whole tick.
	Pruned bool `json:",omitempty"`
}

// rare is what few ticks have.
type rare struct {
	err     string
	rules   []RuleChange
	traffic *Traffic
	output  string
}

// more is the tick's rare part, to set.
func (t *Tick) more() *rare {
	if t.rare == nil {
		t.rare = &rare{}
	}
	return t.rare
}

// Err is the error the tick's work ended with, "" if none.
func (t *Tick) Err() string {
	if t.rare == nil {
		return ""
	}
	return t.rare.err
}

// SetErr records the error the tick's work ended with.
func (t *Tick) SetErr(err string) {
	if err != "" || t.rare != nil {
		t.more().err = err
	}
}

// Rules are the Service ports a kube-proxy reprogrammed on its node
// (Host) in this tick.
func (t *Tick) Rules() []RuleChange {
	if t.rare == nil {
		return nil
	}
	return t.rare.rules
}

// AddRule records a Service port the tick's kube-proxy reprogrammed.
func (t *Tick) AddRule(c RuleChange) { t.more().rules = append(t.more().rules, c) }

// Traffic is the interval of synthetic requests this tick reports (the
// "traffic" actor), nil for other ticks.
func (t *Tick) Traffic() *Traffic {
	if t.rare == nil {
		return nil
	}
	return t.rare.traffic
}

// SetTraffic records the interval of requests the tick reports.
func (t *Tick) SetTraffic(tr *Traffic) {
	if tr != nil || t.rare != nil {
		t.more().traffic = tr
	}
}

// Output is what a command that runs over several ticks (kubectl drain)
// printed at this one, stdout and stderr interleaved.
func (t *Tick) Output() string {
	if t.rare == nil {
		return ""
	}
	return t.rare.output
}

// SetOutput records what the tick's command printed.
func (t *Tick) SetOutput(out string) {
	if out != "" || t.rare != nil {
		t.more().output = out
	}
}

// Explanation is the tick's one-line explanation for learners.
func (t *Tick) Explanation() string { return t.explanation.Render(t.Object) }

// SetExplanation sets the tick's explanation, a Line about its object.
func (t *Tick) SetExplanation(l Line) { t.explanation = l }

// Classes returns the distinct classes of the tick's effects, in display
// order; a kube-proxy's reprogrammed rules count as realize (node-local
// state made from the layer above, like the kubelet's containers).
func (t *Tick) Classes() []Class {
	var out []Class
	for _, c := range Classes {
		if c == Realize && len(t.Rules()) > 0 {
			out = append(out, c)
			continue
		}
		for _, e := range t.Effects {
			if e.Class == c {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// Actor is the component with its host, such as "kubelet(node-2)".
func (t *Tick) Actor() string {
	if t.Host == "" {
		return t.Component
	}
	return t.Component + "(" + t.Host + ")"
}
