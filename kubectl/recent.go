package kubectl

import (
	"cmp"
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/order"
)

// RecentEvents is the playground's Events panel: what
// `kubectl get events -A [--field-selector S]` prints when at most n
// events match, and otherwise the n most recent of them (by last
// timestamp, then by resourceVersion), oldest first, in kubectl's table,
// after a line that says so. On a large cluster there are tens of
// thousands of Events, and listing them all in name order at every step
// would cost the page seconds.
func (s *Session) RecentEvents(selector string, n int) Result {
	args := []string{"get", "events", "-A"}
	if selector != "" {
		args = append(args, "--field-selector", selector)
	}
	if s.Cluster.Store().Count(api.KindEvent) <= n {
		return s.RunArgs(args)
	}
	p, err := parseFlags("get", args[1:], getFlags)
	if err != nil {
		return s.RunArgs(args)
	}
	qs, err := parseQueries("get", p.args)
	if err != nil || len(qs) != 1 {
		return s.RunArgs(args)
	}
	fs, err := fieldSelector(selector, qs[0].res)
	if err != nil {
		return s.RunArgs(args)
	}
	latest := newLatestEvents(n)
	s.Cluster.Store().EachEventRecord(func(r *api.EventRecord) bool {
		if selector == "" || fs.Matches(fieldSet{r, api.KindEvent}) {
			latest.offer(r)
		}
		return true
	})
	total := latest.seen
	if total <= n {
		return s.RunArgs(args)
	}
	evs := latest.sorted()
	objs := make([]api.Object, 0, n)
	for _, e := range evs {
		objs = append(objs, e.r.Event())
	}
	results := []found{{q: qs[0], objs: objs}}
	note := fmt.Sprintf("The %d most recent of %d events, oldest first (by last timestamp, then by when they were written); a field selector narrows them.\n\n", n, total)
	return Result{Stdout: note + s.tables(p, results, false)}
}

// latestEvents keeps the n latest events offered, by last timestamp, ties
// by resourceVersion (unique, so the order is total): a min-heap of n, so
// a cluster with hundreds of thousands of Events is read once and not
// sorted.
type latestEvents struct {
	n    int
	seen int
	heap []recentEvent // heap[0] is the earliest kept
}

type recentEvent struct {
	ms, rv int64
	r      *api.EventRecord
}

func newLatestEvents(n int) *latestEvents {
	return &latestEvents{n: n, heap: make([]recentEvent, 0, max(n, 0))}
}

func laterEvent(a, b recentEvent) int {
	return cmp.Or(cmp.Compare(a.ms, b.ms), cmp.Compare(a.rv, b.rv))
}

// offer counts r and keeps it if it is among the n latest so far.
func (l *latestEvents) offer(r *api.EventRecord) {
	l.seen++
	e := recentEvent{r.LastSeenMS(), r.Version(), r}
	switch {
	case len(l.heap) < l.n:
		l.heap = append(l.heap, e)
		for i := len(l.heap) - 1; i > 0; {
			parent := (i - 1) / 2
			if laterEvent(l.heap[i], l.heap[parent]) >= 0 {
				break
			}
			l.heap[i], l.heap[parent] = l.heap[parent], l.heap[i]
			i = parent
		}
	case l.n > 0 && laterEvent(e, l.heap[0]) > 0:
		l.heap[0] = e
		l.down()
	}
}

// down restores the heap after its root was replaced.
func (l *latestEvents) down() {
	h := l.heap
	for i := 0; ; {
		least, left, right := i, 2*i+1, 2*i+2
		if left < len(h) && laterEvent(h[left], h[least]) < 0 {
			least = left
		}
		if right < len(h) && laterEvent(h[right], h[least]) < 0 {
			least = right
		}
		if least == i {
			return
		}
		h[i], h[least] = h[least], h[i]
		i = least
	}
}

// sorted is the kept events, oldest first.
func (l *latestEvents) sorted() []recentEvent {
	order.SortFunc(l.heap, laterEvent)
	return l.heap
}
