package kubectl

// This file is kubectl scale (pkg/cmd/scale).

import (
	"fmt"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

func buildScale(s *Session, args []string) (*Mutation, error) {
	p, err := parseFlags("scale", args, []flagSpec{{"replicas", "", true}, {"current-replicas", "", true}})
	if err != nil {
		return nil, err
	}
	k, r, _, err := target("scale", p.args, s.namespace(p), api.KindDeployment, api.KindReplicaSet, api.KindReplicationController, api.KindStatefulSet,
		api.KindDaemonSet, api.KindControllerRevision, api.KindPersistentVolumeClaim, api.KindJob, api.KindCronJob, api.KindHorizontalPodAutoscaler,
		api.KindPodDisruptionBudget)
	if err != nil {
		return nil, err
	}
	if !p.has("replicas") {
		return nil, usageErr("scale", "required flag(s) \"replicas\" not set")
	}
	n, err := strconv.Atoi(p.str("replicas"))
	if err != nil || n < 0 {
		return nil, errorf("The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0")
	}
	return &Mutation{Object: k, run: func(tick reconcile.Tick) (string, error) {
		o, err := live(tick, k)
		if err != nil {
			return "", err
		}
		replicas := helperFor(o.GetKind()).replicas
		if replicas == nil {
			// Only Deployments, ReplicaSets and StatefulSets have a scale
			// subresource: the scale client's GET of
			// …/daemonsets/NAME/scale (or a Job's, an HPA's, a PDB's) is a 404.
			return "", serverErr("NotFound", "the server could not find the requested resource")
		}
		*replicas(o) = api.Int32(int32(n))
		if _, err := tick.Update(trace.Translate, o, fmt.Sprintf("kubectl scale: %s spec.replicas=%d", k.Short(), n)); err != nil {
			return "", apiErr(err)
		}
		return r.qualified() + "/" + k.Name + " scaled\n", nil
	}}, nil
}
