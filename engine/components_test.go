package engine

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
)

// Every component is registered once, with a name its instances report, a
// latency and an Event source; and every component a running engine has
// (with two nodes, so the node agents too) comes from a descriptor.
func TestEveryComponentIsRegistered(t *testing.T) {
	nodes := []*api.Node{{ObjectMeta: api.ObjectMeta{Name: "node-1"}}, {ObjectMeta: api.ObjectMeta{Name: "node-2"}}}
	cfg := Config{Seed: 1, Nodes: nodes}
	seen := map[string]bool{}
	perNode := 0
	for _, d := range descriptors() {
		if d.name == "" || seen[d.name] {
			t.Errorf("descriptor %q: no name, or a name registered twice", d.name)
		}
		seen[d.name] = true
		if d.latency <= 0 {
			t.Errorf("%s: default latency %d ms", d.name, d.latency)
		}
		if (d.new == nil) == (d.newOnNode == nil) {
			t.Errorf("%s: a component is either cluster-wide (new) or a node agent (newOnNode)", d.name)
			continue
		}
		c := d.new
		if c == nil {
			perNode++
			if got := d.newOnNode(&cfg, nodes[0], false); got.Name() != d.name || got.Host() != "node-1" {
				t.Errorf("%s: its node agent reports name %q on host %q", d.name, got.Name(), got.Host())
			}
		} else if got := c(&cfg); got.Name() != d.name || got.Host() != "" {
			t.Errorf("%s: builds a component named %q on host %q", d.name, got.Name(), got.Host())
		}
		if v, ok := DefaultLatency(d.name); !ok || v != d.latency {
			t.Errorf("%s: DefaultLatency says %d, %v", d.name, v, ok)
		}
		if !slices.Contains(ComponentNames(), d.name) {
			t.Errorf("%s: not among the tick log's actors", d.name)
		}
	}
	e, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(seen) - perNode + perNode*len(nodes); len(e.w.comps) != want {
		t.Errorf("the engine runs %d components, want %d", len(e.w.comps), want)
	}
	for _, c := range e.w.comps {
		if !seen[c.Name()] {
			t.Errorf("the engine runs %s, which has no descriptor", c.Name())
		}
		if src := e.w.eventSource(c.Name()); src == "" {
			t.Errorf("%s: no Event source", c.Name())
		}
	}
}

// Events carry upstream's source names, which are not always the
// controller's name.
func TestEventSourcesAreUpstreams(t *testing.T) {
	e, err := New(Config{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for actor, want := range map[string]string{
		Scheduler:               "default-scheduler",
		NodeLifecycleController: "node-controller",
		EndpointSliceController: "endpoint-slice-controller",
		EndpointsController:     "endpoint-controller",
		DisruptionController:    "controllermanager",
		DeploymentController:    "deployment-controller",
		KubectlActor:            "kubectl",
	} {
		if got := e.w.eventSource(actor); got != want {
			t.Errorf("%s writes Events as %q, want %q", actor, got, want)
		}
	}
}

// The package's doc names every component, so it stays true when one is
// added.
func TestDocNamesEveryComponent(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(strings.ReplaceAll(string(doc), "//", "")), " ")
	for _, name := range Components() {
		if !strings.Contains(text, name) {
			t.Errorf("engine/doc.go does not name %s", name)
		}
	}
}
