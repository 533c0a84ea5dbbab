package conformance

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/examples"
	"github.com/stateflow/stateflow/examples/random"
	"github.com/stateflow/stateflow/scenario"
)

// withServices adds to a scenario, for each Deployment and DaemonSet, two
// Services selecting its pods: "<name>-svc", a ClusterIP Service with a
// numeric target port and a named one ("http", which only some pods
// declare), and "<name>-headless", headless, without ports, publishing
// not-ready addresses. It returns the scenario unchanged when it has
// Services already or nothing to select.
func withServices(t *testing.T, src []byte) []byte {
	t.Helper()
	sc, err := scenario.Parse(src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	var docs []string
	for _, o := range sc.Objects {
		var sel *api.LabelSelector
		switch w := o.(type) {
		case *api.Service:
			return src
		case *api.Deployment:
			sel = w.Spec.Selector
		case *api.DaemonSet:
			sel = w.Spec.Selector
		default:
			continue
		}
		if sel == nil || len(sel.MatchLabels) == 0 {
			continue
		}
		m := o.Meta()
		keys := make([]string, 0, len(sel.MatchLabels))
		for k := range sel.MatchLabels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var selector strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&selector, "%q: %q, ", k, sel.MatchLabels[k])
		}
		ns := ""
		if m.Namespace != "" {
			ns = ", namespace: " + m.Namespace
		}
		sl := strings.TrimSuffix(selector.String(), ", ")
		docs = append(docs,
			fmt.Sprintf("apiVersion: v1\nkind: Service\nmetadata: {name: %s-svc%s}\nspec:\n  selector: {%s}\n  ports:\n    - {name: web, port: 80, targetPort: 80}\n    - {name: alt, port: 81, targetPort: http}\n", m.Name, ns, sl),
			fmt.Sprintf("apiVersion: v1\nkind: Service\nmetadata: {name: %s-headless%s}\nspec:\n  clusterIP: None\n  publishNotReadyAddresses: true\n  selector: {%s}\n", m.Name, ns, sl))
	}
	if len(docs) == 0 {
		return src
	}
	s := string(src)
	i := strings.Index(s, "apiVersion: stateflow/v1alpha1")
	if i < 0 {
		t.Fatal("no Scenario document")
	}
	return []byte(s[:i] + strings.Join(docs, "---\n") + "---\n" + s[i:])
}

// Every example and some fault scenarios, with Services over their
// workloads: every EndpointSlice and Endpoints controller tick agrees with
// upstream, or differs only as allowances.go allows.
func TestServices(t *testing.T) {
	for _, ex := range examples.All() {
		src := withServices(t, []byte(ex.Source))
		if string(src) == ex.Source {
			continue
		}
		t.Run(ex.Name, func(t *testing.T) {
			reportFor(t, run(t, src, 60*60_000), "endpointslice-controller", "endpoints-controller")
		})
	}
	for seed := range uint64(scenarios() / 5) {
		f, _ := random.Faulty(seed + 1)
		t.Run(fmt.Sprint("faults/", seed+1), func(t *testing.T) {
			reportFor(t, run(t, withServices(t, f), 20*60_000), "endpointslice-controller", "endpoints-controller")
		})
	}
}

// testdata/services.yaml: the endpoint controllers' harder paths (several
// port mappings and slices, label changes, a deleted node and Service).
func TestServiceScenario(t *testing.T) {
	src, err := os.ReadFile("testdata/services.yaml")
	if err != nil {
		t.Fatal(err)
	}
	reportFor(t, run(t, src, 20*60_000), "endpointslice-controller", "endpoints-controller")
}

// The endpoint replayers are only worth their silence if they speak up:
// at the first tick of examples/service-endpoints.yaml where the
// EndpointSlice controller marks an endpoint ready, an engine that left it
// not ready (or listed it under no port) must show as an unexplained
// difference, while the engine's real decision agrees with upstream.
func TestCatchesWrongEndpoint(t *testing.T) {
	src, err := os.ReadFile("../examples/service-endpoints.yaml")
	if err != nil {
		t.Fatal(err)
	}
	e := load(t, src)
	run := newRunState()
	for {
		e.Drain()
		rv := e.Store().ResourceVersion()
		snap := component(e, "endpointslice-controller").Clone()
		tk := e.Step()
		if tk == nil {
			t.Fatal("no EndpointSlice write marks an endpoint ready")
		}
		if tk.Component != "endpointslice-controller" {
			continue
		}
		in, err := newTickInput(e, tk, component(e, tk.Component), rv)
		if err != nil {
			t.Fatal(err)
		}
		in.before, in.run = snap, run
		theirs, err := replayEndpointSlice(t.Context(), in)
		if err != nil {
			t.Fatal(err)
		}
		ours, err := engineOutcome(tk, in.clock)
		if err != nil {
			t.Fatal(err)
		}
		field := ""
		for _, c := range ours.changes {
			for p, v := range c.fields {
				if strings.HasSuffix(p, ".conditions.ready") && v == "true" {
					field = p
				}
			}
		}
		if field == "" {
			continue
		}
		names := nameMap(ours, theirs)
		theirs.events, theirs.randomAggregation = newCorrelator().correlate(tk.Component, tk.Time, theirs.raw)
		if lines := compare(ours, theirs, names); len(lines) > 0 && allowed(lines, ours, theirs) == "" {
			t.Fatalf("the engine should agree with upstream at tick %d:\n%s", tk.Seq, strings.Join(lines, "\n"))
		}
		for _, wrong := range []struct{ path, value string }{{field, "false"}, {"ports[0].port", "8081"}} {
			buggy := ours
			buggy.changes = nil
			for _, c := range ours.changes {
				c.fields = maps.Clone(c.fields)
				c.endpoints = slices.Clone(c.endpoints)
				if c.kind == "EndpointSlice" {
					c.fields[wrong.path] = wrong.value
					for i := range c.endpoints {
						c.endpoints[i] = strings.Replace(c.endpoints[i], `"ready":true`, `"ready":false`, 1)
					}
				}
				buggy.changes = append(buggy.changes, c)
			}
			lines := compare(buggy, theirs, names)
			if len(lines) == 0 {
				t.Fatalf("tick %d: the harness did not notice %s = %s", tk.Seq, wrong.path, wrong.value)
			}
			if a := allowed(lines, buggy, theirs); a != "" {
				t.Fatalf("tick %d: %s = %s was excused by %q:\n%s", tk.Seq, wrong.path, wrong.value, a, strings.Join(lines, "\n"))
			}
		}
		t.Logf("tick %d: the harness caught an endpoint left not ready and a wrong port", tk.Seq)
		return
	}
}
