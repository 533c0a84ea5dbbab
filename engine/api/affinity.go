package api

import (
	"slices"
	"strconv"
)

// Affinity is v1.Affinity: required node affinity (what the DaemonSet
// controller writes to pin a pod to its node, and what users write to
// choose nodes by label), and pod affinity and anti-affinity.
type Affinity struct {
	NodeAffinity    *NodeAffinity `json:"nodeAffinity,omitempty" yaml:"nodeAffinity,omitempty"`
	PodAffinity     *PodAffinity  `json:"podAffinity,omitempty" yaml:"podAffinity,omitempty"`
	PodAntiAffinity *PodAffinity  `json:"podAntiAffinity,omitempty" yaml:"podAntiAffinity,omitempty"`
}

// NodeAffinity is v1.NodeAffinity (required terms only).
type NodeAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution *NodeSelector `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" yaml:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// NodeSelector is v1.NodeSelector: its terms are ORed.
type NodeSelector struct {
	NodeSelectorTerms []NodeSelectorTerm `json:"nodeSelectorTerms" yaml:"nodeSelectorTerms"`
}

// NodeSelectorTerm is v1.NodeSelectorTerm: its requirements are ANDed.
type NodeSelectorTerm struct {
	MatchExpressions []NodeSelectorRequirement `json:"matchExpressions,omitempty" yaml:"matchExpressions,omitempty"`
	MatchFields      []NodeSelectorRequirement `json:"matchFields,omitempty" yaml:"matchFields,omitempty"`
}

// NodeSelectorRequirement is v1.NodeSelectorRequirement.
type NodeSelectorRequirement struct {
	Key      string   `json:"key" yaml:"key"`
	Operator string   `json:"operator" yaml:"operator"`
	Values   []string `json:"values,omitempty" yaml:"values,omitempty"`
}

// ObjectNameField is the one field matchFields may name.
const ObjectNameField = "metadata.name"

// RequiredNodeSelector is the pod's required node affinity, or nil.
func (s *PodSpec) RequiredNodeSelector() *NodeSelector {
	if s.Affinity == nil || s.Affinity.NodeAffinity == nil {
		return nil
	}
	return s.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
}

// RequiredNodeAffinity is what a pod requires of a node: its
// nodeSelector and its required node affinity
// (component-helpers/scheduling/corev1/nodeaffinity's
// GetRequiredNodeAffinity), the one test of a node the scheduler's
// NodeAffinity filter, its topology spreading and the DaemonSet
// controller share.
type RequiredNodeAffinity struct {
	selector map[string]string
	affinity *NodeSelector
}

// RequiredNodeAffinity is the spec's.
func (s *PodSpec) RequiredNodeAffinity() RequiredNodeAffinity {
	return RequiredNodeAffinity{selector: s.NodeSelector, affinity: s.RequiredNodeSelector()}
}

// Match reports whether the node has every label of the nodeSelector
// and satisfies the required node affinity.
func (r RequiredNodeAffinity) Match(n *Node) bool {
	return MatchesSet(r.selector, n.Labels) && (r.affinity == nil || r.affinity.Matches(n))
}

// MatchesSet reports whether labels has every key of set with its value:
// labels.SelectorFromSet(set).Matches(labels), whose Equals requirements
// fail on a missing key, even for the value "".
func MatchesSet(set, labels map[string]string) bool {
	for k, v := range set {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// Matches reports whether the node satisfies the selector: any term,
// each with all its requirements (nodeaffinity.NodeSelector.Match). A
// term with no requirements matches nothing.
func (ns *NodeSelector) Matches(n *Node) bool {
	for i := range ns.NodeSelectorTerms {
		t := &ns.NodeSelectorTerms[i]
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			continue
		}
		if t.matches(n) {
			return true
		}
	}
	return false
}

func (t *NodeSelectorTerm) matches(n *Node) bool {
	for _, r := range t.MatchExpressions {
		v, ok := n.Labels[r.Key]
		if !r.matches(v, ok) {
			return false
		}
	}
	for _, r := range t.MatchFields {
		if r.Key != ObjectNameField || !r.matches(n.Name, true) {
			return false
		}
	}
	return true
}

// matches applies the operator to a label's value (has says whether the
// label is there).
func (r *NodeSelectorRequirement) matches(v string, has bool) bool {
	switch r.Operator {
	case "In":
		return has && slices.Contains(r.Values, v)
	case "NotIn":
		return !has || !slices.Contains(r.Values, v)
	case "Exists":
		return has
	case "DoesNotExist":
		return !has
	case "Gt", "Lt":
		if !has || len(r.Values) != 1 {
			return false
		}
		a, err1 := strconv.ParseInt(v, 10, 64)
		b, err2 := strconv.ParseInt(r.Values[0], 10, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		return r.Operator == "Gt" && a > b || r.Operator == "Lt" && a < b
	}
	return false
}

// DeepCopy returns an independent copy.
func (a *Affinity) DeepCopy() *Affinity {
	if a == nil {
		return nil
	}
	out := &Affinity{PodAffinity: a.PodAffinity.deepCopy(), PodAntiAffinity: a.PodAntiAffinity.deepCopy()}
	if a.NodeAffinity != nil {
		out.NodeAffinity = &NodeAffinity{}
		if r := a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
			terms := make([]NodeSelectorTerm, len(r.NodeSelectorTerms))
			for i, t := range r.NodeSelectorTerms {
				terms[i] = NodeSelectorTerm{MatchExpressions: copyRequirements(t.MatchExpressions), MatchFields: copyRequirements(t.MatchFields)}
			}
			out.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution = &NodeSelector{NodeSelectorTerms: terms}
		}
	}
	return out
}

func copyRequirements(rs []NodeSelectorRequirement) []NodeSelectorRequirement {
	if rs == nil {
		return nil
	}
	out := make([]NodeSelectorRequirement, len(rs))
	for i, r := range rs {
		r.Values = copySlice(r.Values)
		out[i] = r
	}
	return out
}
