package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// stateflow why prints the chain of a field, as text or JSON, once the
// scenario settles or at a tick.
func TestWhyCommand(t *testing.T) {
	out, stderr, err := runCLI2(t, "", "why", "../../examples/scale-up-down.yaml", "deploy/web", ".status.replicas")
	if err != nil || stderr != "" {
		t.Fatalf("%v: %s", err, stderr)
	}
	for _, want := range []string{
		"deploy/web status.replicas = 2 at tick",
		"status.replicas: 6 → 2",
		"kubectl scale deployment/web --replicas=2",
		"the user's action: where this chain begins",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("want %q in:\n%s", want, out)
		}
	}
	out, _, err = runCLI2(t, "", "why", "../../examples/scale-up-down.yaml", "deploy/web", "status.replicas", "--at", "20", "-o", "json")
	var c struct {
		At    int `json:"at"`
		Value int `json:"value"`
		Steps []struct {
			Ticks []int `json:"ticks"`
		} `json:"steps"`
	}
	if err != nil || json.Unmarshal([]byte(out), &c) != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if c.At != 20 || c.Value != 3 || len(c.Steps) == 0 || c.Steps[0].Ticks[0] > 20 {
		t.Errorf("at 20: %+v", c)
	}
}

func TestWhyCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"why", "../../examples/scale-up-down.yaml", "deploy/web"}, 2, "why needs FILE, TYPE/NAME and FIELD"},
		{[]string{"why", "../../examples/scale-up-down.yaml", "deploy/web", ".status", "--at", "x"}, 2, `--at: "x" is not a tick number`},
		{[]string{"why", "../../examples/scale-up-down.yaml", "deploy/web", ".status", "--at", "99999"}, 1, "the scenario ends at tick"},
		{[]string{"why", "../../examples/scale-up-down.yaml", "deploy/nope", ".status"}, 1, `deployments.apps "nope" not found`},
	} {
		out, err := runCLI(t, "", tc.args...)
		if exitCode(err) != tc.code || !strings.Contains(out+errText(err), tc.want) {
			t.Errorf("%v: exit %d, %q %v; want %d, %q", tc.args, exitCode(err), out, err, tc.code, tc.want)
		}
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
