package provenance

import (
	"cmp"
	"slices"

	"github.com/stateflow/stateflow/engine/order"
	"github.com/stateflow/stateflow/engine/trace"
)

// groupKey is what folds ticks into one step: alike, at one distance
// from the question.
type groupKey struct {
	depth     int
	component string
	kind      string
	class     trace.Class
}

// fold turns the ticks reached into steps, newest first: ticks alike at
// the same depth become one step (three kubelets reporting three pods
// ready). The field's own write is a step of its own, with its change.
func (w *walker) fold(reached []node, notes map[int]*tickNotes, from *fieldWrite) []Step {
	var keys []groupKey
	groups := map[groupKey][]node{}
	for _, n := range reached {
		t, e := w.tick(n.tick), w.effect(n.write)
		k := groupKey{n.depth, t.Component, e.Object.Kind, e.Class}
		if _, ok := groups[k]; !ok {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], n)
	}
	in := make(map[int]bool, len(reached))
	for _, n := range reached {
		in[n.tick] = true
	}
	steps := make([]Step, 0, len(keys))
	for _, k := range keys {
		steps = append(steps, w.step(groups[k], notes, in))
	}
	steps[0].Change = from.change
	order.SortStableFunc(steps, func(a, b Step) int {
		return cmp.Or(cmp.Compare(b.Ticks[0], a.Ticks[0]), cmp.Compare(a.Depth, b.Depth))
	})
	return steps
}

// step is one line for ticks alike.
// A side cause is named unless the chain reached its write by another
// way (in).
func (w *walker) step(ns []node, notes map[int]*tickNotes, in map[int]bool) Step {
	order.SortFunc(ns, func(a, b node) int { return cmp.Compare(b.tick, a.tick) })
	newest := w.tick(ns[0].tick)
	s := Step{Time: newest.Time, Component: newest.Component, Class: w.effect(ns[0].write).Class,
		Text: newest.Explanation(), User: isUser(newest.Component), Depth: ns[0].depth}
	for _, n := range ns {
		t := w.tick(n.tick)
		s.Ticks = append(s.Ticks, n.tick)
		if o := w.effect(n.write).Object.String(); !slices.Contains(s.Objects, o) {
			s.Objects = append(s.Objects, o)
		}
		if t.Host != "" && !slices.Contains(s.Hosts, t.Host) {
			s.Hosts = append(s.Hosts, t.Host)
		}
		if tn := notes[n.tick]; tn != nil {
			s.Stale = append(s.Stale, tn.stale...)
			for _, ca := range tn.side {
				if also := w.sideCause(ca); !in[ca.wr.tick] && !slices.Contains(s.Also, also) {
					s.Also = append(s.Also, also)
				}
			}
		}
	}
	return s
}
