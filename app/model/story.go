package model

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// Tone says how a log row looks. The story keeps red (ToneAlert) for what
// a user must act on; a retry or a tick that changed nothing is quiet.
type Tone string

// The tones.
const (
	ToneChange Tone = "change" // the tick changed the API server
	ToneAlert  Tone = "alert"  // a Warning Event or a rollout past its progress deadline
	ToneRetry  Tone = "retry"  // a write refused because a cache lagged; it will retry
	ToneQuiet  Tone = "quiet"  // the tick changed nothing
)

// ToneOf classifies one tick.
func ToneOf(t *trace.Tick) Tone {
	switch {
	case t.Traffic() != nil && t.Traffic().Failed > 0:
		return ToneAlert
	case len(t.Rules()) > 0:
		return ToneChange
	case t.Output() != "" && t.Err() != "":
		return ToneAlert // a command failed (kubectl drain gave up)
	case t.Output() != "" && strings.Contains(t.Output(), "(will retry after"):
		return ToneRetry // an eviction refused; kubectl retries it
	}
	if len(t.Effects) == 0 {
		if t.Err() != "" {
			return ToneRetry
		}
		return ToneQuiet
	}
	for i := range t.Effects {
		if alerts(&t.Effects[i]) {
			return ToneAlert
		}
	}
	return ToneChange
}

// Visible reports whether the story view shows t as its own row: it
// changed something in the API server (other than a metrics-server
// scrape, which comes every 15 s and folds), reprogrammed a node's
// rules, reports requests that failed, or is a step of a command that
// printed something (kubectl drain: an eviction refused, a pod evicted).
func Visible(t *trace.Tick) bool {
	return len(t.Effects) > 0 && t.Component != engine.MetricsServer || len(t.Rules()) > 0 || t.Traffic() != nil && t.Traffic().Failed > 0 || t.Output() != ""
}

// alerts reports whether an effect is something a user must act on: a
// Warning Event (FailedScheduling, BackOff, Failed, FailedCreate…) or a
// Deployment that has just exceeded its progress deadline.
func alerts(e *trace.Effect) bool {
	if e.After == nil {
		return false
	}
	alerts := viewOf(e.After.GetKind()).alerts
	return alerts != nil && alerts(e.Before, e.After)
}

func timedOut(o api.Object) bool {
	d, ok := o.(*api.Deployment)
	if !ok {
		return false
	}
	c := d.Status.Condition(api.DeploymentProgressing)
	return c != nil && c.Status == api.ConditionFalse && c.Reason == "ProgressDeadlineExceeded"
}

// Span is one row of the story: one tick, or a run of ticks that changed
// nothing folded into one row. From and To index the trace (inclusive);
// a folded span holds only the ticks that passed the filter in between.
type Span struct {
	From, To int
	Folded   bool
	Ticks    int // how many ticks the row stands for
}

// StoryEntry is a span made readable: a tick's row, or a fold.
type StoryEntry struct {
	Row  LogRow
	Fold *Fold // nil for a tick
}

// Seq is the tick the entry starts at.
func (e StoryEntry) Seq() int {
	if e.Fold != nil {
		return e.Fold.First
	}
	return e.Row.Seq
}

// Fold is a run of consecutive ticks that changed nothing (retries and
// re-checks), told in one sentence.
type Fold struct {
	First, Last int // tick numbers
	Ticks       int
	Retries     int
	Text        string
	Rows        []LogRow // the folded ticks, for expanding
	Current     bool     // the current tick is one of them
}

// Story returns the rows of the tick log, oldest first: every tick that
// passes the filter and changed something is a row; each run of such
// ticks that changed nothing is folded into one row. With every set, each
// tick is its own row. Spans are cheap; Entry makes one readable, so a
// page renders only the rows it shows.
func (m *Model) Story(f LogFilter, every bool) []Span {
	if m.eng == nil {
		return nil
	}
	var out []Span
	open := -1 // the index in out of the fold being extended
	for i, t := range m.eng.Trace() {
		if !f.Matches(t) {
			continue
		}
		if every || Visible(t) {
			out, open = append(out, Span{From: i, To: i, Ticks: 1}), -1
			continue
		}
		if open < 0 {
			out, open = append(out, Span{From: i, To: i, Folded: true}), len(out)
		}
		out[open].To = i
		out[open].Ticks++
	}
	return out
}

// SpanAt finds tick among the spans of Story: the index of the last span
// that starts at or before it, and the tick that span starts at (0, 0
// when there are no spans).
func (m *Model) SpanAt(spans []Span, tick int) (at, first int) {
	if m.eng == nil || len(spans) == 0 {
		return 0, 0
	}
	tr := m.eng.Trace()
	for i, s := range spans {
		if tr[s.From].Seq <= tick {
			at = i
		}
	}
	return at, tr[spans[at].From].Seq
}

// Entry makes a span of Story readable.
func (m *Model) Entry(s Span, f LogFilter) StoryEntry {
	tr := m.eng.Trace()
	last := len(tr) - 1
	if !s.Folded {
		return StoryEntry{Row: row(tr[s.From], s.From == last)}
	}
	var ts []*trace.Tick
	for i := s.From; i <= s.To && i <= last; i++ {
		if f.Matches(tr[i]) && !Visible(tr[i]) {
			ts = append(ts, tr[i])
		}
	}
	return StoryEntry{Fold: m.fold(ts, tr[last])}
}

// fold tells a run of quiet ticks in a learner's words.
func (m *Model) fold(ts []*trace.Tick, current *trace.Tick) *Fold {
	f := &Fold{First: ts[0].Seq, Last: ts[len(ts)-1].Seq, Ticks: len(ts)}
	type tally struct {
		retries, rechecks int
		served            int // requests, for the traffic actor
		reason            string
		objects           map[string]bool
	}
	var order []string
	by := map[string]*tally{}
	for _, t := range ts {
		f.Rows = append(f.Rows, row(t, t == current))
		f.Current = f.Current || t == current
		c := by[t.Component]
		if c == nil {
			c = &tally{objects: map[string]bool{}}
			by[t.Component] = c
			order = append(order, t.Component)
		}
		c.objects[t.Object.Short()] = true
		if t.Traffic() != nil {
			c.served += t.Traffic().Served
		}
		if t.Err() != "" {
			c.retries++
			f.Retries++
			if c.reason == "" {
				c.reason = retryReason(t.Err())
			}
		} else {
			c.rechecks++
		}
	}
	var parts []string
	for _, name := range order {
		c := by[name]
		if c.retries > 0 {
			parts = append(parts, fmt.Sprintf("%s retried %s: %s (%s)", name, times(c.retries), c.reason, m.lagWords(name)))
		}
		switch {
		case c.rechecks == 0:
		case name == engine.TrafficActor:
			parts = append(parts, fmt.Sprintf("every request to %s was served (%d in %s)", objectsWords(c.objects), c.served, plural(c.rechecks, "interval")))
		case name == engine.KubeProxy:
			parts = append(parts, fmt.Sprintf("kube-proxy synced %s and found its rules already right", plural(c.rechecks, "time")))
		case name == engine.MetricsServer:
			parts = append(parts, fmt.Sprintf("the metrics-server scraped the kubelets %s", times(c.rechecks)))
		default:
			parts = append(parts, fmt.Sprintf("%s re-checked %s %s and found nothing to change", name, objectsWords(c.objects), times(c.rechecks)))
		}
	}
	span := ts[len(ts)-1].Time - ts[0].Time
	head := fmt.Sprintf("%d quiet ticks", len(ts))
	if len(ts) == 1 {
		head = "1 quiet tick"
	}
	if span > 0 {
		head += " in " + durationWords(span)
	}
	f.Text = head + ": " + strings.Join(parts, "; ") + "."
	if f.Retries > 0 {
		f.Text += " This is eventual consistency: each component acts on its own cached copy, and catches up."
	}
	return f
}

// retryReason names why a write was refused, from the API error.
func retryReason(err string) string {
	switch {
	case strings.Contains(err, "the object has been modified"):
		return "its cached copy was older than the API server's, so the write was refused (a conflict)"
	case strings.Contains(err, "not found"), strings.Contains(err, "already exists"):
		return "the API server already had an object its cache had not seen yet"
	case strings.Contains(err, "exceeded quota"):
		return "the namespace's quota refused the write"
	}
	return "the API server refused its write (" + err + ")"
}

// lagWords says how far the component's cache lags the API server.
func (m *Model) lagWords(component string) string {
	if m.sc == nil {
		return "its cache lags the API server"
	}
	kind := component
	if i := strings.IndexByte(kind, '('); i >= 0 {
		kind = kind[:i]
	}
	ms, ok := m.sc.Config.Latency[kind]
	if !ok {
		ms, _ = engine.DefaultLatency(kind)
	}
	if ms <= 0 {
		return "its cache lags the API server"
	}
	return "its cache sees the API server " + durationWords(ms) + " late"
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func times(n int) string {
	if n == 1 {
		return "once"
	}
	return fmt.Sprintf("%d×", n)
}

func objectsWords(objs map[string]bool) string {
	if len(objs) == 1 {
		for o := range objs {
			return o
		}
	}
	return fmt.Sprintf("%d objects", len(objs))
}

// durationWords is a virtual duration as a person says it: 75 ms, 2.5 s,
// 10 min.
func durationWords(ms int64) string {
	switch {
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	case ms < 60_000:
		return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.3f", float64(ms)/1000), "0"), ".") + " s"
	}
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.1f", float64(ms)/60_000), "0"), ".") + " min"
}

// MaxStoryTicks bounds one story step: how many quiet ticks one press of
// Step may pass over looking for a visible change.
const MaxStoryTicks = 2000

// StepVisible steps until a tick that changes something (at most
// MaxStoryTicks ticks) and reports whether it took any tick. The tick
// counter still counts every tick taken.
func (m *Model) StepVisible() bool {
	defer m.guard("stepping")
	m.Notice = ""
	if m.eng == nil {
		return false
	}
	taken := 0
	for range MaxStoryTicks {
		t := m.eng.Step()
		if t == nil {
			m.reached()
			m.Notice = m.EndNotice()
			return taken > 0
		}
		taken++
		if Visible(t) {
			break
		}
	}
	m.reached()
	return true
}

// PrevVisible is the tick before the current one that changed something,
// where a story step back goes (the first kept tick when there is none).
func (m *Model) PrevVisible() int {
	if m.eng == nil {
		return 0
	}
	tr := m.eng.Trace()
	for i := len(tr) - 2; i >= 0; i-- {
		if Visible(tr[i]) {
			return tr[i].Seq
		}
	}
	return m.eng.FirstTick()
}
