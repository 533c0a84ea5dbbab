package scenario

import (
	"fmt"
	"sort"

	"github.com/stateflow/stateflow/engine/api"
)

// checkSpreadKeys warns about a pod template whose DoNotSchedule topology
// spread constraint names a label no node carries: the scheduler then
// finds every node "missing required label" and the pods stay Pending.
// The documentation's examples spread over a "zone" label their clusters'
// nodes were given; here the Scenario gives it (spec.nodes.zones for
// topology.kubernetes.io/zone, spec.nodes.labels, or Node documents).
func (p *parser) checkSpreadKeys() {
	if len(p.nodes) == 0 {
		return
	}
	carried := map[string]bool{}
	for _, n := range p.nodes {
		for k := range n.Labels {
			carried[k] = true
		}
	}
	for _, d := range p.docs {
		k := kindNamed(d.obj.GetKind())
		if k == nil || k.template == nil || d.obj.Meta().ControllerRef() != nil {
			continue
		}
		spec, prefix := k.template(d.obj)
		for i, c := range spec.TopologySpreadConstraints {
			if c.WhenUnsatisfiable != api.DoNotSchedule || carried[c.TopologyKey] {
				continue
			}
			path := fmt.Sprintf("%s.topologySpreadConstraints[%d].topologyKey", prefix, i)
			at := nodeAt(d.node, path)
			p.warnf(at.Line, at.Column, path, "no node carries the label %q: this DoNotSchedule constraint keeps every pod of %s Pending (FailedScheduling: node(s) didn't match pod topology spread constraints (missing required label)); label the nodes: Scenario spec.nodes.labels, spec.nodes.zones for topology.kubernetes.io/zone, or Node documents%s",
				c.TopologyKey, d.obj.Meta().Name, known(carried))
		}
	}
}

// known lists the labels the nodes carry, for a warning.
func known(carried map[string]bool) string {
	keys := make([]string, 0, len(carried))
	for k := range carried {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return fmt.Sprintf(" (the nodes carry %v)", keys)
}
