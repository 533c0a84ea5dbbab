package kubectl

// This file is kubectl delete (pkg/cmd/delete).

import (
	"fmt"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

func buildDelete(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("delete", args, []flagSpec{{"cascade", "", true}, {"grace-period", "", true}, {"force", "", false}, {"wait", "", false}, {"now", "", false}})
	if err != nil {
		return nil, err
	}
	k, r, rest, err := target("delete", p.args, s.namespace(p), api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindNode,
		api.KindService, api.KindEndpoints, api.KindEndpointSlice, api.KindDaemonSet, api.KindControllerRevision, api.KindStatefulSet,
		api.KindPersistentVolumeClaim, api.KindJob, api.KindCronJob, api.KindHorizontalPodAutoscaler, api.KindPodDisruptionBudget,
		api.KindPodMetrics, api.KindNodeMetrics)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, usageErr("delete", "Stateflow deletes one object per command; got extra arguments %v", rest)
	}
	cascade := p.str("cascade")
	switch cascade {
	case "", "true", "background":
		cascade = "background"
	case "foreground", "orphan":
	case "false":
		cascade = "orphan"
	default:
		return nil, errorf("invalid cascade value (%s). Must be \"background\", \"foreground\", or \"orphan\"", cascade)
	}
	opts := apiserver.DeleteOptions{Propagation: cascade}
	if p.has("grace-period") {
		g, err := strconv.Atoi(p.str("grace-period"))
		if err != nil {
			return nil, errorf("invalid argument %q for \"--grace-period\" flag", p.str("grace-period"))
		}
		if g >= 0 {
			opts.GracePeriodSeconds = api.Int64(int64(g))
		}
	}
	if p.bool("force") || p.bool("now") {
		g := int64(0)
		if p.bool("now") {
			g = 1
		}
		opts.GracePeriodSeconds = &g
	}
	return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
		if _, err := live(tick, k); err != nil {
			return "", err
		}
		if err := tick.Delete(trace.Translate, k, opts, fmt.Sprintf("kubectl delete %s (cascade=%s)", k.Short(), cascade)); err != nil {
			return "", apiErr(err)
		}
		out := fmt.Sprintf("%s %q deleted\n", r.qualified(), k.Name)
		if p.bool("force") {
			out = "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n" + out
		}
		return out, nil
	}}, nil
}
