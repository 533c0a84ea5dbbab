package api

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api/labels"
	"k8s.io/apimachinery/pkg/selection"
)

// TopologySpreadConstraint is v1.TopologySpreadConstraint: how unevenly a
// pod's matching pods may spread over the domains of a node label (a
// zone, a node), a limit the scheduler keeps (DoNotSchedule) or prefers
// (ScheduleAnyway).
type TopologySpreadConstraint struct {
	MaxSkew            int32          `json:"maxSkew" yaml:"maxSkew"`
	TopologyKey        string         `json:"topologyKey" yaml:"topologyKey"`
	WhenUnsatisfiable  string         `json:"whenUnsatisfiable" yaml:"whenUnsatisfiable"`
	LabelSelector      *LabelSelector `json:"labelSelector,omitempty" yaml:"labelSelector,omitempty"`
	MinDomains         *int32         `json:"minDomains,omitempty" yaml:"minDomains,omitempty"`
	NodeAffinityPolicy *string        `json:"nodeAffinityPolicy,omitempty" yaml:"nodeAffinityPolicy,omitempty"`
	NodeTaintsPolicy   *string        `json:"nodeTaintsPolicy,omitempty" yaml:"nodeTaintsPolicy,omitempty"`
	MatchLabelKeys     []string       `json:"matchLabelKeys,omitempty" yaml:"matchLabelKeys,omitempty"`
}

// Topology spread actions and node inclusion policies, and the label of a
// node's zone.
const (
	LabelTopologyZone         = "topology.kubernetes.io/zone"
	DoNotSchedule             = "DoNotSchedule"
	ScheduleAnyway            = "ScheduleAnyway"
	NodeInclusionPolicyHonor  = "Honor"
	NodeInclusionPolicyIgnore = "Ignore"
)

// Selector is the constraint's selector as the scheduler reads it
// (filterTopologySpreadConstraints): its labelSelector, with the pod's
// values of matchLabelKeys added as requirements.
func (c *TopologySpreadConstraint) Selector(podLabels map[string]string) labels.Selector {
	sel := c.LabelSelector.AsSelector()
	for _, k := range c.MatchLabelKeys {
		if v, ok := podLabels[k]; ok {
			if r, err := labels.NewRequirement(k, selection.Equals, []string{v}); err == nil {
				sel = sel.Add(*r)
			}
		}
	}
	return sel
}

// deepCopyTopologySpread copies what the constraints point at.
func deepCopyTopologySpread(cs []TopologySpreadConstraint) []TopologySpreadConstraint {
	if cs == nil {
		return nil
	}
	out := make([]TopologySpreadConstraint, len(cs))
	for i, c := range cs {
		c.LabelSelector = c.LabelSelector.DeepCopy()
		c.MinDomains = copyPtr(c.MinDomains)
		c.NodeAffinityPolicy = copyPtr(c.NodeAffinityPolicy)
		c.NodeTaintsPolicy = copyPtr(c.NodeTaintsPolicy)
		c.MatchLabelKeys = slices.Clone(c.MatchLabelKeys)
		out[i] = c
	}
	return out
}
