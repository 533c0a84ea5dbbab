package scheduler

import (
	"sort"

	"github.com/stateflow/stateflow/engine/api"
)

// NodeVerdict is what one scheduling cycle's filters and scores say of
// one node.
type NodeVerdict struct {
	Node    string
	Reasons []string // why the node was filtered out; nil when feasible
	Score   int64    // the weighted sum of the scores, when feasible
}

// Evaluate filters and scores every node for p as a scheduling attempt
// would, without binding: the differential harness compares the verdicts
// with the upstream plugins'.
func (s *Scheduler) Evaluate(p *api.Pod) []NodeVerdict {
	u := usageOf(p)
	var out []NodeVerdict
	if msg := s.volumeBinding(p); msg != "" {
		// A PreFilter rejection: no node is filtered or scored.
		for i, name := range s.nodes {
			if s.order[i].node != nil {
				out = append(out, NodeVerdict{Node: name, Reasons: []string{msg}})
			}
		}
		return out
	}
	var feasible []*nodeInfo
	var at []int
	pre := s.prefilter(p)
	for i, name := range s.nodes {
		info := s.order[i]
		if info.node == nil {
			continue
		}
		v := NodeVerdict{Node: name}
		if st := filter(p, &u, info.node, info, pre); st.fails() {
			v.Reasons = st.texts()
		} else {
			feasible = append(feasible, info)
			at = append(at, len(out))
		}
		out = append(out, v)
	}
	for i, sc := range s.scores(p, &u, feasible) {
		out[at[i]].Score = sc
	}
	return out
}

// PodsByNode returns the pods the scheduler accounts on each node,
// including those it bound but has not yet seen bound (as copies with
// spec.nodeName set), each list in name order.
func (s *Scheduler) PodsByNode() map[string][]*api.Pod {
	out := map[string][]*api.Pod{}
	for node, info := range s.info {
		for _, a := range info.accounted {
			o, ok := s.Informer.Get(api.KeyOf(a))
			if !ok {
				continue
			}
			p := o.(*api.Pod)
			if p.Spec.NodeName != node {
				c := p.DeepCopy()
				c.Spec.NodeName = node
				p = c
			}
			out[node] = append(out[node], p)
		}
	}
	for _, pods := range out {
		sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	}
	return out
}
