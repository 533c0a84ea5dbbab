package kubectl

// This file is kubectl cordon, uncordon and drain (pkg/cmd/drain).

import (
	"fmt"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

func buildCordon(on bool) builder {
	verb := map[bool]string{true: "cordon", false: "uncordon"}[on]
	return func(s *Session, args []string) (*Mutation, error) {
		p, err := parseFlags(verb, args, []flagSpec{{"dry-run", "", true}})
		if err != nil {
			return nil, err
		}
		if len(p.args) != 1 {
			return nil, usageErr(verb, "USAGE: %s NODE [flags]", verb)
		}
		k := api.Key{Kind: api.KindNode, Name: strings.TrimPrefix(strings.TrimPrefix(p.args[0], "node/"), "nodes/")}
		return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) { return setUnschedulable(tick, k, on) }}, nil
	}
}

func setUnschedulable(tick reconcile.Tick, k api.Key, on bool) (string, error) {
	o, err := live(tick, k)
	if err != nil {
		return "", err
	}
	n := o.(*api.Node)
	word := map[bool]string{true: "cordoned", false: "uncordoned"}[on]
	if n.Spec.Unschedulable == on {
		return "node/" + k.Name + " already " + word + "\n", nil
	}
	n.Spec.Unschedulable = on
	if _, err := tick.Update(trace.Translate, n, fmt.Sprintf("kubectl: node/%s spec.unschedulable=%v", k.Name, on)); err != nil {
		return "", apiErr(err)
	}
	return "node/" + k.Name + " " + word + "\n", nil
}

// buildDrain cordons a node and evicts its pods (kubectl drain without
// waiting: the evicted pods terminate gracefully in later ticks).
func buildDrain(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("drain", args, []flagSpec{{"ignore-daemonsets", "", false}, {"delete-emptydir-data", "", false}, {"force", "", false},
		{"grace-period", "", true}, {"timeout", "", true}, {"pod-selector", "", true}})
	if err != nil {
		return nil, err
	}
	if len(p.args) != 1 {
		return nil, usageErr("drain", "USAGE: drain NODE [flags]")
	}
	k := api.Key{Kind: api.KindNode, Name: strings.TrimPrefix(p.args[0], "node/")}
	force := p.bool("force")
	return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
		out, err := setUnschedulable(tick, k, true)
		if err != nil {
			return "", err
		}
		pods := podsOnNode(tick, k.Name)
		var unmanaged []string
		for _, pod := range pods {
			if pod.ControllerRef() == nil {
				unmanaged = append(unmanaged, pod.Namespace+"/"+pod.Name)
			}
		}
		if len(unmanaged) > 0 && !force {
			return out, errorf("unable to drain node %q due to error: cannot delete Pods that declare no controller (use --force to override): %s, continuing command...", k.Name, strings.Join(unmanaged, ", "))
		}
		for _, pod := range pods {
			out += fmt.Sprintf("evicting pod %s/%s\n", pod.Namespace, pod.Name)
			if err := tick.Delete(trace.Translate, api.KeyOf(pod), apiserver.DeleteOptions{UID: pod.UID}, "kubectl drain: evicted pod/"+pod.Name); err != nil {
				return out, apiErr(err)
			}
		}
		for _, pod := range pods {
			out += "pod/" + pod.Name + " evicted\n"
		}
		return out + "node/" + k.Name + " drained\n", nil
	}}, nil
}

// podsOnNode lists, from the API server, the live pods bound to node.
func podsOnNode(tick reconcile.Tick, node string) []*api.Pod {
	var out []*api.Pod
	for _, o := range tick.LiveList(api.KindPod, "") {
		if p := o.(*api.Pod); p.Spec.NodeName == node && p.DeletionTimestamp == nil {
			out = append(out, p)
		}
	}
	return out
}
