package scheduler

import (
	"math"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/api/labels"
)

// This file is PodTopologySpread with a pod's own constraints
// (podtopologyspread/filtering.go and scoring.go, v1.34): its
// DoNotSchedule ones filter nodes, its ScheduleAnyway ones score them in
// place of the system defaults (spread.go).

// spreadConstraint is one of the pod's constraints as the plugin reads it
// (filterTopologySpreadConstraints).
type spreadConstraint struct {
	key           string
	maxSkew       int32
	sel           labels.Selector
	minDomains    int32
	affinityHonor bool // nodeAffinityPolicy, Honor by default
	taintsHonor   bool // nodeTaintsPolicy, Ignore by default
}

// constraintsOf are the pod's constraints with the action given.
func constraintsOf(p *api.Pod, action string) []spreadConstraint {
	var out []spreadConstraint
	for i := range p.Spec.TopologySpreadConstraints {
		c := &p.Spec.TopologySpreadConstraints[i]
		if c.WhenUnsatisfiable != action {
			continue
		}
		sc := spreadConstraint{key: c.TopologyKey, maxSkew: c.MaxSkew, sel: c.Selector(p.Labels), minDomains: 1,
			affinityHonor: c.NodeAffinityPolicy == nil || *c.NodeAffinityPolicy == api.NodeInclusionPolicyHonor,
			taintsHonor:   c.NodeTaintsPolicy != nil && *c.NodeTaintsPolicy == api.NodeInclusionPolicyHonor}
		if c.MinDomains != nil {
			sc.minDomains = *c.MinDomains
		}
		out = append(out, sc)
	}
	return out
}

// includes is matchNodeInclusionPolicies: whether node n's pods count for
// the constraint.
func (c *spreadConstraint) includes(p *api.Pod, n *api.Node) bool {
	if c.affinityHonor && !selectsNode(p, n) {
		return false
	}
	return !c.taintsHonor || taintToleration(p, n).reasons == 0
}

// count is countPodsMatchSelector over the pods accounted on a node: in
// the pod's namespace, not terminating, selected.
func (c *spreadConstraint) count(info *nodeInfo, ns string) int {
	n := 0
	for _, q := range info.accounted {
		if q.DeletionTimestamp == nil && q.Namespace == ns && c.sel.Matches(labels.Set(q.Labels)) {
			n++
		}
	}
	return n
}

// hasKeys is nodeLabelsMatchSpreadConstraints: n carries every
// constraint's topology key.
func hasKeys(n *api.Node, cs []spreadConstraint) bool {
	for i := range cs {
		if _, ok := n.Labels[cs[i].key]; !ok {
			return false
		}
	}
	return true
}

// hardSpread is the PreFilter state of a pod with DoNotSchedule
// constraints: per constraint, the matching pods of each domain over
// every node that carries all the keys and passes the inclusion
// policies, and the global minimum the skew is measured from.
type hardSpread struct {
	constraints []spreadConstraint
	counts      []map[string]int
	minMatch    []int
	selfMatch   []bool
}

// hardSpreadOf is calPreFilterState, nil for a pod without DoNotSchedule
// constraints (the system defaults have none).
func (s *Scheduler) hardSpreadOf(p *api.Pod) *hardSpread {
	cs := constraintsOf(p, api.DoNotSchedule)
	if len(cs) == 0 {
		return nil
	}
	h := &hardSpread{constraints: cs, counts: make([]map[string]int, len(cs)), minMatch: make([]int, len(cs)), selfMatch: make([]bool, len(cs))}
	for i := range cs {
		h.counts[i] = map[string]int{}
		h.selfMatch[i] = cs[i].sel.Matches(labels.Set(p.Labels))
	}
	for _, info := range s.order {
		n := info.node
		if n == nil || !hasKeys(n, cs) {
			continue
		}
		for i := range cs {
			if cs[i].includes(p, n) {
				h.counts[i][n.Labels[cs[i].key]] += cs[i].count(info, p.Namespace)
			}
		}
	}
	for i := range cs {
		m := math.MaxInt32 // no domain: the criticalPaths' initial value
		for _, n := range h.counts[i] {
			m = min(m, n)
		}
		if len(h.counts[i]) < int(cs[i].minDomains) {
			m = 0 // fewer eligible domains than minDomains: the minimum is 0
		}
		h.minMatch[i] = m
	}
	return h
}

// filter is the plugin's Filter on node n: a node without a constraint's
// key can never fit (UnschedulableAndUnresolvable); one whose domain
// would exceed maxSkew over the global minimum cannot now.
func (h *hardSpread) filter(n *api.Node) status {
	if h == nil {
		return status{}
	}
	for i := range h.constraints {
		c := &h.constraints[i]
		v, ok := n.Labels[c.key]
		if !ok {
			return status{reasons: reasonSpreadLabel, unresolvable: true}
		}
		self := 0
		if h.selfMatch[i] {
			self = 1
		}
		if h.counts[i][v]+self-h.minMatch[i] > int(c.maxSkew) {
			return status{reasons: reasonSpread}
		}
	}
	return status{}
}

// explicitSpreadScores is PreScore, Score and NormalizeScore with the
// pod's ScheduleAnyway constraints: nodes without every key are ignored
// (score 0); each constraint adds its domain's matching pods, weighted by
// the log of how many domains the feasible nodes span, plus maxSkew-1.
// Nil when the pod has none (the plugin skips).
func (s *Scheduler) explicitSpreadScores(p *api.Pod, feasible []*nodeInfo) []int64 {
	cs := constraintsOf(p, api.ScheduleAnyway)
	if len(cs) == 0 || len(feasible) == 0 {
		return nil
	}
	ignored := make([]bool, len(feasible))
	counts := make([]map[string]int64, len(cs))
	for i := range cs {
		counts[i] = map[string]int64{}
	}
	kept := 0
	for j, info := range feasible {
		if !hasKeys(info.node, cs) {
			ignored[j] = true
			continue
		}
		kept++
		for i := range cs {
			if cs[i].key != labelHostname {
				counts[i][info.node.Labels[cs[i].key]] = 0
			}
		}
	}
	weights := make([]float64, len(cs))
	for i := range cs {
		size := len(counts[i])
		if cs[i].key == labelHostname {
			size = kept
		}
		weights[i] = math.Log(float64(size + 2))
	}
	for _, info := range s.order {
		if info.node == nil || !hasKeys(info.node, cs) {
			continue
		}
		for i := range cs {
			if cs[i].key == labelHostname || !cs[i].includes(p, info.node) {
				continue
			}
			v := info.node.Labels[cs[i].key]
			if _, ok := counts[i][v]; ok {
				counts[i][v] += int64(cs[i].count(info, p.Namespace))
			}
		}
	}
	scores := make([]int64, len(feasible))
	for j, info := range feasible {
		if ignored[j] {
			continue
		}
		var score float64
		for i := range cs {
			v, ok := info.node.Labels[cs[i].key]
			if !ok {
				continue
			}
			cnt := counts[i][v]
			if cs[i].key == labelHostname {
				cnt = int64(cs[i].count(info, p.Namespace))
			}
			score += float64(cnt)*weights[i] + float64(cs[i].maxSkew-1)
		}
		scores[j] = int64(math.Round(score))
	}
	return normalizeIgnoring(scores, ignored)
}

// normalizeIgnoring is the plugin's NormalizeScore: the fewest matching
// pods score 100; ignored nodes score 0 and count for neither bound.
func normalizeIgnoring(scores []int64, ignored []bool) []int64 {
	minScore, maxScore := int64(math.MaxInt64), int64(0)
	for j, sc := range scores {
		if !ignored[j] {
			minScore, maxScore = min(minScore, sc), max(maxScore, sc)
		}
	}
	for j, sc := range scores {
		switch {
		case ignored[j]:
			scores[j] = 0
		case maxScore == 0:
			scores[j] = maxNodeScore
		default:
			scores[j] = maxNodeScore * (maxScore + minScore - sc) / maxScore
		}
	}
	return scores
}
