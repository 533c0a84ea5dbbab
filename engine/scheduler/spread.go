package scheduler

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/informer"
)

// The topology keys of PodTopologySpread's system defaults.
const (
	labelHostname = "kubernetes.io/hostname"
	labelZone     = "topology.kubernetes.io/zone"
)

// systemDefaultConstraints are the soft spreading constraints every pod
// without its own gets (podtopologyspread/plugin.go): at most 3 more
// matching pods per node, 5 per zone, ScheduleAnyway — scoring only.
var systemDefaultConstraints = []struct {
	key     string
	maxSkew int32
}{{labelHostname, 3}, {labelZone, 5}}

// defaultSelector is helper.DefaultSelector: the selectors of the
// Services in the pod's namespace that select it, merged, with the
// selector of its controlling ReplicaSet or StatefulSet added; and a key
// that names that combination for the per-node counts (the Services'
// selectors as written, the owner's UID: workload selectors are
// immutable). Nil when it selects nothing: the plugin then skips.
func (s *Scheduler) defaultSelector(p *api.Pod) (*api.LabelSelector, string) {
	merged := map[string]string{}
	var key strings.Builder
	for _, o := range s.Informer.List(api.KindService, p.Namespace) {
		svc := o.(*api.Service)
		if !selectsLabels(svc.Spec.Selector, p.Labels) {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(svc.Spec.Selector)) {
			merged[k] = svc.Spec.Selector[k]
			key.WriteString(k + "=" + svc.Spec.Selector[k] + ",")
		}
	}
	var exprs []api.LabelSelectorRequirement
	if owner := s.ownerSelector(p); owner != nil && !owner.Empty() {
		for k, v := range owner.MatchLabels {
			merged[k] = v
		}
		exprs = owner.MatchExpressions
		key.WriteString("|" + p.ControllerRef().UID)
	}
	if len(merged) == 0 && len(exprs) == 0 {
		return nil, ""
	}
	return &api.LabelSelector{MatchLabels: merged, MatchExpressions: exprs}, key.String()
}

// ownerSelector is the selector of the pod's controlling ReplicaSet or
// StatefulSet (apps/v1), if cached.
func (s *Scheduler) ownerSelector(p *api.Pod) *api.LabelSelector {
	ref := p.ControllerRef()
	if ref == nil || ref.APIVersion != "apps/v1" {
		return nil
	}
	switch ref.Kind {
	case api.KindReplicaSet:
		if rs, ok := informer.Get[*api.ReplicaSet](s.Informer, api.Key{Kind: api.KindReplicaSet, Namespace: p.Namespace, Name: ref.Name}); ok {
			return rs.Spec.Selector
		}
	case api.KindStatefulSet:
		if set, ok := informer.Get[*api.StatefulSet](s.Informer, api.Key{Kind: api.KindStatefulSet, Namespace: p.Namespace, Name: ref.Name}); ok {
			return set.Spec.Selector
		}
	}
	return nil
}

// selectsLabels is a Service's selector matching labels (a nil one
// selects nothing).
func selectsLabels(sel, labels map[string]string) bool {
	if len(sel) == 0 {
		return false
	}
	for k, v := range sel {
		if w, ok := labels[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// matching counts the pods accounted on a node that selector id selects,
// in ns, not terminating (countPodsMatchSelector); the count is cached on
// the node and kept up to date as pods are added and removed.
func (s *Scheduler) matching(info *nodeInfo, id int32, ns string) int64 {
	if int(id) < len(info.spread) && info.spread[id] != nil {
		return info.spread[id].n
	}
	c := &spreadCount{sel: s.selectors[id], ns: ns}
	for _, p := range info.accounted {
		if c.counts(p) {
			c.n++
		}
	}
	if int(id) >= len(info.spread) {
		info.spread = append(info.spread, make([]*spreadCount, int(id)+1-len(info.spread))...)
	}
	info.spread[id] = c
	return c.n
}

// selectorID numbers a default-spreading selector by its key, so that a
// node finds its cached count by index, and converts it once for every
// node (s.selectors[id]).
func (s *Scheduler) selectorID(key string, sel *api.LabelSelector) int32 {
	id, ok := s.selectorIDs[key]
	if !ok {
		id = int32(len(s.selectorIDs))
		s.selectorIDs[key] = id
		s.selectors = append(s.selectors, sel.AsSelector())
	}
	return id
}

// spreadScores is PodTopologySpread's PreScore, Score and NormalizeScore
// for the feasible nodes: fewer matching pods in a node's domains score
// higher, 0 to 100. A pod with constraints of its own is scored by its
// ScheduleAnyway ones (explicitSpreadScores); any other by the system
// default constraints. It returns nil when the plugin skips (no
// ScheduleAnyway constraint, or no default selector).
func (s *Scheduler) spreadScores(p *api.Pod, feasible []*nodeInfo) []int64 {
	if len(p.Spec.TopologySpreadConstraints) > 0 {
		return s.explicitSpreadScores(p, feasible)
	}
	sel, key := s.defaultSelector(p)
	if sel == nil || len(feasible) == 0 {
		return nil
	}
	id := s.selectorID(key, sel)
	raw := sized(s.room.raw, len(feasible))
	s.room.raw = raw
	for _, c := range systemDefaultConstraints {
		if c.key == labelHostname {
			weight := math.Log(float64(len(feasible) + 2))
			for i, info := range feasible {
				if _, ok := info.label(c.key); ok {
					raw[i] += float64(s.matching(info, id, p.Namespace))*weight + float64(c.maxSkew-1)
				}
			}
			continue
		}
		s.addDomainScores(p, feasible, raw, c.key, c.maxSkew, id)
	}
	s.room.spread = sized(s.room.spread, len(raw))
	return normalizeSpread(raw, s.room.spread)
}

// addDomainScores scores a topology other than the node itself: the
// feasible nodes' values of the key (a missing label is the value "") are
// the domains; every node that matches the pod's required node affinity
// (the default NodeInclusionPolicy) adds its matching pods to its domain; a
// feasible node carrying the label scores its domain's count.
func (s *Scheduler) addDomainScores(p *api.Pod, feasible []*nodeInfo, raw []float64, topoKey string, maxSkew int32, id int32) {
	labelled := false
	for _, info := range feasible {
		if _, ok := info.label(topoKey); ok {
			labelled = true
			break
		}
	}
	if !labelled {
		return // no feasible node would score this constraint
	}
	domains := map[string]int64{}
	for _, info := range feasible {
		v, _ := info.label(topoKey)
		domains[v] = 0
	}
	for _, info := range s.order {
		if info.node == nil || !selectsNode(p, info.node) {
			continue
		}
		v, _ := info.label(topoKey)
		if _, ok := domains[v]; ok {
			domains[v] += s.matching(info, id, p.Namespace)
		}
	}
	weight := math.Log(float64(len(domains) + 2))
	for i, info := range feasible {
		if v, ok := info.label(topoKey); ok {
			raw[i] += float64(domains[v])*weight + float64(maxSkew-1)
		}
	}
}

// selectsNode is the default NodeInclusionPolicy (nodeAffinityPolicy
// Honor): a node counts when the pod's required node affinity, its
// nodeSelector included, matches it (matchNodeInclusionPolicies).
func selectsNode(p *api.Pod, n *api.Node) bool { return p.Spec.RequiredNodeAffinity().Match(n) }

// normalizeSpread is NormalizeScore: rounded raw scores mapped so the
// fewest matching pods get 100, written to scores (as long as raw).
func normalizeSpread(raw []float64, scores []int64) []int64 {
	minScore, maxScore := int64(math.MaxInt64), int64(0)
	for i, r := range raw {
		scores[i] = int64(math.Round(r))
		minScore = min(minScore, scores[i])
		maxScore = max(maxScore, scores[i])
	}
	for i, sc := range scores {
		if maxScore == 0 {
			scores[i] = maxNodeScore
			continue
		}
		scores[i] = maxNodeScore * (maxScore + minScore - sc) / maxScore
	}
	return scores
}
