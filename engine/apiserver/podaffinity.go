package apiserver

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// validatePodAffinity is validatePodAffinity and validatePodAntiAffinity
// (pkg/apis/core/validation, v1.34): every term has a topologyKey and
// valid selectors, every preferred one a weight from 1 to 100.
func validatePodAffinity(e *errs, path string, a *api.Affinity) {
	if a == nil {
		return
	}
	for name, pa := range [2]*api.PodAffinity{a.PodAffinity, a.PodAntiAffinity} {
		if pa == nil {
			continue
		}
		p := path + ".affinity." + [2]string{"podAffinity", "podAntiAffinity"}[name]
		for i := range pa.RequiredDuringSchedulingIgnoredDuringExecution {
			validatePodAffinityTerm(e, fmt.Sprintf("%s.requiredDuringSchedulingIgnoredDuringExecution[%d]", p, i), &pa.RequiredDuringSchedulingIgnoredDuringExecution[i])
		}
		for i := range pa.PreferredDuringSchedulingIgnoredDuringExecution {
			w := &pa.PreferredDuringSchedulingIgnoredDuringExecution[i]
			wp := fmt.Sprintf("%s.preferredDuringSchedulingIgnoredDuringExecution[%d]", p, i)
			if w.Weight <= 0 || w.Weight > 100 {
				e.invalid(wp+".weight", int64(w.Weight), "must be in the range 1-100")
			}
			validatePodAffinityTerm(e, wp+".podAffinityTerm", &w.PodAffinityTerm)
		}
	}
}

func validatePodAffinityTerm(e *errs, path string, t *api.PodAffinityTerm) {
	if t.LabelSelector != nil {
		validateLabelSelector(e, path+".labelSelector", t.LabelSelector)
	}
	if t.NamespaceSelector != nil {
		validateLabelSelector(e, path+".namespaceSelector", t.NamespaceSelector)
	}
	if t.TopologyKey == "" {
		e.add(path+".topologyKey", "Required value: can not be empty")
	}
}
