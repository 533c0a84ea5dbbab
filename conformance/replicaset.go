package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sort"
	_ "unsafe" // go:linkname

	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	upstream "k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/kubernetes/pkg/controller/replication"
	utilclock "k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/replicaset"
)

// replayReplicaSet runs upstream's syncReplicaSet for the tick's key, with
// the expectations the engine's controller held.
func replayReplicaSet(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindReplicaSet, api.KindPod)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	ctrl := upstream.NewReplicaSetController(ctx, f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), srv.client, replicaset.BurstReplicas)
	defer stopController(ctrl)
	rec := &recorder{}
	field(ctrl, "podControl").Set(reflect.ValueOf(controller.PodControlInterface(controller.RealPodControl{KubeClient: srv.client, Recorder: rec})))
	return syncReplicaSetLike(ctx, in, ctrl, srv, rec, f)
}

// replayReplicationController runs upstream's ReplicationManager, the
// ReplicaSet controller over ReplicationControllers
// (pkg/controller/replication), for the tick's key: its pod control
// converts each ReplicationController back before creating pods, so
// they name it as their owner.
func replayReplicationController(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindReplicationController, api.KindPod)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	ctrl := replication.NewReplicationManager(ctx, f.Core().V1().Pods(), f.Core().V1().ReplicationControllers(), srv.client, replicaset.BurstReplicas)
	defer stopController(ctrl)
	rec := &recorder{}
	// podControlAdapter{PodControlInterface}: the same adapter around a
	// pod control that writes to the harness's API server.
	pc := field(ctrl, "podControl")
	adapter := reflect.New(pc.Elem().Type()).Elem()
	adapter.Field(0).Set(reflect.ValueOf(controller.PodControlInterface(controller.RealPodControl{KubeClient: srv.client, Recorder: rec})))
	pc.Set(adapter)
	return syncReplicaSetLike(ctx, in, ctrl, srv, rec, f)
}

// syncReplicaSetOf is the ReplicaSet controller's sync of one key, on
// the controller given (its syncHandler calls it on the controller its
// constructor made).
//
//go:linkname syncReplicaSetOf k8s.io/kubernetes/pkg/controller/replicaset.(*ReplicaSetController).syncReplicaSet
func syncReplicaSetOf(rsc *upstream.ReplicaSetController, ctx context.Context, key string) error

// syncReplicaSetLike runs ctrl's syncHandler (a ReplicaSetController,
// or the ReplicationManager that embeds one) for the tick's key with the
// expectations the engine's controller held, and reads the outcome.
func syncReplicaSetLike(ctx context.Context, in *tickInput, ctrl any, srv *apiServer, rec *recorder, f informers.SharedInformerFactory) (outcome, error) {
	field(ctrl, "clock").Set(reflect.ValueOf(utilclock.PassiveClock(clocktesting.NewFakePassiveClock(in.clock.now))))
	key := in.tick.Object.Namespace + "/" + in.tick.Object.Name
	if ours, ok := in.before.(*replicaset.Controller); ok {
		exp := field(ctrl, "expectations").Interface().(*controller.UIDTrackingControllerExpectations)
		logger := klog.FromContext(ctx)
		if adds, dels, pending := ours.Expectations(in.tick.Object, in.tick.Time); pending {
			if len(dels) > 0 {
				keys := make([]string, len(dels))
				for i, k := range dels {
					keys[i] = k.Namespace + "/" + k.Name
				}
				_ = exp.ExpectDeletions(logger, key, keys)
			} else {
				_ = exp.SetExpectations(logger, key, adds, 0)
			}
		}
	}
	sync := field(ctrl, "syncHandler").Interface().(func(context.Context, string) error)
	if rm, ok := ctrl.(*replication.ReplicationManager); ok {
		// NewReplicationManager copies the controller NewBaseController
		// made, whose syncHandler stays bound to the original: sync the
		// copy, whose pod control and clock the harness set.
		sync = func(ctx context.Context, key string) error {
			return syncReplicaSetOf(&rm.ReplicaSetController, ctx, key)
		}
	}
	err := sync(ctx, key)
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	if oerr != nil {
		return out, oerr
	}
	out.expectations = upstreamExpectations(field(ctrl, "expectations").Interface().(*controller.UIDTrackingControllerExpectations), key)
	if ours, ok := in.comp.(*replicaset.Controller); ok {
		adds, dels, pending := ours.Expectations(in.tick.Object, in.tick.Time)
		out.engineExpectations = expectationsLine(pending, int64(adds), int64(len(dels)))
	}
	out.couldDelete, oerr = deletionChoices(f, in)
	return out, oerr
}

// deletionChoices returns whether upstream could have chosen a given set
// of the ReplicaSet's pods to delete. getPodsToDelete sorts the pods with
// controller.ActivePodsWithRanks (ranks as getPodsRankedByRelatedPodsOnSameNode
// gives them) using sort.Sort, which is not stable, over the informer's
// map order, so among pods its Less cannot tell apart the choice depends
// on an order nobody controls (and Less is not even transitive in its
// ties: a pod can rank before a second by uid, the second tie with a
// third, and the third before the first). A set is a choice upstream
// could make when upstream's own sort, over some order of the same pods,
// puts exactly those first: the harness tries the victims first, name
// order, and 500 seeded shuffles.
func deletionChoices(f informers.SharedInformerFactory, in *tickInput) (func(victims []string) bool, error) {
	var rs metav1.Object
	var err error
	if in.tick.Object.Kind == api.KindReplicationController {
		rs, err = f.Core().V1().ReplicationControllers().Lister().ReplicationControllers(in.tick.Object.Namespace).Get(in.tick.Object.Name)
	} else {
		rs, err = f.Apps().V1().ReplicaSets().Lister().ReplicaSets(in.tick.Object.Namespace).Get(in.tick.Object.Name)
	}
	if err != nil {
		return nil, nil // deleted: nothing to rank
	}
	all, err := f.Core().V1().Pods().Lister().Pods(rs.GetNamespace()).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	// The pods to rank: the ReplicaSet's own active pods.
	var pods []*core.Pod
	for _, p := range all {
		if ref := metav1.GetControllerOf(p); ref != nil && ref.UID == rs.GetUID() && controller.IsPodActive(p) {
			pods = append(pods, p)
		}
	}
	// Their ranks: how many related pods share their node
	// (getIndirectlyRelatedPods: pods any ReplicaSet with the same
	// controller selects, each once; none for a ReplicaSet without one).
	onNode := map[string]int{}
	if owner := metav1.GetControllerOf(rs); owner != nil {
		rss, err := f.Apps().V1().ReplicaSets().Lister().ReplicaSets(rs.GetNamespace()).List(labels.Everything())
		if err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, related := range rss {
			if o := metav1.GetControllerOf(related); o == nil || o.UID != owner.UID {
				continue
			}
			sel, err := metav1.LabelSelectorAsSelector(related.Spec.Selector)
			if err != nil {
				continue
			}
			for _, p := range all {
				if !seen[string(p.UID)] && sel.Matches(labels.Set(p.Labels)) {
					seen[string(p.UID)] = true
					if controller.IsPodActive(p) {
						onNode[p.Spec.NodeName]++
					}
				}
			}
		}
	}
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	now := metav1.NewTime(in.clock.now)
	return func(victims []string) bool {
		want := map[string]bool{}
		for _, v := range victims {
			want[v] = true
		}
		// The victims first: an informer order in which upstream, if it
		// can make this choice at all, most likely does.
		first := make([]*core.Pod, 0, len(pods))
		for _, p := range pods {
			if want[p.Name] {
				first = append(first, p)
			}
		}
		for _, p := range pods {
			if !want[p.Name] {
				first = append(first, p)
			}
		}
		orders := [][]*core.Pod{first, pods}
		rng := rand.New(rand.NewPCG(uint64(len(pods)), uint64(len(victims))))
		for range 500 {
			o := append([]*core.Pod(nil), pods...)
			rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
			orders = append(orders, o)
		}
		for _, order := range orders {
			ranked := controller.ActivePodsWithRanks{Pods: append([]*core.Pod(nil), order...), Rank: make([]int, len(order)), Now: now}
			for i, p := range ranked.Pods {
				ranked.Rank[i] = onNode[p.Spec.NodeName]
			}
			sort.Sort(ranked)
			if len(victims) <= len(ranked.Pods) && sameNames(ranked.Pods[:len(victims)], want) {
				return true
			}
		}
		return false
	}, nil
}

func sameNames(pods []*core.Pod, want map[string]bool) bool {
	for _, p := range pods {
		if !want[p.Name] {
			return false
		}
	}
	return true
}

// upstreamExpectations is what the sync left the controller expecting to
// see: pods created and deleted but not yet observed.
func upstreamExpectations(exp *controller.UIDTrackingControllerExpectations, key string) string {
	e, ok, err := exp.GetExpectations(key)
	if err != nil || !ok {
		return expectationsLine(false, 0, 0)
	}
	add, del := e.GetExpectations()
	return expectationsLine(add > 0 || del > 0, add, del)
}

func expectationsLine(pending bool, add, del int64) string {
	if !pending {
		return "expectations: none pending"
	}
	return fmt.Sprintf("expectations: %d creations and %d deletions to observe", max(add, 0), max(del, 0))
}
