package job

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// matchPodFailurePolicy is matchPodFailurePolicy: the first rule a failed
// pod matches decides. It returns the FailJob message (nil otherwise),
// whether the failure counts towards backoffLimit, and the action (""
// when no rule matched).
func matchPodFailurePolicy(policy *api.PodFailurePolicy, p *api.Pod) (*string, bool, string) {
	if policy == nil {
		return nil, true, ""
	}
	for i, r := range policy.Rules {
		var msg string
		switch {
		case r.OnExitCodes != nil:
			cs := matchOnExitCodes(&p.Status, r.OnExitCodes)
			if cs == nil {
				continue
			}
			msg = fmt.Sprintf("Container %s for pod %s/%s failed with exit code %d matching %s rule at index %d", cs.Name, p.Namespace, p.Name, cs.State.Terminated.ExitCode, r.Action, i)
		case r.OnPodConditions != nil:
			c := matchOnPodConditions(&p.Status, r.OnPodConditions)
			if c == nil {
				continue
			}
			msg = fmt.Sprintf("Pod %s/%s has condition %s matching %s rule at index %d", p.Namespace, p.Name, c.Type, r.Action, i)
		default:
			continue
		}
		switch r.Action {
		case api.PodFailurePolicyActionIgnore:
			return nil, false, r.Action
		case api.PodFailurePolicyActionCount:
			return nil, true, r.Action
		case api.PodFailurePolicyActionFailJob:
			return &msg, true, r.Action
		}
	}
	return nil, true, ""
}

func matchOnExitCodes(st *api.PodStatus, req *api.PodFailurePolicyOnExitCodesRequirement) *api.ContainerStatus {
	for i := range st.ContainerStatuses {
		cs := &st.ContainerStatuses[i]
		t := cs.State.Terminated
		if t == nil || req.ContainerName != nil && *req.ContainerName != cs.Name || t.ExitCode == 0 {
			continue
		}
		if exitCodeMatches(t.ExitCode, req) {
			return cs
		}
	}
	return nil
}

func exitCodeMatches(code int32, req *api.PodFailurePolicyOnExitCodesRequirement) bool {
	in := false
	for _, v := range req.Values {
		if v == code {
			in = true
		}
	}
	switch req.Operator {
	case "In":
		return in
	case "NotIn":
		return !in
	}
	return false
}

func matchOnPodConditions(st *api.PodStatus, patterns []api.PodFailurePolicyOnPodConditionsPattern) *api.PodCondition {
	for i := range st.Conditions {
		c := &st.Conditions[i]
		for _, pat := range patterns {
			if c.Type == pat.Type && c.Status == pat.Status {
				return c
			}
		}
	}
	return nil
}
