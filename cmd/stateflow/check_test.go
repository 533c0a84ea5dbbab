package main

import (
	"os"
	"strings"
	"testing"
)

// stateflow check prints each contradicted claim as FILE:line:column and
// exits with 1; a file whose claims hold says how many it checked and
// exits with 0; a claim that does not read is an error at its place;
// no FILE is a usage error.
func TestCheck(t *testing.T) {
	out, err := runCLI(t, "", "check", seed)
	if err != nil || !strings.Contains(out, "../../examples/codartium-api.yaml: 7 claims, 0 contradicted") {
		t.Errorf("the seed's claims: %v\n%s", err, out)
	}
	out, err = runCLI(t, "", "check", "../../claim/testdata/false-claims.yaml")
	if exitCode(err) != 1 || !strings.Contains(out, "../../claim/testdata/false-claims.yaml:7:11: at 10s, deploy/web {.status.readyReplicas} = 3: false at 10s") ||
		!strings.Contains(out, "9 claims, 7 contradicted") {
		t.Errorf("the false claims: exit %d\n%s", exitCode(err), out)
	}
	bad := t.TempDir() + "/bad.yaml"
	writeFile(t, bad, "# expect: at 10s, count pods == 1\napiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n")
	out, err = runCLI(t, "", "check", bad)
	if exitCode(err) != 1 || !strings.Contains(out, bad+":1:30: expected an operator") {
		t.Errorf("a bad claim: exit %d\n%s", exitCode(err), out)
	}
	if _, err := runCLI(t, "", "check"); exitCode(err) != 2 {
		t.Errorf("no FILE: exit %d", exitCode(err))
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
