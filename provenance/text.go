package provenance

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// Text is the chain as the console and the command line print it: the
// field and its value, then one line per step, newest first, with the
// field's change, stale reads and the objects a folded step stands for
// indented below it.
func (c *Chain) Text() string {
	var b strings.Builder
	k, _ := api.ParseKey(c.Object)
	if c.Field == "" {
		fmt.Fprintf(&b, "%s: what tick %d wrote\n", k.Short(), c.At)
	} else {
		fmt.Fprintf(&b, "%s %s = %s at tick %d\n", k.Short(), c.Field, FormatValue(c.Value, c.Set), c.At)
	}
	var cols columns
	for _, s := range c.Steps {
		cols.fit(&s)
	}
	for _, s := range c.Steps {
		b.WriteString(cols.line(&s))
		b.WriteByte('\n')
		for _, note := range s.Notes() {
			b.WriteString("      ")
			b.WriteString(note)
			b.WriteByte('\n')
		}
	}
	if c.Folded > 0 {
		fmt.Fprintf(&b, "(%d more %s left out to keep the chain short)\n", c.Folded, plural(c.Folded, "cause", "causes"))
	}
	return b.String()
}

// columns are the widths a chain's lines are aligned to.
type columns struct{ label, time, actor int }

func (c *columns) fit(s *Step) {
	if s.Before {
		return
	}
	c.label = max(c.label, utf8.RuneCountInString(s.TickLabel()))
	c.time = max(c.time, len(trace.FormatTime(s.Time)))
	c.actor = max(c.actor, utf8.RuneCountInString(s.Actor()))
}

// line is the step in one line: its ticks, time, actor, the arrow of its
// class and what the newest tick said.
func (c *columns) line(s *Step) string {
	if s.Before {
		return "  " + pad("before", c.label+c.time+c.actor+4) + "   " + s.Text
	}
	return "  " + pad(s.TickLabel(), c.label) + "  " + padLeft(trace.FormatTime(s.Time), c.time) + "  " +
		pad(s.Actor(), c.actor) + "  " + s.Class.Symbol() + " " + s.Text
}

// padLeft is s with spaces before it to n bytes (a time is ASCII).
func padLeft(s string, n int) string {
	if len(s) < n {
		return strings.Repeat(" ", n-len(s)) + s
	}
	return s
}

// plural is one or many, by n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pad is s with spaces after it to n runes.
func pad(s string, n int) string {
	if k := utf8.RuneCountInString(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// Summary is the step in a sentence for a narrow column: its ticks, its
// actor with its class's arrow, and what the newest tick said.
func (s *Step) Summary() string {
	if s.Before {
		return s.Text
	}
	return s.TickLabel() + " " + s.Class.Symbol() + " " + s.Actor() + ": " + s.Text
}

// TickLabel names the step's ticks: "#35", or "#31–33 ×3" for a folded
// step.
func (s *Step) TickLabel() string {
	switch len(s.Ticks) {
	case 0:
		return ""
	case 1:
		return "#" + strconv.Itoa(s.Ticks[0])
	}
	lo, hi := s.Ticks[len(s.Ticks)-1], s.Ticks[0]
	return fmt.Sprintf("#%d–%d ×%d", lo, hi, len(s.Ticks))
}

// Actor is the step's component with its node, "kubelet(node-1)", or
// how many nodes, "kubelet(3 nodes)" (Notes names them).
func (s *Step) Actor() string {
	switch len(s.Hosts) {
	case 0:
		return s.Component
	case 1:
		return s.Component + "(" + s.Hosts[0] + ")"
	}
	return fmt.Sprintf("%s(%d nodes)", s.Component, len(s.Hosts))
}

// Notes are what the step's line leaves out: the field's change, the
// user's action, the objects a folded step stands for and stale reads.
func (s *Step) Notes() []string {
	var out []string
	if s.Change != nil {
		out = append(out, fmt.Sprintf("%s: %s → %s", s.Change.Path, FormatValue(s.Change.From, s.Change.From != nil), FormatValue(s.Change.To, s.Change.To != nil)))
	}
	if s.User {
		out = append(out, "the user's action: where this chain begins")
	}
	if len(s.Ticks) > 1 && len(s.Objects) > 1 {
		on := "on " + shortList(s.Objects)
		if len(s.Hosts) > 1 {
			on += ", on " + strings.Join(s.Hosts, ", ")
		}
		out = append(out, on)
	}
	for _, r := range s.Stale {
		k, _ := api.ParseKey(r.Object)
		out = append(out, fmt.Sprintf("at #%d its cache held %s at version %s while the API server had %s (a stale read)", r.Tick, k.Short(), r.Cached, r.Live))
	}
	if len(s.Also) > 0 {
		out = append(out, "also read, not followed: "+strings.Join(s.Also, "; "))
	}
	return out
}

// shortList names objects by their short names, at most four.
func shortList(objs []string) string {
	names := make([]string, 0, len(objs))
	for i, o := range objs {
		if i == 4 {
			names = append(names, fmt.Sprintf("and %d more", len(objs)-4))
			break
		}
		k, _ := api.ParseKey(o)
		names = append(names, k.Short())
	}
	return strings.Join(names, ", ")
}

// FormatValue prints a field's value as kubectl's custom columns do:
// strings bare, others as JSON, "<none>" when absent.
func FormatValue(v any, set bool) string {
	if !set || v == nil {
		return "<none>"
	}
	if s, ok := v.(string); ok {
		return s
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
