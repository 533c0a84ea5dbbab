package kubectl

import (
	"strings"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine/api"
)

// watch advances the simulation and prints a row each time an object the
// get selects changes, like kubectl get --watch; it stops when the
// cluster settles or after an hour of virtual time.
func (s *Session) watch(p *parsed, qs []query, results []found) string {
	ls, _ := labelSelector(p.str("selector"))
	ns := s.namespace(p)
	wide := p.str("output") == "wide"
	deadline := s.Cluster.Now() + maxWatchMS
	var b strings.Builder
	for ticks := 0; ; ticks++ {
		next, more := s.Cluster.NextTime()
		if !more || next > deadline {
			return b.String()
		}
		if !s.watchBudget(ticks) {
			return b.String() + s.stoppedWatching() + "\n"
		}
		t := s.Cluster.Step()
		if t == nil {
			return b.String()
		}
		for _, e := range t.Effects {
			q, ok := matchQuery(qs, e.Object, ns, p.bool("all-namespaces"))
			if !ok {
				continue
			}
			o := e.After
			if o == nil {
				o = e.Before
			}
			if ev, ok := api.EventOf(o); ok {
				o = ev // a recorder's Event is kept as a record
			}
			fs, err := fieldSelector(p.str("field-selector"), q.res)
			if err != nil || !ls.Matches(labels.Set(o.Meta().Labels)) || !fs.Matches(fieldSet{o, q.res.kind}) {
				continue
			}
			name := o.Meta().Name
			if len(qs) > 1 {
				name = q.res.qualified() + "/" + name
			}
			cells := row(o, name, wide, s.Cluster.Now())
			if p.bool("all-namespaces") && !q.res.cluster {
				cells = append([]string{o.Meta().Namespace}, cells...)
			}
			tb := &table{header: columns(q.res.kind, wide), rows: [][]string{cells}}
			b.WriteString(tb.String(true))
		}
	}
}

func matchQuery(qs []query, k api.Key, ns string, all bool) (query, bool) {
	for _, q := range qs {
		if q.res.kind != k.Kind || (!all && !q.res.cluster && k.Namespace != ns) {
			continue
		}
		if len(q.names) == 0 || contains(q.names, k.Name) {
			return q, true
		}
	}
	return query{}, false
}
