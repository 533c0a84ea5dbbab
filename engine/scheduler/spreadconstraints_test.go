package scheduler

import (
	"slices"
	"strconv"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

// zoned is a scheduler that knows nodes name→zone ("" for no zone label),
// with web pods already on some.
func zoned(zones map[string]string, webPods map[string]int) *Scheduler {
	s := New()
	for name, zone := range zones {
		n := node(name, "4")
		n.Labels = map[string]string{labelHostname: name}
		if zone != "" {
			n.Labels[labelZone] = zone
		}
		s.observeNode(apiserver.WatchEvent{Type: apiserver.Added, Object: n}, n)
	}
	for name, count := range webPods {
		for i := range count {
			p := webPod(nil)
			p.Name = name + "-web-" + strconv.Itoa(i)
			p.Spec.NodeName = name
			s.nodeInfo(name).add(p, usageOf(p), 1)
		}
	}
	return s
}

func webPod(cs []api.TopologySpreadConstraint) *api.Pod {
	p := cpuPod("100m")
	p.Namespace, p.Name, p.Labels = "default", "new", map[string]string{"app": "web"}
	p.Spec.TopologySpreadConstraints = cs
	return p
}

func zoneConstraint(action string, maxSkew int32, minDomains *int32) api.TopologySpreadConstraint {
	return api.TopologySpreadConstraint{MaxSkew: maxSkew, TopologyKey: labelZone, WhenUnsatisfiable: action,
		LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, MinDomains: minDomains}
}

// DoNotSchedule: a node's zone may not hold more than maxSkew above the
// emptiest zone (counting the pod itself); a node without the zone label
// never fits; fewer zones than minDomains make the minimum 0.
func TestSpreadConstraintFilter(t *testing.T) {
	for _, tc := range []struct {
		name       string
		pods       map[string]int
		minDomains *int32
		want       map[string]string // node → its reason ("" fits)
	}{
		{"a zone one ahead", map[string]int{"a1": 1}, nil,
			map[string]string{"a1": "node(s) didn't match pod topology spread constraints", "b1": "", "c1": "node(s) didn't match pod topology spread constraints (missing required label)"}},
		{"balanced", map[string]int{"a1": 1, "b1": 1}, nil, map[string]string{"a1": "", "b1": "", "c1": "node(s) didn't match pod topology spread constraints (missing required label)"}},
		{"balanced, but fewer zones than minDomains", map[string]int{"a1": 1, "b1": 1}, api.Int32(3),
			map[string]string{"a1": "node(s) didn't match pod topology spread constraints", "b1": "node(s) didn't match pod topology spread constraints", "c1": "node(s) didn't match pod topology spread constraints (missing required label)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := zoned(map[string]string{"a1": "zone-a", "b1": "zone-b", "c1": ""}, tc.pods)
			p := webPod([]api.TopologySpreadConstraint{zoneConstraint(api.DoNotSchedule, 1, tc.minDomains)})
			for _, v := range s.Evaluate(p) {
				got := ""
				if v.Reasons != nil {
					got = v.Reasons[0]
				}
				if got != tc.want[v.Node] {
					t.Errorf("%s: %q, want %q", v.Node, got, tc.want[v.Node])
				}
			}
		})
	}
}

// ScheduleAnyway, computed by hand from scoring.go: two zones among the
// feasible nodes weigh ln(2+2); zone-a holds 2 web pods, zone-b 1; a1
// and a2 score round(2·1.386) = 3, b1 round(1.386) = 1; normalised,
// 100·(3+1−3)/3 = 33 and 100·(3+1−1)/3 = 100. A node without the zone
// label is ignored: 0.
func TestSpreadConstraintScores(t *testing.T) {
	s := zoned(map[string]string{"a1": "zone-a", "a2": "zone-a", "b1": "zone-b", "x1": ""}, map[string]int{"a1": 2, "b1": 1})
	p := webPod([]api.TopologySpreadConstraint{zoneConstraint(api.ScheduleAnyway, 1, nil)})
	var feasible []*nodeInfo
	for _, name := range []string{"a1", "a2", "b1", "x1"} {
		feasible = append(feasible, s.info[name])
	}
	if got, want := s.spreadScores(p, feasible), []int64{33, 33, 100, 0}; !slices.Equal(got, want) {
		t.Fatalf("scores %v, want %v", got, want)
	}
	// Only DoNotSchedule constraints: the plugin does not score, and the
	// system defaults do not apply either.
	p.Spec.TopologySpreadConstraints = []api.TopologySpreadConstraint{zoneConstraint(api.DoNotSchedule, 1, nil)}
	if got := s.spreadScores(p, feasible); got != nil {
		t.Fatalf("scores %v, want none", got)
	}
}
