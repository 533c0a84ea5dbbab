package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// kubectl delete's grace period (DeleteOptions.Complete): --grace-period=0
// without --force is turned into 1 (the pod still terminates), --force
// alone is 0 and prints the warning and "force deleted", and the
// conflicting combinations are refused; every namespaced deletion says
// its namespace (PrintObj).
func TestDeleteGracePeriod(t *testing.T) {
	for _, c := range []struct {
		flags, stdout, stderr string
		gone                  bool
	}{
		{"--grace-period=0", `pod "%s" deleted from codartium-team namespace` + "\n", "", false},
		{"--force", `pod "%s" force deleted from codartium-team namespace` + "\n",
			"Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n", true},
		{"--force --grace-period=0", `pod "%s" force deleted from codartium-team namespace` + "\n",
			"Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n", true},
		{"--now", `pod "%s" deleted from codartium-team namespace` + "\n", "", false},
		{"--now --grace-period=5", "", "error: --now and --grace-period cannot be specified together\n", false},
		{"--force --grace-period=5", "", "error: --force and --grace-period greater than 0 cannot be specified together\n", false},
	} {
		t.Run(c.flags, func(t *testing.T) {
			s := seedSession(t, true)
			name := strings.TrimPrefix(strings.Fields(run(t, s, "get pods -o name").Stdout)[0], "pod/")
			res := s.Run("delete pod " + name + " " + c.flags)
			want := strings.ReplaceAll(c.stdout, "%s", name)
			if res.Stdout != want || res.Stderr != c.stderr {
				t.Fatalf("stdout %q stderr %q, want %q and %q", res.Stdout, res.Stderr, want, c.stderr)
			}
			o, ok := s.Cluster.Store().Get(api.Key{Kind: api.KindPod, Namespace: "codartium-team", Name: name})
			if ok == c.gone {
				t.Fatalf("pod still there: %v, want gone: %v", ok, c.gone)
			}
			if ok && c.stdout != "" {
				if g := o.(*api.Pod).DeletionGracePeriodSeconds; g == nil || *g != 1 {
					t.Errorf("grace period %v, want 1", g)
				}
			}
		})
	}
	s := seedSession(t, true)
	if res := s.Run("delete node node-1"); res.Stdout != "node \"node-1\" deleted\n" {
		t.Errorf("a cluster-scoped object names no namespace: %q", res.Stdout)
	}
}
