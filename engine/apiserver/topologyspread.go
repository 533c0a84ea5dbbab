package apiserver

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// validateTopologySpread is validateTopologySpreadConstraints
// (pkg/apis/core/validation, v1.34): a positive maxSkew, a topologyKey, a
// known action, no two constraints of one key and action, minDomains only
// positive and only with DoNotSchedule, known node inclusion policies and
// a valid selector.
func validateTopologySpread(e *errs, path string, cs []api.TopologySpreadConstraint) {
	for i := range cs {
		c := &cs[i]
		p := fmt.Sprintf("%s.topologySpreadConstraints[%d]", path, i)
		if c.MaxSkew <= 0 {
			e.invalid(p+".maxSkew", int64(c.MaxSkew), "must be greater than zero")
		}
		if c.TopologyKey == "" {
			e.add(p+".topologyKey", "Required value: can not be empty")
		}
		if c.WhenUnsatisfiable != api.DoNotSchedule && c.WhenUnsatisfiable != api.ScheduleAnyway {
			e.add(p+".whenUnsatisfiable", "Unsupported value: %q: supported values: %q, %q", c.WhenUnsatisfiable, api.DoNotSchedule, api.ScheduleAnyway)
		}
		for _, rest := range cs[i+1:] {
			if rest.TopologyKey == c.TopologyKey && rest.WhenUnsatisfiable == c.WhenUnsatisfiable {
				e.add(p+".{topologyKey, whenUnsatisfiable}", "Duplicate value: %q", "{"+c.TopologyKey+", "+c.WhenUnsatisfiable+"}")
				break
			}
		}
		if m := c.MinDomains; m != nil {
			if *m <= 0 {
				e.invalid(p+".minDomains", int64(*m), "must be greater than zero")
			}
			if c.WhenUnsatisfiable != api.DoNotSchedule {
				e.invalid(p+".minDomains", int64(*m), fmt.Sprintf("can only use minDomains if whenUnsatisfiable=%s, not %s", api.DoNotSchedule, c.WhenUnsatisfiable))
			}
		}
		for j, policy := range [2]*string{c.NodeAffinityPolicy, c.NodeTaintsPolicy} {
			field := [2]string{".nodeAffinityPolicy", ".nodeTaintsPolicy"}[j]
			if policy != nil && *policy != api.NodeInclusionPolicyHonor && *policy != api.NodeInclusionPolicyIgnore {
				e.add(p+field, "Unsupported value: %q: supported values: %q, %q", *policy, api.NodeInclusionPolicyHonor, api.NodeInclusionPolicyIgnore)
			}
		}
		if c.LabelSelector != nil {
			validateLabelSelector(e, p+".labelSelector", c.LabelSelector)
		}
	}
}
