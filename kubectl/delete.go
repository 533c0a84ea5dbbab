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
	k, r, rest, err := target("delete", p.args, s.namespace(p), api.KindDeployment, api.KindReplicaSet, api.KindReplicationController, api.KindPod, api.KindNode,
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
	grace, err := deleteGracePeriod(p)
	if err != nil {
		return nil, err
	}
	if grace >= 0 {
		opts.GracePeriodSeconds = api.Int64(int64(grace))
	}
	if grace == 0 && p.bool("force") {
		// Validate prints it on stderr before anything is deleted.
		s.warn("Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.")
	}
	// PrintObj: "force deleted" with a zero grace period, and the
	// namespace of a namespaced object.
	op := "deleted"
	if grace == 0 {
		op = "force deleted"
	}
	if !r.cluster {
		op += " from " + k.Namespace + " namespace"
	}
	return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
		if _, err := live(tick, k); err != nil {
			return "", err
		}
		if err := tick.Delete(trace.Translate, k, opts, fmt.Sprintf("kubectl delete %s (cascade=%s)", k.Short(), cascade)); err != nil {
			return "", apiErr(err)
		}
		return fmt.Sprintf("%s %q %s\n", r.qualified(), k.Name, op), nil
	}}, nil
}

// deleteGracePeriod is DeleteOptions.Complete's grace period: -1 when
// unset; --now is 1; a zero without --force becomes 1 (kubectl guards
// against accidental force deletion); --force alone is 0.
func deleteGracePeriod(p *parsed) (int, error) {
	grace := -1
	if p.has("grace-period") {
		g, err := strconv.Atoi(p.str("grace-period"))
		if err != nil {
			return 0, errorf("invalid argument %q for \"--grace-period\" flag: strconv.ParseInt: parsing %q: invalid syntax", p.str("grace-period"), p.str("grace-period"))
		}
		grace = g
	}
	force := p.bool("force")
	if p.bool("now") {
		if grace != -1 {
			return 0, errorf("--now and --grace-period cannot be specified together")
		}
		grace = 1
	}
	if grace == 0 && !force {
		grace = 1
	}
	if force && grace < 0 {
		grace = 0
	}
	if grace > 0 && force {
		return 0, errorf("--force and --grace-period greater than 0 cannot be specified together")
	}
	return grace, nil
}
