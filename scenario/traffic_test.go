package scenario

import (
	"errors"
	"strings"
	"testing"
)

func trafficDoc(item string) string {
	return base + "---\napiVersion: stateflow/v1alpha1\nkind: Scenario\nspec:\n  kubectl: {namespace: shop}\n  traffic:\n  - " + item + "\n"
}

// TestTrafficDefaults: the Service in the console's namespace, the first
// port, 2 minutes from 0s, reported every second, from every node.
func TestTrafficDefaults(t *testing.T) {
	sc, err := Parse([]byte(trafficDoc("{service: web, rps: 25}")))
	if err != nil {
		t.Fatal(err)
	}
	s := sc.Config.Traffic[0]
	if s.Service.String() != "Service/shop/web" || s.Port != "" || s.RPS != 25 || s.From != 0 || s.Until != 120_000 || s.Interval != 1000 || len(s.Nodes) != 0 {
		t.Fatalf("%+v", s)
	}
	sc, err = Parse([]byte(trafficDoc("{service: web, namespace: prod, port: 8443, rps: 3, from: 10s, until: 15s, interval: 250ms, nodes: [node-2]}")))
	if err != nil {
		t.Fatal(err)
	}
	if s := sc.Config.Traffic[0]; s.Service.String() != "Service/prod/web" || s.Port != "8443" || s.From != 10_000 || s.Until != 15_000 || s.Interval != 250 || s.Nodes[0] != "node-2" {
		t.Fatalf("%+v", s)
	}
}

// Each bad traffic stream is refused at its line and column.
func TestTrafficErrors(t *testing.T) {
	for _, tc := range []struct{ item, want string }{
		{"{rps: 5}", "line 22:5: spec.traffic[0]: service: Required value"},
		{"{service: web, rps: 0}", "line 22:25: spec.traffic[0].rps: Invalid value: 0: must be between 1 and 10000 requests per second"},
		{"{service: web, rps: 20000}", "spec.traffic[0].rps: Invalid value: 20000"},
		{"{service: web, rps: 5, from: 10s, until: 5s}", `line 22:46: spec.traffic[0].until: Invalid value: "5s": must be later than from (10.000s)`},
		{"{service: web, rps: 5, interval: 10ms}", `spec.traffic[0].interval: Invalid value: "10ms": must be at least 100ms`},
		{"{service: web, rps: 5, from: soon}", `spec.traffic[0].from: "soon" is not a duration`},
		{"{service: web, rps: 5, port: 0}", "spec.traffic[0].port: Invalid value: 0: must be between 1 and 65535, inclusive"},
		{"{service: web, rps: 5, nodes: [node-9]}", `line 22:36: spec.traffic[0].nodes[0]: nodes "node-9" not found (the scenario's nodes are node-1, node-2, node-3)`},
	} {
		t.Run(tc.item, func(t *testing.T) {
			_, err := Parse([]byte(trafficDoc(tc.item)))
			var errs Errors
			if !errors.As(err, &errs) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v\nwant it to contain %q", err, tc.want)
			}
		})
	}
}
