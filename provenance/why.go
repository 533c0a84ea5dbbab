package provenance

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/fieldpath"
	"github.com/stateflow/stateflow/engine/trace"
)

// ErrNoWrites is Why's error for an object no kept tick wrote: one that
// existed before the first tick and never changed (Before answers for it,
// with the object as the API server holds it), or none at all.
var ErrNoWrites = errors.New("no tick wrote the object")

// Before is the answer for an object that existed before the first kept
// tick (first, 0 when every tick is kept), as o, the object at the tick
// asked about, holds the field.
func Before(o api.Object, field string, at, first int) *Chain {
	v, set := lookup(o, field)
	k := api.KeyOf(o)
	return &Chain{Object: k.String(), Field: field, At: at, Value: v, Set: set, Steps: []Step{beforeStep([]string{k.String()}, 0, first)}}
}

// Why answers q from the trace: the chain of writes and reads that gave
// q.Object's q.Field its value at tick q.At. The field's object must exist
// at that tick.
func Why(tr Trace, q Query) (*Chain, error) {
	first, ticks := tr.FirstTick(), tr.Trace()
	last := first + len(ticks)
	if q.At <= first || q.At > last {
		return nil, fmt.Errorf("tick %d is not in the trace: it holds ticks %d to %d", q.At, first+1, last)
	}
	w := &walker{tr: tr, first: first, ticks: ticks, index: indexWrites(ticks), fulls: map[int]*trace.Tick{}}
	c := &Chain{Object: q.Object.String(), Field: q.Field, At: q.At, Steps: []Step{}}
	found, then, err := w.lastWrite(q)
	switch {
	case err != nil:
		return nil, err
	case found == nil && then != nil:
		return Before(then, q.Field, q.At, first), nil
	case found == nil:
		return nil, ErrNoWrites
	}
	c.Value, c.Set = found.value, found.set
	w.follow(c, found)
	return c, nil
}

// WhyTick answers why tick n did what it did: the chain behind its first
// write (an Event alone is not one). The chain's Field is empty: it is
// about the write, not a field of it.
func WhyTick(tr Trace, n int) (*Chain, error) {
	first, ticks := tr.FirstTick(), tr.Trace()
	if n <= first || n > first+len(ticks) {
		return nil, fmt.Errorf("tick %d is not in the trace: it holds ticks %d to %d", n, first+1, first+len(ticks))
	}
	w := &walker{tr: tr, first: first, ticks: ticks, index: indexWrites(ticks), fulls: map[int]*trace.Tick{}}
	for i, e := range w.full(n).Effects {
		if e.Class == trace.Event {
			continue
		}
		c := &Chain{Object: e.Object.String(), At: n, Steps: []Step{}}
		w.follow(c, &fieldWrite{write: write{n, i}})
		return c, nil
	}
	return nil, fmt.Errorf("tick %d wrote no object: %w", n, ErrNoWrites)
}

// write is one effect of the trace: its tick and its place in the tick.
type write struct {
	tick, effect int
}

// indexWrites lists every object's writes, oldest first.
func indexWrites(ticks []*trace.Tick) map[api.Key][]write {
	out := map[api.Key][]write{}
	for _, t := range ticks {
		for i := range t.Effects {
			if e := &t.Effects[i]; e.Class != trace.Event {
				out[e.Object] = append(out[e.Object], write{t.Seq, i})
			}
		}
	}
	return out
}

// walker follows a chain back through one trace.
type walker struct {
	tr    Trace
	first int
	ticks []*trace.Tick
	index map[api.Key][]write
	// fulls are the pruned ticks rebuilt so far (each FullTick replays).
	fulls map[int]*trace.Tick
}

// tick is tick n as kept; full is it with its pod versions (FullTick when
// pruned).
func (w *walker) tick(n int) *trace.Tick { return w.ticks[n-w.first-1] }

func (w *walker) full(n int) *trace.Tick {
	if t := w.tick(n); !t.Pruned {
		return t
	}
	if t, ok := w.fulls[n]; ok {
		return t
	}
	t := w.tr.FullTick(n)
	if t == nil {
		t = w.tick(n)
	}
	w.fulls[n] = t
	return t
}

// effect is the write's effect, with its objects.
func (w *walker) effect(wr write) *trace.Effect { return &w.full(wr.tick).Effects[wr.effect] }

// fieldWrite is the write that gave the field its value.
type fieldWrite struct {
	write
	value  any
	set    bool
	change *trace.Change
}

// lastWrite is the last write at or before q.At that changed q.Field (or
// a field inside it, or the field it lies inside), or created q.Object.
// When no kept tick did, it is nil and then is the object as it was at
// q.At (nil when no kept tick wrote it at all); an error when the object
// did not exist at q.At.
func (w *walker) lastWrite(q Query) (found *fieldWrite, then api.Object, err error) {
	writes := w.index[q.Object]
	i := len(writes) - 1
	for i >= 0 && writes[i].tick > q.At {
		i--
	}
	if i < 0 {
		if len(writes) == 0 {
			return nil, nil, nil
		}
		if e := w.effect(writes[0]); e.Op != trace.Create {
			return nil, e.Before, nil // as it was before its first kept write
		}
		return nil, nil, fmt.Errorf("%s did not exist yet at tick %d: it was created at tick %d", q.Object.Short(), q.At, writes[0].tick)
	}
	if e := w.effect(writes[i]); e.Op == trace.Delete && e.After == nil {
		return nil, nil, fmt.Errorf("%s was deleted at tick %d", q.Object.Short(), writes[i].tick)
	}
	then = w.effect(writes[i]).After
	value, set := lookup(then, q.Field)
	for ; i >= 0; i-- {
		e := w.effect(writes[i])
		if e.Op == trace.Create {
			return &fieldWrite{write: writes[i], value: value, set: set, change: fieldChange(e, q.Field)}, then, nil
		}
		for _, ch := range changes(e) {
			if fieldpath.Within(ch.Path, q.Field) || fieldpath.Within(q.Field, ch.Path) {
				return &fieldWrite{write: writes[i], value: value, set: set, change: fieldChange(e, q.Field)}, then, nil
			}
		}
	}
	return nil, then, nil
}

// changes are the fields an update changed, or a graceful deletion (its
// deletionTimestamp, and its finalizers when they are removed).
func changes(e *trace.Effect) []trace.Change {
	if e.Op == trace.Delete && e.Before != nil && e.After != nil {
		return trace.Diff(e.Before, e.After)
	}
	return e.Changes()
}

// fieldChange is the field's values before and after the effect.
func fieldChange(e *trace.Effect, field string) *trace.Change {
	from, _ := lookup(e.Before, field)
	to, _ := lookup(e.After, field)
	return &trace.Change{Path: field, From: from, To: to}
}

// lookup is the field's value in o as JSON holds it.
func lookup(o api.Object, field string) (any, bool) {
	if o == nil {
		return nil, false
	}
	b, err := json.Marshal(o)
	if err != nil {
		return nil, false
	}
	var doc any
	if json.Unmarshal(b, &doc) != nil {
		return nil, false
	}
	v, ok := fieldpath.Lookup(doc, field)
	return v, ok && v != nil
}

// node is a tick the chain reached: the write of it that the step after
// it read, and how far it lies from the question.
type node struct {
	write
	depth int
}

// follow walks back from the field's write, breadth first, and folds the
// ticks it reached into steps.
func (w *walker) follow(c *Chain, from *fieldWrite) {
	seen := map[int]bool{from.tick: true}
	queue := []node{{from.write, 0}}
	var reached []node
	notes := map[int]*tickNotes{} // by the tick they are about
	left := map[int]bool{}        // the ticks left out past MaxTicks
	dropped := 0                  // the reads left out past MaxCauses
	var before []Step
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		reached = append(reached, n)
		t := w.tick(n.tick)
		if isUser(t.Component) {
			continue
		}
		cl := w.effect(n.write).Class
		reads := w.relevantReads(t, cl)
		if len(reads) > MaxCauses {
			dropped += len(reads) - MaxCauses
			reads = reads[:MaxCauses]
		}
		tn := &tickNotes{}
		notes[n.tick] = tn
		followed, side := w.pick(t, cl, w.causes(t, reads))
		tn.side = side
		for _, ca := range followed {
			if ca.read.Stale() {
				tn.stale = append(tn.stale, StaleRead{Tick: n.tick, Object: ca.read.Object.String(), Cached: ca.read.Cached, Live: ca.read.Live})
			}
			switch {
			case !ca.ok:
				before = w.appendBefore(before, ca.read.Object, n.depth+1)
			case seen[ca.wr.tick]:
			case len(seen) >= MaxTicks:
				left[ca.wr.tick] = true
			default:
				seen[ca.wr.tick] = true
				queue = append(queue, node{ca.wr, n.depth + 1})
			}
		}
	}
	c.Steps = w.fold(reached, notes, from)
	c.Steps = append(c.Steps, before...)
	c.Folded = dropped + len(left)
}

// tickNotes are what a step says of one of its ticks: the reads that
// lagged and the causes left out.
type tickNotes struct {
	stale []StaleRead
	side  []cause
}

// cause is a read and the write that made the version it read (ok false
// when none kept did).
type cause struct {
	read trace.Read
	wr   write
	ok   bool
}

func (w *walker) causes(t *trace.Tick, reads []trace.Read) []cause {
	out := make([]cause, len(reads))
	for i, r := range reads {
		wr, ok := w.writerOf(t, r)
		out[i] = cause{r, wr, ok}
	}
	return out
}

// pick chooses the causes a chain follows: for a binding every one (the
// pod and each node that turned it away); otherwise the newest write, the
// change that moved the component last, with the writes alike to it
// (three kubelets' reports of three pods), and what existed before the
// trace. The rest are side causes, named but not followed.
func (w *walker) pick(t *trace.Tick, cl trace.Class, cs []cause) (followed, side []cause) {
	if cl == trace.Bind {
		return cs, nil
	}
	newest := -1
	for i, ca := range cs {
		if ca.ok && (newest < 0 || ca.wr.tick > cs[newest].wr.tick) {
			newest = i
		}
	}
	if newest < 0 {
		return cs, nil
	}
	g := w.group(cs[newest].wr)
	for _, ca := range cs {
		if !ca.ok || w.group(ca.wr) == g {
			followed = append(followed, ca)
		} else {
			side = append(side, ca)
		}
	}
	return followed, side
}

// group is what makes writes alike: the writer, the kind written and the
// way it moved state (groupKey without the depth).
func (w *walker) group(wr write) groupKey {
	e := w.effect(wr)
	return groupKey{component: w.tick(wr.tick).Component, kind: e.Object.Kind, class: e.Class}
}

// sideCause names a cause left out: the object read and who wrote it.
func (w *walker) sideCause(ca cause) string {
	return fmt.Sprintf("%s as written at #%d by %s", ca.read.Object.Short(), ca.wr.tick, w.tick(ca.wr.tick).Actor())
}

// relevantReads are the reads of t that explain a write of class cl: for
// a summary, the other objects it read (those whose change queued it,
// else the rest), else its own object; for desired state and a
// kubelet's work, its own object, then the other objects whose change
// queued it; for a binding, every object read (the pod, and the nodes
// that turned it away).
func (w *walker) relevantReads(t *trace.Tick, cl trace.Class) []trace.Read {
	var own, queued, other []trace.Read
	for _, r := range t.Reads {
		switch {
		case r.Object == t.Object:
			own = append(own, r)
		case r.Queued:
			queued = append(queued, r)
		default:
			other = append(other, r)
		}
	}
	if cl == trace.Aggregate {
		if len(queued)+len(other) == 0 {
			return own
		}
		if len(queued) > 0 {
			return queued
		}
		return other
	}
	if cl == trace.Bind || len(own) == 0 && len(queued) == 0 {
		return append(append(own, queued...), other...) // the scheduler's nodes
	}
	return append(own, queued...)
}

// writerOf is the write that made the version r read, before tick t. A
// component reading back its own summary of its object is passed over to
// the write before it: the summary is not why it acted.
func (w *walker) writerOf(t *trace.Tick, r trace.Read) (write, bool) {
	writes := w.index[r.Object]
	i := len(writes) - 1
	for i >= 0 && writes[i].tick >= t.Seq {
		i--
	}
	i = w.versionAt(writes, i, r.Cached)
	for i >= 0 && r.Object == t.Object && w.tick(writes[i].tick).Component == t.Component && w.effect(writes[i]).Class == trace.Aggregate {
		i--
	}
	if i < 0 {
		return write{}, false
	}
	return writes[i], true
}

// versionAt is the index in writes (from i back) of the write that made
// version rv, or, for "<deleted>", of the deletion; -1 when no kept write
// did.
func (w *walker) versionAt(writes []write, i int, rv string) int {
	for ; i >= 0; i-- {
		e := w.effect(writes[i])
		switch {
		case rv == deleted:
			if e.Op == trace.Delete && e.After == nil {
				return i
			}
		case e.After != nil && e.After.Meta().ResourceVersion == rv:
			return i
		}
	}
	return -1
}

// deleted is the version a read names for an object that is gone.
const deleted = "<deleted>"

// isUser reports whether a tick's actor is the user's: a kubectl command
// or a scenario action.
func isUser(component string) bool {
	return component == engine.KubectlActor || component == engine.ScenarioActor
}

// beforeStep is objects that existed before the first kept tick (first,
// 0 when the run keeps every tick).
func beforeStep(objs []string, depth, first int) Step {
	what := api.ShortKind(objectKind(objs[0])) + "/" + objectName(objs[0])
	if len(objs) > 1 {
		what = fmt.Sprintf("%d %ss", len(objs), api.ShortKind(objectKind(objs[0])))
	}
	text := what + " existed before the first tick: the scenario's cluster"
	if first > 0 {
		text = fmt.Sprintf("%s as written before tick %d, the first this run still keeps", what, first+1)
	}
	return Step{Objects: objs, Before: true, Depth: depth, Text: text}
}

// appendBefore adds k to the steps of what existed before, once: to the
// step of its kind at its depth, if there is one.
func (w *walker) appendBefore(steps []Step, k api.Key, depth int) []Step {
	for i := range steps {
		if slices.Contains(steps[i].Objects, k.String()) {
			return steps
		}
	}
	for i := range steps {
		if steps[i].Depth == depth && objectKind(steps[i].Objects[0]) == k.Kind {
			steps[i] = beforeStep(append(steps[i].Objects, k.String()), depth, w.first)
			return steps
		}
	}
	return append(steps, beforeStep([]string{k.String()}, depth, w.first))
}

// objectKind and objectName are the kind and the name of a
// Kind/namespace/name string.
func objectKind(s string) string {
	k, _ := api.ParseKey(s)
	return k.Kind
}

func objectName(s string) string {
	k, _ := api.ParseKey(s)
	return k.Name
}
