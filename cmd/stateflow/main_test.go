package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/scenario"
)

const seed = "../../examples/codartium-api.yaml"

func runCLI(t *testing.T, stdin string, args ...string) (string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String() + errOut.String(), err
}

func exitCode(err error) int {
	var ee *exitError
	if err == nil {
		return 0
	}
	if errors.As(err, &ee) {
		return ee.code
	}
	return 1
}

// The JSON lines carry the contract's fields, and the run ends with the
// Deployment's status aggregated from below.
func TestRunJSON(t *testing.T) {
	out, err := runCLI(t, "", "run", seed, "--until-settled", "-o", "json")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	classes := map[string]bool{}
	for i, line := range lines {
		var tick struct {
			Tick      int    `json:"tick"`
			Time      *int64 `json:"time"`
			Component string `json:"component"`
			Object    string `json:"object"`
			Effects   []struct {
				Class   string            `json:"class"`
				Object  string            `json:"object"`
				Changes []json.RawMessage `json:"changes"`
				Summary string            `json:"summary"`
			} `json:"effects"`
			Explanation string `json:"explanation"`
		}
		if err := json.Unmarshal([]byte(line), &tick); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if tick.Tick != i+1 || tick.Time == nil || tick.Component == "" || strings.Count(tick.Object, "/") < 1 || tick.Explanation == "" {
			t.Fatalf("line %d lacks contract fields: %s", i+1, line)
		}
		for _, e := range tick.Effects {
			if e.Class == "" || e.Object == "" || e.Summary == "" || e.Changes == nil {
				t.Fatalf("line %d: effect lacks fields: %s", i+1, line)
			}
			classes[e.Class] = true
		}
	}
	for _, c := range []string{"translate", "bind", "realize", "aggregate", "event"} {
		if !classes[c] {
			t.Errorf("no %s effect in the seed trace", c)
		}
	}
	if !strings.Contains(out, `"path":"spec.nodeName","from":null,"to":"node-`) {
		t.Error("the bind effect should show spec.nodeName changing")
	}
}

func TestRunTextAndStdin(t *testing.T) {
	src, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	out, err := runCLI(t, string(src), "run", "-", "--ticks", "8")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 8 || !strings.Contains(lines[0], "kubectl") || !strings.Contains(out, "created rs/codartium-api-") {
		t.Fatalf("output:\n%s", out)
	}
	out, err = runCLI(t, "", "run", seed, "--until", "3s")
	if err != nil || !strings.Contains(out, "pulled codartium/api:1.4.2") || strings.Contains(out, "readiness probe of api succeeded") {
		t.Fatalf("--until 3s: %v\n%s", err, out)
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := dir + "/bad.yaml"
	os.WriteFile(bad, []byte("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: -1\n  selector: {matchLabels: {a: b}}\n  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: x:1}]}}\n"), 0o644)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{nil, 2, "missing command"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{[]string{"run"}, 2, "run needs exactly one FILE"},
		{[]string{"run", seed, "--ticks", "x"}, 2, "--ticks"},
		{[]string{"run", seed, "--until", "1s", "--ticks", "3"}, 2, "use only one of"},
		{[]string{"run", seed, "--bogus"}, 2, "unknown flag --bogus"},
		{[]string{"run", seed, "-o", "xml"}, 2, "unknown output format"},
		{[]string{"run", bad}, 1, bad + ":5:13: spec.replicas: Invalid value: -1: must be greater than or equal to 0"},
		{[]string{"run", dir + "/missing.yaml"}, 1, "no such file"},
	} {
		_, err := runCLI(t, "", tc.args...)
		if code := exitCode(err); code != tc.code || err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%v: code %d, err %v; want %d and %q", tc.args, code, err, tc.code, tc.msg)
		}
	}
}

// stateflow kubectl runs the seed document's commands at a chosen moment.
func TestKubectlCommand(t *testing.T) {
	out, err := runCLI(t, "", "kubectl", seed, "--until-settled", "--", "get", "deployment", "codartium-api", "-o", "jsonpath={.status.availableReplicas}")
	if err != nil || out != "3" {
		t.Fatalf("%q %v", out, err)
	}
	out, err = runCLI(t, "", "kubectl", seed, "--at", "5s", "--", "get", "pods")
	if err != nil || !strings.Contains(out, "0/1") || !strings.Contains(out, "Running") {
		t.Fatalf("at 5s the pods run but are not ready yet:\n%s %v", out, err)
	}
	out, err = runCLI(t, "", "kubectl", seed, "--tick", "2", "--", "rollout", "status", "deployment/codartium-api", "--timeout=90s")
	if err != nil || !strings.Contains(out, "successfully rolled out") || !strings.Contains(out, "Waiting for deployment") {
		t.Fatalf("rollout status from tick 2 advances the simulation:\n%s %v", out, err)
	}
	out, err = runCLI(t, "", "kubectl", seed, "--", "get", "deploy", "nope")
	if exitCode(err) != 1 || !strings.Contains(out, `Error from server (NotFound): deployments.apps "nope" not found`) {
		t.Fatalf("%q %v", out, err)
	}
	src, _ := os.ReadFile(seed)
	if out, err := runCLI(t, string(src), "kubectl", "-", "--", "get", "deploy", "-o", "name"); err != nil || out != "deployment.apps/codartium-api\n" {
		t.Fatalf("scenario on standard input: %q %v", out, err)
	}
	if _, err := runCLI(t, "", "kubectl", seed, "get", "pods"); exitCode(err) != 2 {
		t.Fatalf("missing -- must be a usage error: %v", err)
	}
}

// runCLI2 runs the CLI and returns what it wrote to stdout and to stderr.
func runCLI2(t *testing.T, stdin string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), err
}

// kubectl --until-settled shows the cluster as of its last change (the
// rollout ends at 10.650 s), not as of the deployment controller's no-op
// progress-deadline re-check at 601 s: ages count from the settle time.
func TestKubectlUntilSettledIsAtTheLastChange(t *testing.T) {
	for _, args := range [][]string{{"kubectl", seed, "--until-settled", "--", "get", "deploy"}, {"kubectl", seed, "--", "get", "deploy"}} {
		out, errOut, err := runCLI2(t, "", args...)
		if err != nil || errOut != "" || !strings.Contains(out, "codartium-api   3/3     3            3           10s") {
			t.Fatalf("%v:\n%s%s%v", args, out, errOut, err)
		}
	}
	out, _, err := runCLI2(t, "", "kubectl", seed, "--until-settled", "--", "get", "events", "--field-selector", "involvedObject.kind=Pod", "-n", "codartium-team")
	if err != nil || !strings.Contains(out, "\n10s         Normal   Scheduled") || !strings.Contains(out, "\n7s          Normal   Started") {
		t.Fatalf("event ages count from the settle time:\n%s%v", out, err)
	}
}

// A scenario that never settles says why, first, on stderr.
func TestNeverSettlesSaysWhy(t *testing.T) {
	const file = "../../examples/crash-loop.yaml"
	const why = "Never settles: pod api-7755f686bf-rkh4q crashes and restarts (CrashLoopBackOff, back-off 5m0s, 16 restarts). Not settled after 225 ticks"
	out, errOut, err := runCLI2(t, "", "run", file, "--until-settled")
	if exitCode(err) != 1 || !strings.HasPrefix(err.Error(), why) || errOut != "" || strings.Count(out, "\n") != 225 {
		t.Fatalf("run: code %d, err %v, stderr %q, %d lines", exitCode(err), err, errOut, strings.Count(out, "\n"))
	}
	out, errOut, err = runCLI2(t, "", "kubectl", file, "--until-settled", "--", "get", "pods", "-o", "name")
	if err != nil || out != "pod/api-7755f686bf-rkh4q\n" || !strings.HasPrefix(errOut, "warning: "+why) {
		t.Fatalf("kubectl: %v\nstdout %q\nstderr %q", err, out, errOut)
	}
}

// The scenario's warnings go to stderr as FILE:line:column: warning:
// message; stdout is exactly what it is without them.
func TestWarningsOnStderr(t *testing.T) {
	src, err := os.ReadFile(seed)
	if err != nil {
		t.Fatal(err)
	}
	file := t.TempDir() + "/with-service.yaml"
	extra := "---\napiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: api, namespace: codartium-team}\nspec: {}\n"
	if err := os.WriteFile(file, append(src, extra...), 0o644); err != nil {
		t.Fatal(err)
	}
	line := strings.Count(string(src), "\n") + 2
	want := fmt.Sprintf("%s:%d:1: warning: document 4: kind Ingress (networking.k8s.io/v1) is not simulated; it is ignored\n", file, line)
	for _, args := range [][]string{{"run", "FILE", "--ticks", "12"}, {"run", "FILE", "-o", "json"}, {"kubectl", "FILE", "--", "get", "pods"}, {"kubectl", "FILE", "--at", "3s", "--", "get", "rs", "-o", "yaml"}} {
		plain := slices.Clone(args)
		plain[1] = seed
		wantOut, wantErr, err := runCLI2(t, "", plain...)
		if err != nil || wantErr != "" {
			t.Fatalf("%v: %v %q", plain, err, wantErr)
		}
		args[1] = file
		out, errOut, err := runCLI2(t, "", args...)
		if err != nil || out != wantOut || errOut != want {
			t.Errorf("%v: %v\nstderr %q\nwant   %q\nstdout the same: %v", args, err, errOut, want, out == wantOut)
		}
	}
	// From standard input the file is "-".
	_, errOut, err := runCLI2(t, string(src)+extra, "run", "-", "--ticks", "1")
	if err != nil || errOut != fmt.Sprintf("-:%d:1: warning: document 4: kind Ingress (networking.k8s.io/v1) is not simulated; it is ignored\n", line) {
		t.Fatalf("%v %q", err, errOut)
	}
}

// A warning without a column or a line still names the file.
func TestWarningLine(t *testing.T) {
	for _, tc := range []struct {
		d    scenario.Diagnostic
		want string
	}{
		{scenario.Diagnostic{Severity: scenario.Warning, Line: 3, Column: 7, Path: "spec.replicas", Message: "5000 replicas need 5000 pods"}, "f.yaml:3:7: warning: spec.replicas: 5000 replicas need 5000 pods"},
		{scenario.Diagnostic{Severity: scenario.Warning, Line: 3, Message: "m"}, "f.yaml:3: warning: m"},
		{scenario.Diagnostic{Severity: scenario.Warning, Message: "the scenario declares no objects"}, "f.yaml: warning: the scenario declares no objects"},
	} {
		if got := warningLine("f.yaml", tc.d); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
