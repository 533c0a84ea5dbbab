package lesson

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/fieldpath"
	"github.com/stateflow/stateflow/engine/trace"
	"github.com/stateflow/stateflow/scenario"
)

// world is the API server's objects just after a tick, read back from
// the trace's effects (every object a tick writes), with the nodes that
// existed before the first tick.
type world struct {
	objs map[api.Key]api.Object
	// born is the tick that created each object (0: before the first),
	// which orders objects created within one second.
	born map[api.Key]int
}

// worldAt rebuilds the objects as they were just after tick n.
func (l *Lesson) worldAt(n int) *world {
	w := &world{objs: map[api.Key]api.Object{}, born: map[api.Key]int{}}
	for _, o := range l.initial() {
		w.objs[api.KeyOf(o)] = o
	}
	for i := l.e.FirstTick() + 1; i <= n; i++ {
		w.apply(l.tick(i))
	}
	return w
}

// initial are the objects that exist before the first tick: the nodes
// (and namespaces) the scenario starts with.
func (l *Lesson) initial() []api.Object { return l.setup }

func (w *world) apply(t *trace.Tick) {
	for i := range t.Effects {
		e := &t.Effects[i]
		if e.After == nil {
			// Gone. A graceful deletion (a Delete with an After) only
			// marks the object; it still exists.
			delete(w.objs, e.Object)
			delete(w.born, e.Object)
			continue
		}
		if _, ok := w.objs[e.Object]; !ok {
			w.born[e.Object] = t.Seq
		}
		if ev, ok := api.EventOf(e.After); ok {
			w.objs[e.Object] = ev // a recorder's Event is kept as a record
			continue
		}
		w.objs[e.Object] = e.After
	}
}

// matching lists the objects a reference names, oldest first (by
// creation time, then the tick that created them, then name).
func (w *world) matching(r scenario.Ref) []api.Key {
	var out []api.Key
	for k := range w.objs {
		if r.Matches(k) {
			out = append(out, k)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := w.objs[out[i]].Meta().CreationTimestamp.MS, w.objs[out[j]].Meta().CreationTimestamp.MS
		if a != b {
			return a < b
		}
		if ba, bb := w.born[out[i]], w.born[out[j]]; ba != bb {
			return ba < bb
		}
		return out[i].String() < out[j].String()
	})
	return out
}

// newest is the most recently created object a reference names that
// keep accepts.
func (w *world) newest(r scenario.Ref, keep func(api.Object) bool) (api.Key, bool) {
	keys := w.matching(r)
	for i := len(keys) - 1; i >= 0; i-- {
		if keep == nil || keep(w.objs[keys[i]]) {
			return keys[i], true
		}
	}
	return api.Key{}, false
}

// field reads a field path ("status.readyReplicas",
// "status.conditions[Ready].status", "spec.containers[0].image") of an
// object as it serialises; "<none>" when it is absent, as kubectl's
// custom columns print it.
func field(o api.Object, path string) string {
	b, err := json.Marshal(o)
	if err != nil {
		return "<none>"
	}
	var doc any
	if json.Unmarshal(b, &doc) != nil {
		return "<none>"
	}
	v, ok := fieldpath.Lookup(doc, path)
	switch t := v.(type) {
	case nil:
		return "<none>"
	case string:
		return t
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(t)
	}
	if !ok {
		return "<none>"
	}
	b, _ = json.Marshal(v)
	return string(b)
}

// short is a key as kubectl names it: "rs/web-7d9f".
func short(k api.Key) string { return k.Short() }

func tickWords(t *trace.Tick) string {
	return fmt.Sprintf("tick %d (%s): %s: %s", t.Seq, trace.FormatTime(t.Time), t.Actor(), t.Explanation())
}
