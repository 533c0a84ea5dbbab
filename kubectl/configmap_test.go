package kubectl_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// create configmap and create secret generic, what get and describe
// print of them, and how describe pod names what a container reads from
// them, as kubectl v1.34 prints it.
func TestConfigMapsAndSecretsAtTheConsole(t *testing.T) {
	e, sc := testkit.LoadFile(t, "../examples/config-and-secrets.yaml")
	e.RunUntil(10_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	for _, tc := range []struct{ cmd, want string }{
		{"create configmap extra --from-literal=mode=easy --from-literal=list=a,b", "configmap/extra created\n"},
		{"create secret generic api-key --from-literal=token=abc", "secret/api-key created\n"},
		{"get cm extra -o jsonpath={.data.list}", "a,b"},
		{"get secret api-key -o jsonpath={.type}/{.data.token}", "Opaque/YWJj"},
		{"get secrets", "NAME             TYPE     DATA   AGE\napi-key          Opaque   1      0s\ndb-credentials   Opaque   2      10s\n"},
		{"get cm", "NAME        DATA   AGE\nextra       2      0s\ngame-demo   3      10s\n"},
	} {
		if got := run(t, s, tc.cmd); got.Stdout != tc.want || got.Code != 0 {
			t.Errorf("%s:\n%q (%s)\nwant %q", tc.cmd, got.Stdout, got.Stderr, tc.want)
		}
	}
	for _, tc := range []struct{ cmd, want string }{
		{"create cm x --from-literal=nokey", "error: invalid literal source nokey, expected key=value\n"},
		{"create cm x --from-literal=..a=1", "error: \"..a\" is not a valid key name for a ConfigMap: must not start with '..'\n"},
		{"create secret generic y --from-literal=k=1 --from-literal=k=2", "error: cannot add key k, another key by that name already exists\n"},
		{"create secret tls z", "error: \"create secret tls\" is not supported by Stateflow's simulated cluster: use 'kubectl create secret generic NAME --from-literal=KEY=VALUE'\n"},
		{"create cm extra --from-literal=a=1", "error: failed to create configmap: configmaps \"extra\" already exists\n"},
	} {
		if got := run(t, s, tc.cmd); got.Stderr != tc.want || got.Code == 0 {
			t.Errorf("%s: stderr %q, want %q", tc.cmd, got.Stderr, tc.want)
		}
	}
	pod := run(t, s, "describe pods -l app=game").Stdout
	for _, want := range []string{
		"    Environment Variables from:\n      game-demo  ConfigMap  Optional: false\n",
		"PLAYER_INITIAL_LIVES:  <set to the key 'player_initial_lives' of config map 'game-demo'>  Optional: false\n",
		"DB_PASSWORD:           <set to the key 'password' in secret 'db-credentials'>             Optional: false\n",
	} {
		if !strings.Contains(pod, want) {
			t.Errorf("describe pod lacks %q:\n%s", want, pod)
		}
	}
}

// describe's Event ages are kubectl v1.34's DescribeEvents: HumanDuration
// (minutes and seconds under ten minutes), the first timestamp for the
// span of a repeated Event.
func TestDescribeEventAges(t *testing.T) {
	b, err := os.ReadFile("../examples/missing-configmap.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(b), "at: 40s", "at: 200s", 1)
	e, sc := testkit.Load(t, []byte(src))
	e.RunUntil(150_000)
	s := &kubectl.Session{Cluster: e, Namespace: sc.Namespace}
	out := run(t, s, "describe pods").Stdout
	for _, want := range []string{"Normal   Scheduled  2m30s", "over 2m29s)  kubelet            Error: configmap \"game-demo\" not found"} {
		if !strings.Contains(out, want) {
			t.Errorf("describe pods lacks %q:\n%s", want, out)
		}
	}
}
