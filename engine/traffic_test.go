package engine_test

import (
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/internal/testkit"
)

// A pod answers on a port while the container that declares it has not
// had SIGTERM: a sidecar without a preStop hook, killed at once, does
// not cut short the web container's 5 s preStop sleep, so web-prestop
// still loses no request; without the hook web still does.
func TestPreStopHoldsWithASidecar(t *testing.T) {
	ex, ok := examples.Get("rollout-traffic")
	if !ok {
		t.Fatal("no rollout-traffic example")
	}
	hook := "          lifecycle:\n            preStop:\n              sleep: {seconds: 5}\n"
	if !strings.Contains(ex.Source, hook) {
		t.Fatal("the example's preStop hook moved")
	}
	src := strings.Replace(ex.Source, hook, hook+"        - name: log-shipper\n          image: example/log:v1\n", 1)
	e, _ := testkit.Load(t, []byte(src))
	if err := e.RunUntilSettled(engine.SettleLimits{}); err != nil {
		t.Fatal(err)
	}
	failed := map[string]int{}
	for _, tk := range e.Trace() {
		if tr := tk.Traffic(); tr != nil {
			failed[tr.Service.Name] += tr.Failed
		}
	}
	if failed["web-prestop"] != 0 || failed["web"] == 0 {
		t.Errorf("failed requests %v: want none for web-prestop (its sidecar's SIGTERM does not stop the web container) and some for web", failed)
	}
}
