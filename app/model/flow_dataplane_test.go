package model

import (
	"github.com/stateflow/stateflow/engine/trace"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
)

// The data plane on the page: a kube-proxy sync is an arrow from the
// Service down into its node; each Service box counts what the nodes'
// rules forward to and the last interval of traffic, turns red while
// requests fail (web, without preStop, during its rollout; never
// web-prestop), and notes a node whose rules still list a pod the
// slices no longer list as ready; its sparkline shows the lost requests
// in red, and web-prestop's never does.
func TestFlowDrawsRulesAndTraffic(t *testing.T) {
	ex, ok := examples.Get("rollout-traffic")
	if !ok {
		t.Fatal("no rollout-traffic example")
	}
	m, err := New(ex.Source)
	if err != nil {
		t.Fatal(err)
	}
	arrows, red, stale, sparkRed := 0, 0, 0, false
	for range 2000 {
		if !m.Step() {
			break
		}
		tk := m.Current()
		f := m.Flow(wide)
		web, prestop := box(f, api.KindService, "web"), box(f, api.KindService, "web-prestop")
		if web.Kind == "" || prestop.Kind == "" {
			continue
		}
		if len(tk.Rules()) > 0 {
			node := box(f, api.KindNode, tk.Host)
			for _, a := range f.Arrows {
				if a.Class == trace.Realize && a.Y1 == web.Y+web.H && a.X1 == web.X+web.W/2 && a.X2 == node.X+node.W/2 && a.Y2 == node.Y {
					arrows++
				}
			}
			if !node.Actor || web.Highlight != trace.Realize {
				t.Errorf("tick %d: the node (actor %v) and the Service (highlight %q) of a sync", tk.Seq, node.Actor, web.Highlight)
			}
		}
		if strings.Contains(strings.Join(prestop.Lines, "|"), "failed") {
			t.Errorf("tick %d: web-prestop lost requests: %v", tk.Seq, prestop.Lines)
		}
		if strings.Contains(strings.Join(web.Lines, "|"), "failed") {
			red++
			if web.Status != "bad" {
				t.Errorf("tick %d: web loses requests but is drawn %q", tk.Seq, web.Status)
			}
		}
		if strings.Contains(web.Stale, "still forwards to") {
			stale++
		}
		for _, bar := range prestop.Spark {
			if bar.Failed > 0 {
				t.Errorf("tick %d: web-prestop's sparkline shows lost requests", tk.Seq)
			}
		}
		for _, bar := range web.Spark {
			sparkRed = sparkRed || bar.Failed > 0
		}
		if len(web.Spark) > SparkBars || len(web.Spark) > 0 && web.H < BoxHeight(1+len(web.Lines))+SparkH {
			t.Errorf("tick %d: %d bars in a box %d high", tk.Seq, len(web.Spark), web.H)
		}
		if (rect{web.X, web.Y, web.X + web.W, web.Y + web.H}).overlaps(rect{prestop.X, prestop.Y, prestop.X + prestop.W, prestop.Y + prestop.H}) {
			t.Fatalf("tick %d: the Service boxes overlap", tk.Seq)
		}
	}
	if arrows == 0 || red == 0 || stale == 0 || !sparkRed {
		t.Errorf("%d rules arrows, %d ticks with web red, %d with a stale-rules note, red bars in its sparkline %v: want each", arrows, red, stale, sparkRed)
	}
	m.RunUntilSettled()
	f := m.Flow(wide)
	got := strings.Join(box(f, api.KindService, "web-prestop").Lines, "|")
	if !strings.Contains(got, "rules: 3 endpoints on all 3 nodes") || !strings.Contains(got, "traffic 40/40 ok") {
		t.Errorf("web-prestop at the end: %s", got)
	}
	if n := len(box(f, api.KindService, "web").Spark); n != SparkBars {
		t.Errorf("web's sparkline has %d bars at the end, want the last %d intervals", n, SparkBars)
	}
}

// The inspector shows, for a Service, where each node's kube-proxy sends
// a connection: the pods of its rules, by name.
func TestInspectorShowsEachNodesRules(t *testing.T) {
	m := settledModel(t, "rollout-traffic")
	m.Select(api.Key{Kind: api.KindService, Namespace: "default", Name: "web"})
	in := m.Inspect()
	if len(in.Rules) != 3 {
		t.Fatalf("%d rows of rules, want one per node: %+v", len(in.Rules), in.Rules)
	}
	for _, r := range in.Rules {
		if !r.OK || len(r.Targets) != 3 || !strings.HasPrefix(r.Targets[0], "web-") || !strings.Contains(r.Targets[0], ":8080)") {
			t.Errorf("%s forwards to %v, want the 3 web pods by name with their addresses", r.Node, r.Targets)
		}
	}
	m.Select(api.Key{Kind: api.KindDeployment, Namespace: "default", Name: "web"})
	if in := m.Inspect(); len(in.Rules) != 0 {
		t.Errorf("a Deployment has no rules, got %+v", in.Rules)
	}
}
