package kubectl

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/stateflow/stateflow/engine/api"
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
	type event struct {
		ms, rv int64
		r      *api.EventRecord
	}
	var evs []event
	s.Cluster.Store().EachEventRecord(func(r *api.EventRecord) bool { // sorted below
		if selector == "" || fs.Matches(fieldSet{r, api.KindEvent}) {
			evs = append(evs, event{r.LastSeenMS(), r.Version(), r})
		}
		return true
	})
	total := len(evs)
	if total <= n {
		return s.RunArgs(args)
	}
	// The latest n by last timestamp, ties by when they were last written.
	slices.SortFunc(evs, func(a, b event) int { return cmp.Or(cmp.Compare(a.ms, b.ms), cmp.Compare(a.rv, b.rv)) })
	objs := make([]api.Object, 0, n)
	for _, e := range evs[total-n:] {
		objs = append(objs, e.r.Event())
	}
	results := []found{{q: qs[0], objs: objs}}
	note := fmt.Sprintf("The %d most recent of %d events, oldest first (by last timestamp, then by when they were written); a field selector narrows them.\n\n", n, total)
	return Result{Stdout: note + s.tables(p, results, false)}
}
