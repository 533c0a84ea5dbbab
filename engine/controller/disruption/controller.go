package disruption

import (
	"sort"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
)

// Name is the component name in the trace (the controller's name in
// kube-controller-manager).
const Name = "disruption-controller"

// EventSource is the source component of its Events: the recorder is
// created with "controllermanager".
const EventSource = "controllermanager"

const (
	// DeletionTimeout is how long a pod the Eviction API let go stays in
	// disruptedPods waiting to be seen deleting.
	DeletionTimeout = 2 * 60 * 1000
	// stalePodDisruptionTimeout is how long a pod may keep a
	// DisruptionTarget condition without being deleted.
	stalePodDisruptionTimeout = 2 * 60 * 1000
	// recheckRateLimit is what queue.AddRateLimited adds when the recheck
	// queue hands a PDB back: the first step of the per-item backoff
	// (5 ms; a successful sync forgot the key).
	recheckRateLimit = 5
)

// Controller is the disruption controller with its cache of
// PodDisruptionBudgets, pods and the controllers whose scale it reads.
type Controller struct {
	reconcile.Base
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindPodDisruptionBudget, api.KindPod, api.KindReplicaSet, api.KindDeployment, api.KindStatefulSet, api.KindReplicationController))}
}

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component { return &Controller{Base: c.CloneBase()} }

// Observe is the informers' handlers: a PDB is queued on every change
// (addDB, updateDB, removeDB); a pod queues the PDB it falls under
// (addPod, updatePod, deletePod) and, if it carries a DisruptionTarget
// condition but is not being deleted, itself for the stale-condition
// cleanup. ReplicaSets, Deployments and StatefulSets only fill the
// listers.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	switch o := ev.Object.(type) {
	case *api.PodDisruptionBudget:
		q.Add(api.KeyOf(o))
	case *api.Pod:
		if pdb := c.getPdbForPod(o); pdb != nil {
			q.Add(api.KeyOf(pdb))
		}
		if ev.Type == apiserver.Deleted {
			return
		}
		if has, after := nonTerminatingPodHasStaleDisruptionCondition(o, q.Now()); has {
			q.AddAfter(api.KeyOf(o), after)
		}
	}
}

// Reconcile syncs a PDB key, or cleans a pod key's stale condition.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	if key.Kind == api.KindPod {
		return c.syncStalePodDisruption(tick, key)
	}
	return c.sync(tick, key)
}

// getPdbForPod is getPdbForPod: the first PDB (by name, where upstream
// takes the lister's arbitrary first) whose selector matches the pod's
// labels; a pod without labels has none (GetPodPodDisruptionBudgets).
// Upstream also records a MultiplePodDisruptionBudgets Event from the
// informer's handler; handlers here cannot write, and the Eviction API
// refuses such a pod anyway.
func (c *Controller) getPdbForPod(pod *api.Pod) *api.PodDisruptionBudget {
	pdbs := pdbsForPod(c.Informer.List(api.KindPodDisruptionBudget, pod.Namespace), pod)
	if len(pdbs) == 0 {
		return nil
	}
	return pdbs[0]
}

// pdbsForPod is GetPodPodDisruptionBudgets over a list: the PDBs whose
// selector (an empty one matches every pod) matches the pod's labels,
// by name.
func pdbsForPod(list []api.Object, pod *api.Pod) []*api.PodDisruptionBudget {
	if len(pod.Labels) == 0 {
		return nil
	}
	var out []*api.PodDisruptionBudget
	for _, o := range list {
		pdb := o.(*api.PodDisruptionBudget)
		if pdb.Spec.Selector.AsSelector().Matches(labels.Set(pod.Labels)) {
			out = append(out, pdb)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// getPodsForPdb is getPodsForPdb: the pods of the PDB's namespace its
// selector matches, in any state (a nil selector matches none).
func (c *Controller) getPodsForPdb(pdb *api.PodDisruptionBudget) []*api.Pod {
	sel := pdb.Spec.Selector.AsSelector()
	var out []*api.Pod
	for _, o := range c.Informer.List(api.KindPod, pdb.Namespace) {
		if p := o.(*api.Pod); sel.Matches(labels.Set(p.Labels)) {
			out = append(out, p)
		}
	}
	return out
}
