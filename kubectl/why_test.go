package kubectl_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/provenance"
)

// Stateflow's why command in the console: the chain as text, or as JSON
// for tools, at the current tick or an earlier one.
func TestWhyCommand(t *testing.T) {
	s := seedSession(t, true)
	res := run(t, s, "why deploy/codartium-api .status.availableReplicas")
	if res.Code != 0 || res.Stderr != "" {
		t.Fatalf("exit %d: %s", res.Code, res.Stderr)
	}
	lines := strings.Split(strings.TrimSpace(res.Stdout), "\n")
	for i, want := range []string{
		"deploy/codartium-api status.availableReplicas = 3 at tick",
		"deployment-controller  ↑ deploy/codartium-api: summarised its ReplicaSets: 3/3 ready",
		"status.availableReplicas: <none> → 3",
		"replicaset-controller  ↑ rs/codartium-api-",
	} {
		if i >= len(lines) || !strings.Contains(lines[i], want) {
			t.Errorf("line %d: want it to contain %q\n%s", i, want, res.Stdout)
		}
	}
	if !strings.Contains(res.Stdout, "kubectl apply -f: deployment.apps/codartium-api created") || !strings.Contains(res.Stdout, "the user's action") {
		t.Errorf("the chain does not reach the user's apply:\n%s", res.Stdout)
	}

	// -o json is the chain for tools; --at asks at an earlier tick, when
	// no pod was available yet.
	res = run(t, s, "why deployment/codartium-api status.availableReplicas --at 20 -o json")
	var c provenance.Chain
	if err := json.Unmarshal([]byte(res.Stdout), &c); err != nil || res.Code != 0 {
		t.Fatalf("exit %d, %v: %s%s", res.Code, err, res.Stdout, res.Stderr)
	}
	if c.At != 20 || c.Set || c.Object != "Deployment/codartium-team/codartium-api" {
		t.Errorf("at 20: %+v", c)
	}

	// A pod's node: the scheduler's bind, from the ReplicaSet's create.
	pod := strings.Fields(run(t, s, "get pods -o name").Stdout)[0]
	res = run(t, s, "why "+pod+" '{.spec.nodeName}'")
	if !strings.Contains(res.Stdout, "scheduler") || !strings.Contains(res.Stdout, "spec.nodeName: <none> → node-") {
		t.Errorf("why %s spec.nodeName:\n%s%s", pod, res.Stdout, res.Stderr)
	}
}

func TestWhyCommandErrors(t *testing.T) {
	if res := run(t, seedSession(t, false), "why deploy/codartium-api .status"); res.Code != 1 || !strings.Contains(res.Stderr, "nothing has happened yet") {
		t.Errorf("at tick 0: exit %d, %q", res.Code, res.Stderr)
	}
	s := seedSession(t, true)
	for _, tc := range []struct{ line, want string }{
		{"why", "error: needs an object and a field, as in: why deploy/web .status.availableReplicas\nUsage: why TYPE/NAME FIELD"},
		{"why deploy/codartium-api", "needs an object and a field"},
		{"why codartium-api .status", `"codartium-api" is not TYPE/NAME`},
		{"why widget/x .status", `the server doesn't have a resource type "widget"`},
		{"why deploy/nope .status.replicas", `Error from server (NotFound): deployments.apps "nope" not found`},
		{"why deploy/codartium-api .status --at 99999", "--at: tick 99999 has not happened yet"},
		{"why deploy/codartium-api .status --at x", `--at: "x" is not a tick number`},
		{"why deploy/codartium-api .status -o yaml", `-o: unknown output format "yaml"`},
		{"why deploy/codartium-api .", `"." is not a field path`},
		{"kubectl why deploy/codartium-api .status", `"why" is Stateflow's own command, not kubectl's: type it without kubectl`},
	} {
		res := run(t, s, tc.line)
		if res.Code != 1 || !strings.Contains(res.Stderr, tc.want) || res.Stdout != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want %q", tc.line, res.Code, res.Stdout, res.Stderr, tc.want)
		}
	}
}
