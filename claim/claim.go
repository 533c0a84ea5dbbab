package claim

// This file holds what a claim says once read: when it must hold (When)
// and the facts it states (Fact), each of which reads the cluster through
// kubectl (a Subject compared with a value) or reads one tick of the trace
// (a component's write or output). String writes a claim back in the
// vocabulary, so a parsed claim prints as it reads.

import (
	"fmt"
	"strconv"
	"strings"
)

// Claim is one checkable sentence: when it holds, and the facts, all of
// which must be true together.
type Claim struct {
	When  When
	Facts []Fact
}

// Timing says when a claim's facts must hold.
type Timing int

// Timings.
const (
	// AtStep: at the lesson step's tick (a step's claim with no time).
	AtStep Timing = iota
	// AtTime: in the world as it is at a virtual time (after the last
	// tick at or before it).
	AtTime
	// AtTick: in the world just after a tick.
	AtTick
	// AtEnd: after the last tick the check runs.
	AtEnd
	// Always: at every tick of the window (and in the world at its start).
	Always
	// Never: at no tick of the window.
	Never
	// Sometime: at one tick of the window at least.
	Sometime
	// SameTick: some tick of the window turns every fact from false to
	// true.
	SameTick
	// SameWrite: as SameTick, and the facts read one object, which that
	// tick writes once.
	SameWrite
)

// When is a claim's timing and its time, tick or window.
type When struct {
	Timing Timing
	// MS is AtTime's virtual time; Tick AtTick's tick.
	MS   int64
	Tick int
	// From and To bound a window in virtual ms; HasFrom and HasTo say
	// whether they were given (the whole run otherwise).
	From, To       int64
	HasFrom, HasTo bool
}

// windowed reports whether the timing reads a window of ticks.
func (w When) windowed() bool { return w.Timing >= Always }

// Op compares what a subject reads with a value.
type Op string

// Operators.
const (
	Eq       Op = "="
	Ne       Op = "!="
	Lt       Op = "<"
	Le       Op = "<="
	Gt       Op = ">"
	Ge       Op = ">="
	Contains Op = "contains"
	Lacks    Op = "!contains"
)

// ops lists the operators; each is a word of its own.
var ops = []Op{Eq, Ne, Lt, Le, Gt, Ge, Contains, Lacks}

// Fact is one statement of a claim: a Subject compared with Value, a
// tick's Component writing an object (Writes), printing text (Prints) or
// failing with an error (Fails),
// or the requests a tick of the traffic actor reports to a Service,
// compared with Value.
type Fact struct {
	// Subject, Op and Value: what kubectl reads, compared.
	Subject *Subject
	Op      Op
	Value   string
	// Requests ("sent", "served" or "failed") and To (a Service, svc/NAME):
	// how many requests of that outcome a traffic report of the tick
	// counts for the Service (0 at a tick that reports none), compared
	// with Value by Op.
	Requests, To string
	// Component, with Writes (an object reference) or Prints (text the
	// tick's command printed): a statement about one tick of the trace.
	Component string
	Writes    string
	Prints    string
	// Fails is text the tick's error holds (a write refused with a
	// conflict, a cache that has not seen an object yet).
	Fails string
	// Col is where the fact starts in the claim (1-based).
	Col int
}

// traceFact reports whether the fact reads the trace rather than the
// cluster.
func (f *Fact) traceFact() bool { return f.Subject == nil }

// requestKinds are the counts a traffic report gives.
var requestKinds = []string{"sent", "served", "failed"}

// Subject is what a fact reads from the cluster through kubectl get: the
// objects (a reference TYPE/NAME, where * in NAME matches any run of
// characters, or a resource type with kubectl's selection flags), and
// one of: how many there are (Count), a JSONPath template over them, or
// a condition's status (one object's).
type Subject struct {
	// Resource is the resource type as written (pods, deploy, events…);
	// Name the name or name pattern of a reference ("" for a list).
	Resource, Name string
	// Flags are kubectl's selection flags with their values, as written
	// (-l app=web, --field-selector reason=BackOff, -n demo, -A).
	Flags []string
	// Count reads how many objects there are; NonTerminating leaves out
	// those with a deletionTimestamp.
	Count, NonTerminating bool
	// JSONPath is kubectl's -o jsonpath template ({.status.replicas}).
	JSONPath string
	// Condition reads status.conditions[type=Condition].status.
	Condition string
}

// Ref is the subject's objects as written: TYPE/NAME, or the resource
// type and its flags.
func (s *Subject) Ref() string {
	if s.Name != "" {
		return s.Resource + "/" + s.Name
	}
	return strings.Join(append([]string{s.Resource}, s.Flags...), " ")
}

// single reports whether the subject names one object (a reference).
func (s *Subject) single() bool { return s.Name != "" }

// String writes the subject as the vocabulary spells it.
func (s *Subject) String() string {
	var b strings.Builder
	if s.Count {
		b.WriteString("count ")
		if s.NonTerminating {
			b.WriteString("non-terminating ")
		}
	}
	b.WriteString(s.Resource)
	if s.Name != "" {
		b.WriteString("/" + s.Name)
	}
	for _, f := range s.Flags {
		if strings.HasPrefix(f, "-") {
			b.WriteString(" " + f)
		} else {
			b.WriteString(" " + quote(f))
		}
	}
	switch {
	case s.JSONPath != "":
		b.WriteString(" " + s.JSONPath)
	case s.Condition != "":
		b.WriteString(" condition " + s.Condition)
	}
	return b.String()
}

// String writes the fact as the vocabulary spells it.
func (f *Fact) String() string {
	switch {
	case f.Writes != "":
		return f.Component + " writes " + f.Writes
	case f.Requests != "":
		return f.Requests + " requests to " + f.To + " " + string(f.Op) + " " + quote(f.Value)
	case f.Fails != "":
		return f.Component + " fails " + quote(f.Fails)
	case f.Subject == nil:
		return f.Component + " prints " + quote(f.Prints)
	}
	return f.Subject.String() + " " + string(f.Op) + " " + quote(f.Value)
}

// quote writes a value as a word when it reads back as that word, else
// as a double-quoted string.
func quote(v string) string {
	if v == "" || strings.ContainsAny(v, " \t\"'{}\\") || strings.HasPrefix(v, ",") || strings.HasSuffix(v, ",") || isKeyword(v) || !strconv.CanBackquote(v) {
		return strconv.Quote(v)
	}
	return v
}

// isKeyword reports whether a word would read as part of the grammar
// where a value stands.
func isKeyword(w string) bool {
	if w == "and" {
		return true
	}
	for _, o := range ops {
		if w == string(o) {
			return true
		}
	}
	return false
}

// String writes the claim as the vocabulary spells it: the time, a
// comma, and the facts joined by "and".
func (c *Claim) String() string {
	facts := make([]string, len(c.Facts))
	for i := range c.Facts {
		facts[i] = c.Facts[i].String()
	}
	body := strings.Join(facts, " and ")
	if w := c.When.String(); w != "" {
		return w + ", " + body
	}
	return body
}

// String writes the time as the vocabulary spells it ("" at a step).
func (w When) String() string {
	var s string
	switch w.Timing {
	case AtStep:
		return ""
	case AtTime:
		return "at " + formatMS(w.MS)
	case AtTick:
		return fmt.Sprintf("at tick %d", w.Tick)
	case AtEnd:
		return "at the end"
	case Always:
		s = "always"
	case Never:
		s = "never"
	case Sometime:
		s = "at some tick"
	case SameTick:
		s = "in the same tick"
	case SameWrite:
		s = "in the same write"
	}
	if w.HasFrom {
		s += " from " + formatMS(w.From)
	}
	if w.HasTo {
		s += " to " + formatMS(w.To)
	}
	return s
}

// formatMS writes virtual milliseconds as a duration the parser reads
// back, as Go prints one (1h, 6m30s, 20.3s, 250ms).
func formatMS(ms int64) string {
	if ms < 1000 {
		return fmt.Sprintf("%dms", ms)
	}
	var b strings.Builder
	if h := ms / 3_600_000; h > 0 {
		fmt.Fprintf(&b, "%dh", h)
	}
	if m := ms / 60_000 % 60; m > 0 {
		fmt.Fprintf(&b, "%dm", m)
	}
	if s := ms % 60_000; s > 0 {
		b.WriteString(strconv.FormatFloat(float64(s)/1000, 'f', -1, 64) + "s")
	}
	return b.String()
}
