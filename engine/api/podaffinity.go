package api

import (
	"slices"

	"github.com/stateflow/stateflow/engine/api/labels"
)

// PodAffinity is v1.PodAffinity (and, in Affinity.PodAntiAffinity, the
// same shape as v1.PodAntiAffinity): terms that put a pod near pods of
// some labels, or away from them, in the domains of a node label.
type PodAffinity struct {
	RequiredDuringSchedulingIgnoredDuringExecution  []PodAffinityTerm         `json:"requiredDuringSchedulingIgnoredDuringExecution,omitempty" yaml:"requiredDuringSchedulingIgnoredDuringExecution,omitempty"`
	PreferredDuringSchedulingIgnoredDuringExecution []WeightedPodAffinityTerm `json:"preferredDuringSchedulingIgnoredDuringExecution,omitempty" yaml:"preferredDuringSchedulingIgnoredDuringExecution,omitempty"`
}

// PodAffinityTerm is v1.PodAffinityTerm: the pods its selector selects in
// its namespaces (the pod's own when it names none), in the domain of
// topologyKey.
type PodAffinityTerm struct {
	LabelSelector     *LabelSelector `json:"labelSelector,omitempty" yaml:"labelSelector,omitempty"`
	Namespaces        []string       `json:"namespaces,omitempty" yaml:"namespaces,omitempty"`
	TopologyKey       string         `json:"topologyKey" yaml:"topologyKey"`
	NamespaceSelector *LabelSelector `json:"namespaceSelector,omitempty" yaml:"namespaceSelector,omitempty"`
}

// WeightedPodAffinityTerm is v1.WeightedPodAffinityTerm.
type WeightedPodAffinityTerm struct {
	Weight          int32           `json:"weight" yaml:"weight"`
	PodAffinityTerm PodAffinityTerm `json:"podAffinityTerm" yaml:"podAffinityTerm"`
}

// LabelNamespaceName is the label the API server gives every namespace:
// its name.
const LabelNamespaceName = "kubernetes.io/metadata.name"

// AffinityTerm is a PodAffinityTerm as the scheduler reads it
// (framework.AffinityTerm): its selectors parsed, its namespaces those it
// names or, with neither namespaces nor a namespaceSelector, the owning
// pod's.
type AffinityTerm struct {
	Key        string
	Weight     int32
	selector   labels.Selector
	namespaces []string
	nsSelector labels.Selector
}

// NewAffinityTerm reads term t of a pod in namespace ns.
func NewAffinityTerm(t *PodAffinityTerm, ns string, weight int32) AffinityTerm {
	a := AffinityTerm{Key: t.TopologyKey, Weight: weight, selector: t.LabelSelector.AsSelector(), namespaces: t.Namespaces, nsSelector: t.NamespaceSelector.AsSelector()}
	if len(t.Namespaces) == 0 && t.NamespaceSelector == nil {
		a.namespaces = []string{ns}
	}
	return a
}

// Matches is AffinityTerm.Matches: p is in one of the term's namespaces
// (or one its namespaceSelector selects, by the namespace's name label)
// and the selector selects it.
func (t *AffinityTerm) Matches(p *Pod) bool {
	if !slices.Contains(t.namespaces, p.Namespace) && !t.nsSelector.Matches(labels.Set{LabelNamespaceName: p.Namespace}) {
		return false
	}
	return t.selector.Matches(labels.Set(p.Labels))
}

// PodAffinityTerms are a pod's terms, read: the required and preferred
// ones of its affinity and of its anti-affinity.
type PodAffinityTerms struct {
	Required, RequiredAnti, Preferred, PreferredAnti []AffinityTerm
}

// Empty reports whether the pod has no term at all.
func (t *PodAffinityTerms) Empty() bool {
	return len(t.Required)+len(t.RequiredAnti)+len(t.Preferred)+len(t.PreferredAnti) == 0
}

// AffinityTermsOf reads p's pod affinity and anti-affinity.
func AffinityTermsOf(p *Pod) PodAffinityTerms {
	var out PodAffinityTerms
	a := p.Spec.Affinity
	if a == nil {
		return out
	}
	read := func(pa *PodAffinity, required, preferred *[]AffinityTerm) {
		if pa == nil {
			return
		}
		for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
			*required = append(*required, NewAffinityTerm(&pa.RequiredDuringSchedulingIgnoredDuringExecution[i], p.Namespace, 0))
		}
		for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
			w := &pa.PreferredDuringSchedulingIgnoredDuringExecution[i]
			*preferred = append(*preferred, NewAffinityTerm(&w.PodAffinityTerm, p.Namespace, w.Weight))
		}
	}
	read(a.PodAffinity, &out.Required, &out.Preferred)
	read(a.PodAntiAffinity, &out.RequiredAnti, &out.PreferredAnti)
	return out
}

// deepCopy copies what the affinity points at.
func (pa *PodAffinity) deepCopy() *PodAffinity {
	if pa == nil {
		return nil
	}
	out := &PodAffinity{}
	if pa.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		out.RequiredDuringSchedulingIgnoredDuringExecution = make([]PodAffinityTerm, len(pa.RequiredDuringSchedulingIgnoredDuringExecution))
		for i, t := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
			out.RequiredDuringSchedulingIgnoredDuringExecution[i] = t.deepCopy()
		}
	}
	if pa.PreferredDuringSchedulingIgnoredDuringExecution != nil {
		out.PreferredDuringSchedulingIgnoredDuringExecution = make([]WeightedPodAffinityTerm, len(pa.PreferredDuringSchedulingIgnoredDuringExecution))
		for i, w := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
			out.PreferredDuringSchedulingIgnoredDuringExecution[i] = WeightedPodAffinityTerm{Weight: w.Weight, PodAffinityTerm: w.PodAffinityTerm.deepCopy()}
		}
	}
	return out
}

func (t PodAffinityTerm) deepCopy() PodAffinityTerm {
	t.LabelSelector = t.LabelSelector.DeepCopy()
	t.NamespaceSelector = t.NamespaceSelector.DeepCopy()
	t.Namespaces = slices.Clone(t.Namespaces)
	return t
}
