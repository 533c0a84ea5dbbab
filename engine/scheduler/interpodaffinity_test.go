package scheduler

import (
	"maps"
	"slices"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
)

func hostTerm(app string) api.PodAffinityTerm {
	return api.PodAffinityTerm{LabelSelector: &api.LabelSelector{MatchLabels: map[string]string{"app": app}}, TopologyKey: labelHostname}
}

// labelledPod is a pod of app in default, with the affinity given, placed
// on node (when not "").
func labelledPod(name, app, node string, a *api.Affinity) *api.Pod {
	p := cpuPod("100m")
	p.Namespace, p.Name, p.Labels = "default", name, map[string]string{"app": app}
	p.Spec.NodeName, p.Spec.Affinity = node, a
	return p
}

func hosts(names ...string) *Scheduler {
	s := New()
	for _, name := range names {
		n := node(name, "4")
		n.Labels = map[string]string{labelHostname: name}
		s.observeNode(apiserver.WatchEvent{Type: apiserver.Added, Object: n}, n)
	}
	return s
}

func place(s *Scheduler, ps ...*api.Pod) {
	for _, p := range ps {
		s.account(s.nodeInfo(p.Spec.NodeName), p, 1)
	}
}

func reasonsByNode(s *Scheduler, p *api.Pod) map[string]string {
	out := map[string]string{}
	for _, v := range s.Evaluate(p) {
		if v.Reasons != nil {
			out[v.Node] = v.Reasons[0]
		}
	}
	return out
}

func TestInterPodAffinityFilter(t *testing.T) {
	anti := &api.Affinity{PodAntiAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{hostTerm("web")}}}
	near := &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{hostTerm("db")}}}
	self := &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{hostTerm("web")}}}

	// The pod's anti-affinity: not beside a web pod.
	s := hosts("a", "b")
	place(s, labelledPod("w1", "web", "a", nil))
	if got := reasonsByNode(s, labelledPod("new", "web", "", anti)); !maps.Equal(got, map[string]string{"a": "node(s) didn't match pod anti-affinity rules"}) {
		t.Errorf("anti-affinity: %v", got)
	}
	// A placed pod's anti-affinity keeps the pod away, though it has none.
	s = hosts("a", "b")
	place(s, labelledPod("w1", "web", "a", anti))
	if got := reasonsByNode(s, labelledPod("new", "web", "", nil)); !maps.Equal(got, map[string]string{"a": "node(s) didn't satisfy existing pods anti-affinity rules"}) {
		t.Errorf("existing anti-affinity: %v", got)
	}
	// Affinity: only beside a db pod; with none anywhere, nowhere.
	s = hosts("a", "b")
	place(s, labelledPod("d1", "db", "b", nil))
	if got := reasonsByNode(s, labelledPod("new", "web", "", near)); !maps.Equal(got, map[string]string{"a": "node(s) didn't match pod affinity rules"}) {
		t.Errorf("affinity: %v", got)
	}
	s = hosts("a", "b")
	if got := reasonsByNode(s, labelledPod("new", "web", "", near)); !maps.Equal(got, map[string]string{"a": "node(s) didn't match pod affinity rules", "b": "node(s) didn't match pod affinity rules"}) {
		t.Errorf("affinity with no db pod: %v", got)
	}
	// The first of a series with affinity to itself goes anywhere.
	if got := reasonsByNode(s, labelledPod("new", "web", "", self)); len(got) != 0 {
		t.Errorf("the first self-affine pod: %v", got)
	}
}

// Scores, computed by hand from scoring.go: the pod's preferred
// anti-affinity (weight 10) to web pods takes 10 from the domains of w1
// (node a) and w2 (node b); w1's required affinity to db pods, which the
// pod is, adds hardPodAffinityWeight 1 to a. Sums −9, −10, 0, scaled
// between −10 and 0: 10, 0, 100.
func TestInterPodAffinityScores(t *testing.T) {
	s := hosts("a", "b", "c")
	wantsDB := &api.Affinity{PodAffinity: &api.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []api.PodAffinityTerm{hostTerm("db")}}}
	place(s, labelledPod("w1", "web", "a", wantsDB), labelledPod("w2", "web", "b", nil))
	p := labelledPod("new", "db", "", &api.Affinity{PodAntiAffinity: &api.PodAffinity{
		PreferredDuringSchedulingIgnoredDuringExecution: []api.WeightedPodAffinityTerm{{Weight: 10, PodAffinityTerm: hostTerm("web")}}}})
	feasible := []*nodeInfo{s.info["a"], s.info["b"], s.info["c"]}
	if got, want := s.podAffinityScores(p, feasible), []int64{10, 0, 100}; !slices.Equal(got, want) {
		t.Fatalf("scores %v, want %v", got, want)
	}
	// Nothing with pod affinity anywhere, and none of its own: skipped.
	s = hosts("a", "b")
	place(s, labelledPod("w2", "web", "b", nil))
	if got := s.podAffinityScores(labelledPod("new", "db", "", nil), []*nodeInfo{s.info["a"], s.info["b"]}); got != nil {
		t.Fatalf("scores %v, want none", got)
	}
}
