package provenance_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/fieldpath"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/provenance"
)

// question is a field asked about at a tick.
type question struct {
	obj   api.Key
	field string
	at    int
}

// questions are the fields the ticks in (from, at] changed, asked at at:
// every kind of field a learner clicks "Why?" on.
func questions(e *engine.Engine, from, at int) []question {
	var out []question
	seen := map[string]bool{}
	for _, t := range e.Trace() {
		if t.Seq <= from || t.Seq > at {
			continue
		}
		for i := range t.Effects {
			ef := &t.Effects[i]
			if ef.Class == trace.Event || ef.Op != trace.Update {
				continue
			}
			for _, ch := range ef.Changes() {
				if k := ef.Object.String() + " " + ch.Path; !seen[k] {
					seen[k] = true
					out = append(out, question{ef.Object, ch.Path, at})
				}
			}
		}
	}
	return out
}

// TestWhyStepsAreReadsAndWrites asks why of every field the last ticks of
// every example changed, and checks each chain against the trace itself:
// the first step is the last write at or before the tick asked about to
// that field; every later step's ticks wrote an object that a tick of the
// step before it read, at a version no newer than the one it read, and
// before it; the value is the one the API server held.
func TestWhyStepsAreReadsAndWrites(t *testing.T) {
	files := append(testkit.Examples(t, "../examples"), testkit.Examples(t, "../examples/lessons")...)
	asked := 0
	for _, file := range files {
		e, _ := testkit.LoadFile(t, file)
		_ = e.RunUntilSettled(engine.SettleLimits{}) // a scenario that never settles stops at its bound
		end := e.Tick()
		for _, q := range questions(e, end-40, end) {
			if _, ok := e.Store().Get(q.obj); !ok {
				continue
			}
			c, err := provenance.Why(e, provenance.Query{Object: q.obj, Field: q.field, At: q.at})
			if err != nil {
				t.Errorf("%s: why %s %s at %d: %v", file, q.obj, q.field, q.at, err)
				continue
			}
			asked++
			checkChain(t, file, e, q, c)
		}
	}
	if asked < 500 {
		t.Fatalf("only %d questions asked", asked)
	}
}

func checkChain(t *testing.T, file string, e *engine.Engine, q question, c *provenance.Chain) {
	t.Helper()
	where := file + ": why " + q.obj.String() + " " + q.field
	tick := func(n int) *trace.Tick { return e.Trace()[n-e.FirstTick()-1] }
	// The value is the API server's.
	o, _ := e.Store().Get(q.obj)
	want, wantSet := valueIn(o, q.field)
	if c.Set != wantSet || wantSet && !reflect.DeepEqual(c.Value, want) {
		t.Errorf("%s: value %v (set %v), the API server holds %v (set %v)", where, c.Value, c.Set, want, wantSet)
	}
	// The first step is the last write of the field.
	first := c.Steps[0]
	if len(first.Ticks) != 1 || first.Ticks[0] != lastFieldWrite(e, q) {
		t.Errorf("%s: first step %v, the last write of the field is #%d\n%s", where, first.Ticks, lastFieldWrite(e, q), c.Text())
	}
	// Every step's ticks are real writes that a step nearer the question
	// read, and no tick stands in two steps.
	seen := map[int]bool{}
	for _, s := range c.Steps {
		for _, n := range s.Ticks {
			if seen[n] || n > q.at {
				t.Errorf("%s: tick #%d twice or after the question", where, n)
			}
			seen[n] = true
			if user := tick(n).Component == engine.KubectlActor || tick(n).Component == engine.ScenarioActor; user != s.User {
				t.Errorf("%s: #%d by %s marked user %v", where, n, tick(n).Component, s.User)
			}
			if s.Depth > 0 && !readByNearer(c, tick, s.Depth-1, tick(n)) {
				t.Errorf("%s: #%d (depth %d) wrote nothing a tick at depth %d read\n%s", where, n, s.Depth, s.Depth-1, c.Text())
			}
		}
	}
}

// valueIn is the field's value in o as JSON holds it.
func valueIn(o api.Object, field string) (any, bool) {
	b, _ := json.Marshal(o)
	var doc any
	_ = json.Unmarshal(b, &doc)
	v, ok := fieldpath.Lookup(doc, field)
	return v, ok && v != nil
}

// lastFieldWrite is the last tick at or before q.at that changed q.field
// (or a field inside it, or the field it lies in) on q.obj, or created it.
func lastFieldWrite(e *engine.Engine, q question) int {
	for i := len(e.Trace()) - 1; i >= 0; i-- {
		t := e.Trace()[i]
		if t.Seq > q.at {
			continue
		}
		for j := range t.Effects {
			ef := &t.Effects[j]
			if ef.Object != q.obj || ef.Class == trace.Event {
				continue
			}
			if ef.Op == trace.Create {
				return t.Seq
			}
			chs := ef.Changes()
			if ef.Op == trace.Delete && ef.Before != nil && ef.After != nil {
				chs = trace.Diff(ef.Before, ef.After) // a graceful deletion
			}
			for _, ch := range chs {
				if fieldpath.Within(ch.Path, q.field) || fieldpath.Within(q.field, ch.Path) {
					return t.Seq
				}
			}
		}
	}
	return 0
}

// readByNearer reports whether a tick u of a step at depth d, later than
// w, read an object w wrote, at the version w wrote (or its deletion);
// or read its own object at a later version (a component reading back
// its own summary is passed over to the write before it).
func readByNearer(c *provenance.Chain, tick func(int) *trace.Tick, d int, w *trace.Tick) bool {
	for _, s := range c.Steps {
		if s.Depth != d {
			continue
		}
		for _, n := range s.Ticks {
			u := tick(n)
			if u.Seq <= w.Seq {
				continue
			}
			for _, r := range u.Reads {
				if wrote(w, r, r.Object == u.Object) {
					return true
				}
			}
		}
	}
	return false
}

// wrote reports whether w wrote the version r read: the same
// resourceVersion, or the deletion of a read "<deleted>"; with older, a
// version before it too.
func wrote(w *trace.Tick, r trace.Read, older bool) bool {
	for i := range w.Effects {
		ef := &w.Effects[i]
		switch {
		case ef.Object != r.Object:
		case ef.After == nil:
			if ef.Op == trace.Delete && r.Cached == "<deleted>" {
				return true
			}
		case ef.After.Meta().ResourceVersion == r.Cached:
			return true
		case older && rvBefore(ef.After.Meta().ResourceVersion, r.Cached):
			return true
		}
	}
	return false
}

// rvBefore reports whether resourceVersion a is older than b.
func rvBefore(a, b string) bool {
	x, errA := strconv.ParseUint(a, 10, 64)
	y, errB := strconv.ParseUint(b, 10, 64)
	return errA == nil && errB == nil && x < y
}

// A long run's ticks drop their pod versions (the playground's engine);
// a chain through them is the same as through a trace that kept them.
func TestWhyThroughPrunedTicks(t *testing.T) {
	ask := func(opts ...func(*engine.Config)) *provenance.Chain {
		e, _ := testkit.LoadFile(t, "../examples/rolling-update.yaml", opts...)
		settled(t, e)
		for e.Tick() < engine.PodVersionTicks+200 {
			if e.Step() == nil {
				break
			}
		}
		c, err := provenance.Why(e, provenance.Query{Object: api.Key{Kind: api.KindDeployment, Namespace: "demo", Name: "web"}, Field: "status.updatedReplicas", At: e.Tick()})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	kept, pruned := ask(), ask(testkit.PrunePodVersions, testkit.CheckpointEvery(64))
	if !slices.Equal(shape(kept), shape(pruned)) || kept.Text() != pruned.Text() {
		t.Fatalf("pruned:\n%s\nkept:\n%s", pruned.Text(), kept.Text())
	}
}
