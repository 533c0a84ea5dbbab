package scheduler

import (
	"math"

	"github.com/stateflow/stateflow/engine/api"
)

// This file is the InterPodAffinity plugin (interpodaffinity/filtering.go
// and scoring.go, v1.34): a pod's required affinity and anti-affinity, and
// the required anti-affinity of the pods already placed, filter nodes; the
// preferred terms of both, and the placed pods' required affinity (weight
// hardPodAffinityWeight, 1), score them.

// interPodAffinityWeight is the plugin's score weight in the default
// profile; hardPodAffinityWeight its argument's default.
const (
	interPodAffinityWeight = 2
	hardPodAffinityWeight  = 1
)

// hasPodAffinity reports whether p has pod affinity or anti-affinity
// (framework.PodInfo's podWithAffinity): only such placed pods matter to
// others' filtering and scoring, so nodes count them.
func hasPodAffinity(p *api.Pod) bool {
	a := p.Spec.Affinity
	return a != nil && (a.PodAffinity != nil || a.PodAntiAffinity != nil)
}

// topologyPair is a node label: a topology key and its value.
type topologyPair struct{ key, value string }

// countOn adds v to the pair of n's value of key, if n has the label.
func countOn(m map[topologyPair]int, n *api.Node, key string, v int) {
	if value, ok := n.Labels[key]; ok {
		m[topologyPair{key, value}] += v
	}
}

// matchesAll is podMatchesAllAffinityTerms: false without terms.
func matchesAll(terms []api.AffinityTerm, p *api.Pod) bool {
	if len(terms) == 0 {
		return false
	}
	for i := range terms {
		if !terms[i].Matches(p) {
			return false
		}
	}
	return true
}

// podAffinityState is the plugin's PreFilter state.
type podAffinityState struct {
	terms        api.PodAffinityTerms
	selfMatch    bool                 // the pod matches all its own required affinity terms
	existingAnti map[topologyPair]int // placed pods' required anti-affinity terms the pod matches
	affinity     map[topologyPair]int // placed pods that match all the pod's required affinity terms
	anti         map[topologyPair]int // placed pods that match one of its required anti-affinity terms
}

// podAffinityOf is PreFilter; nil when the plugin skips (no required
// term of the pod's and none of a placed pod's that it matches).
func (s *Scheduler) podAffinityOf(p *api.Pod) *podAffinityState {
	terms := api.AffinityTermsOf(p)
	required := len(terms.Required)+len(terms.RequiredAnti) > 0
	if !required && !s.anyAffinityPods() {
		return nil // most pods, in most clusters: nothing to read
	}
	st := &podAffinityState{terms: terms, existingAnti: map[topologyPair]int{}, affinity: map[topologyPair]int{}, anti: map[topologyPair]int{}}
	st.selfMatch = matchesAll(st.terms.Required, p)
	for _, info := range s.order {
		if info.node == nil || info.affinityPods == 0 && !required {
			continue
		}
		for _, q := range info.accounted {
			if info.affinityPods > 0 && hasPodAffinity(q) {
				for _, t := range api.AffinityTermsOf(q).RequiredAnti {
					if t.Matches(p) {
						countOn(st.existingAnti, info.node, t.Key, 1)
					}
				}
			}
			if !required {
				continue
			}
			if matchesAll(st.terms.Required, q) {
				for _, t := range st.terms.Required {
					countOn(st.affinity, info.node, t.Key, 1)
				}
			}
			for _, t := range st.terms.RequiredAnti {
				if t.Matches(q) {
					countOn(st.anti, info.node, t.Key, 1)
				}
			}
		}
	}
	if len(st.existingAnti) == 0 && !required {
		return nil
	}
	return st
}

// anyAffinityPods reports whether a node holds a pod with pod affinity.
func (s *Scheduler) anyAffinityPods() bool { return s.affinityPods > 0 }

// filter is the plugin's Filter on node n.
func (st *podAffinityState) filter(n *api.Node) status {
	if st == nil {
		return status{}
	}
	podsExist := true
	for _, t := range st.terms.Required {
		v, ok := n.Labels[t.Key]
		if !ok {
			return status{reasons: reasonPodAffinity, unresolvable: true} // every topology label must be there
		}
		if st.affinity[topologyPair{t.Key, v}] <= 0 {
			podsExist = false
		}
	}
	// The first of a series of pods with affinity to themselves may go
	// anywhere with the labels, when no other pod matches.
	if !podsExist && !(len(st.affinity) == 0 && st.selfMatch) {
		return status{reasons: reasonPodAffinity, unresolvable: true}
	}
	for _, t := range st.terms.RequiredAnti {
		if v, ok := n.Labels[t.Key]; ok && st.anti[topologyPair{t.Key, v}] > 0 {
			return status{reasons: reasonPodAntiAffinity}
		}
	}
	if len(st.existingAnti) > 0 {
		for k, v := range n.Labels {
			if st.existingAnti[topologyPair{k, v}] > 0 {
				return status{reasons: reasonExistingAntiAffinity}
			}
		}
	}
	return status{}
}

// podAffinityScores is PreScore, Score and NormalizeScore: each placed pod
// adds, to its node's domain of a term's key, the weight of each of the
// pod's preferred affinity terms it matches (less each anti-affinity
// one), and of each of its own terms the pod matches; a node scores the
// sum over its labels, scaled between the lowest and the highest to
// 0–100. Nil when the plugin skips (nothing matched).
func (s *Scheduler) podAffinityScores(p *api.Pod, feasible []*nodeInfo) []int64 {
	terms := api.AffinityTermsOf(p)
	preferred := len(terms.Preferred)+len(terms.PreferredAnti) > 0
	if !preferred && !s.anyAffinityPods() {
		return nil
	}
	topo := map[topologyPair]int64{}
	add := func(ts []api.AffinityTerm, q *api.Pod, n *api.Node, sign int64) {
		for i := range ts {
			if v, ok := n.Labels[ts[i].Key]; ok && ts[i].Matches(q) {
				topo[topologyPair{ts[i].Key, v}] += sign * int64(ts[i].Weight)
			}
		}
	}
	for _, info := range s.order {
		n := info.node
		if n == nil || len(n.Labels) == 0 || !preferred && info.affinityPods == 0 {
			continue
		}
		for _, q := range info.accounted {
			add(terms.Preferred, q, n, 1)
			add(terms.PreferredAnti, q, n, -1)
			if hasPodAffinity(q) {
				qt := api.AffinityTermsOf(q)
				for i := range qt.Required {
					qt.Required[i].Weight = hardPodAffinityWeight
				}
				add(qt.Required, p, n, 1)
				add(qt.Preferred, p, n, 1)
				add(qt.PreferredAnti, p, n, -1)
			}
		}
	}
	if len(topo) == 0 {
		return nil
	}
	scores := sized(s.room.affinity, len(feasible))
	s.room.affinity = scores
	minScore, maxScore := int64(math.MaxInt64), int64(math.MinInt64)
	for i, info := range feasible {
		for k, v := range info.node.Labels {
			scores[i] += topo[topologyPair{k, v}]
		}
		minScore, maxScore = min(minScore, scores[i]), max(maxScore, scores[i])
	}
	for i, sc := range scores {
		if maxScore > minScore {
			scores[i] = int64(float64(maxNodeScore) * (float64(sc-minScore) / float64(maxScore-minScore)))
		} else {
			scores[i] = 0
		}
	}
	return scores
}
