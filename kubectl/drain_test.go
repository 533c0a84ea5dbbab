package kubectl_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/internal/testkit"
	"github.com/stateflow/stateflow/kubectl"
)

// drainSession is the pdb-drain example at 29s: three web pods, two on
// node-1, under a budget (minAvailable 2) that allows one disruption. It
// returns node-1's pods, by name.
func drainSession(t *testing.T) (*kubectl.Session, *engine.Engine, []string) {
	t.Helper()
	e, sc := testkit.LoadFile(t, "../examples/pdb-drain.yaml")
	e.RunUntil(29_000)
	var onNode1 []string
	for _, p := range testkit.Pods(e, "default") {
		if p.Spec.NodeName == "node-1" {
			onNode1 = append(onNode1, p.Name)
		}
	}
	sort.Strings(onNode1)
	if len(onNode1) != 2 {
		t.Fatalf("node-1 runs %v", onNode1)
	}
	return &kubectl.Session{Cluster: e, Namespace: sc.Namespace}, e, onNode1
}

// --dry-run=client prints what drain would do and changes nothing, and
// so do cordon's dry runs.
func TestDrainDryRun(t *testing.T) {
	s, e, pods := drainSession(t)
	rv := e.Store().ResourceVersion()
	res := s.Run("drain node-1 --ignore-daemonsets --dry-run=client")
	want := fmt.Sprintf("node/node-1 cordoned (dry run)\nevicting pod default/%s (dry run)\nevicting pod default/%s (dry run)\nnode/node-1 drained (dry run)\n", pods[0], pods[1])
	if res.Output() != want || res.Code != 0 {
		t.Errorf("exit %d:\n%s\nwant:\n%s", res.Code, res.Output(), want)
	}
	if got := s.Run("cordon node-1 --dry-run=server").Stdout; got != "node/node-1 cordoned (server dry run)\n" {
		t.Errorf("cordon --dry-run=server: %q", got)
	}
	if got := e.Store().ResourceVersion(); got != rv {
		t.Errorf("the dry runs wrote: resourceVersion %d → %d", rv, got)
	}
	if res := s.Run("drain node-1 --dry-run=bogus"); !strings.Contains(res.Stderr, `Invalid dry-run value (bogus)`) {
		t.Errorf("bad --dry-run: %q", res.Stderr)
	}
}

// --disable-eviction deletes the pods instead of asking the Eviction API:
// no budget holds it back, so both of node-1's pods go at once and the
// budget's healthy count falls below what it desires (the lesson of the
// flag).
func TestDrainDisableEvictionBypassesTheBudget(t *testing.T) {
	s, e, pods := drainSession(t)
	res := s.Run("drain node-1 --ignore-daemonsets --disable-eviction")
	want := fmt.Sprintf("node/node-1 cordoned\npod/%s deleted\npod/%s deleted\nnode/node-1 drained\n", pods[0], pods[1])
	if res.Output() != want || res.Code != 0 {
		t.Fatalf("exit %d:\n%s\nwant:\n%s", res.Code, res.Output(), want)
	}
	lowest := int32(3)
	for _, tk := range e.Trace() {
		for _, eff := range tk.Effects {
			if p, ok := eff.After.(*api.PodDisruptionBudget); ok && tk.Time >= 29_000 {
				lowest = min(lowest, p.Status.CurrentHealthy)
			}
		}
	}
	if lowest != 1 {
		t.Errorf("the budget's lowest currentHealthy after the drain: %d, want 1 (below its 2)", lowest)
	}
}
