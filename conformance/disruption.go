package conformance

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"time"
	_ "unsafe" // go:linkname

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	fakediscovery "k8s.io/client-go/discovery/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	upstream "k8s.io/kubernetes/pkg/controller/disruption"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/stateflow/stateflow/engine/api"
)

// The disruption controller's sync (a PDB key) and syncStalePodDisruption
// (a Pod key) are unexported; the harness calls them for the tick's key,
// as the controller's own unit tests do from inside the package.
//
//go:linkname disruptionSync k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).sync
func disruptionSync(dc *upstream.DisruptionController, ctx context.Context, key string) error

//go:linkname disruptionSyncStalePod k8s.io/kubernetes/pkg/controller/disruption.(*DisruptionController).syncStalePodDisruption
func disruptionSyncStalePod(dc *upstream.DisruptionController, ctx context.Context, key string) error

// stalePodDisruptionTimeout is the controller manager's (disruption.go's
// constant of that name, which NewDisruptionController passes).
const stalePodDisruptionTimeout = 2 * time.Minute

// replayDisruption runs upstream's sync for the tick's
// PodDisruptionBudget, or its syncStalePodDisruption for a Pod key, built
// with NewDisruptionControllerInternal over informers holding the
// component's cache (PDBs, pods, ReplicaSets, Deployments, StatefulSets;
// there are no ReplicationControllers; the pods listed in name order,
// see allowances.go), a fake clock reading the tick's
// time, the fake API server, a scale client over it, the controller
// manager's discovery RESTMapper and a discovery client that lists what
// the engine's API server serves (getScaleController, implementsScale).
// The controller keeps no state between syncs but its informers and its
// queues: the requeue is compared (the recheck of a disruptedPods entry
// when it expires, the stale DisruptionTarget condition's cleanup).
//
// Upstream's clock only measures durations (the expiry of disruptedPods
// entries, the age of a DisruptionTarget condition); it stamps
// conditions with time.Now() (apimeta.SetStatusCondition,
// apipod.UpdatePodCondition), so the tick's time is anchored at the wall
// clock (newClock) and the fake clock set to it.
func replayDisruption(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindPodDisruptionBudget, api.KindPod, api.KindReplicaSet, api.KindDeployment, api.KindStatefulSet, api.KindReplicationController)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	ctrl := upstream.NewDisruptionControllerInternal(ctx, f.Core().V1().Pods(), f.Policy().V1().PodDisruptionBudgets(),
		f.Core().V1().ReplicationControllers(), f.Apps().V1().ReplicaSets(), f.Apps().V1().Deployments(), f.Apps().V1().StatefulSets(),
		srv.client, scaleMapper(), newScaleClient(srv), servedDiscovery(), clocktesting.NewFakeClock(in.clock.now), stalePodDisruptionTimeout)
	defer stopDisruptionController(ctrl)()
	rec := &recorder{}
	field(ctrl, "recorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	// getExpectedScale names the first pod, in its lister's order, whose
	// controller it cannot find: the engine's order (see allowances.go).
	field(ctrl, "podLister").Set(reflect.ValueOf(corelisters.PodLister(namedPodLister{f.Core().V1().Pods().Lister()})))
	recheck := &recordingDelays{TypedDelayingInterface: field(ctrl, "recheckQueue").Interface().(workqueue.TypedDelayingInterface[string]),
		after: map[string]time.Duration{}}
	field(ctrl, "recheckQueue").Set(reflect.ValueOf(workqueue.TypedDelayingInterface[string](recheck)))
	stale := newRecordingQueue(field(ctrl, "stalePodDisruptionQueue").Interface().(workqueue.TypedRateLimitingInterface[string]))
	field(ctrl, "stalePodDisruptionQueue").Set(reflect.ValueOf(workqueue.TypedRateLimitingInterface[string](stale)))
	k := in.tick.Object
	key := k.Namespace + "/" + k.Name
	if k.Kind == api.KindPod {
		err = disruptionSyncStalePod(ctrl, ctx, key)
	} else {
		err = disruptionSync(ctrl, ctx, key)
	}
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	if k.Kind == api.KindPod {
		out.conditionGenerations = disruptionTargetGeneration(in)
	}
	if r, ok := engineRequeue(in); ok {
		out.engineRequeue = r
		if k.Kind == api.KindPod {
			out.requeue = stale.requeue(key)
		} else {
			out.requeue = recheck.requeue(key)
		}
	}
	return out, oerr
}

// disruptionTargetGeneration maps the observedGeneration field of the
// cached pod's DisruptionTarget condition to the pod's generation, which
// upstream's reset of a stale condition writes there (see the
// pod-condition-observed-generation allowance).
func disruptionTargetGeneration(in *tickInput) map[string]string {
	o, ok := in.view.Get(in.tick.Object)
	if !ok {
		return nil
	}
	p := o.(*api.Pod)
	for i, c := range p.Status.Conditions {
		if c.Type == api.DisruptionTarget {
			return map[string]string{fmt.Sprintf("Pod/%s status.conditions[%d].observedGeneration", p.Name, i): fmt.Sprint(p.Generation)}
		}
	}
	return nil
}

// stopDisruptionController returns what shuts down what the constructor
// started: the event broadcaster and the three work queues, read when it
// is called, before the replay puts its recording queues in their place.
func stopDisruptionController(ctrl *upstream.DisruptionController) func() {
	b := field(ctrl, "broadcaster").Interface().(record.EventBroadcaster)
	var queues []interface{ ShutDown() }
	for _, q := range []string{"queue", "recheckQueue", "stalePodDisruptionQueue"} {
		queues = append(queues, field(ctrl, q).Interface().(interface{ ShutDown() }))
	}
	return func() {
		b.Shutdown()
		for _, q := range queues {
			q.ShutDown()
		}
	}
}

// recordingDelays wraps the controller's recheck queue: it records, per
// key, the earliest delay a sync asked for (a delaying queue keeps only
// the earliest) instead of waiting.
type recordingDelays struct {
	workqueue.TypedDelayingInterface[string]
	mu    sync.Mutex
	after map[string]time.Duration
}

func (q *recordingDelays) AddAfter(key string, d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if old, ok := q.after[key]; !ok || d < old {
		q.after[key] = d
	}
}

func (q *recordingDelays) Add(key string) { q.AddAfter(key, 0) }

// requeue is when the PDB is synced again after a recheck: when the delay
// is up, processNextRecheckWorkItem hands the key to the main queue with
// AddRateLimited, whose first step (the sync's success forgot the key)
// is the per-item exponential limiter's base, 5 ms.
func (q *recordingDelays) requeue(key string) string {
	d, ok := q.after[key]
	if !ok {
		return requeueLine(0, false)
	}
	d += workqueue.DefaultTypedControllerRateLimiter[string]().When(key)
	return requeueLine(d.Milliseconds(), true)
}

// servedDiscovery is a discovery client listing, for upstream's
// implementsScale, the group versions scaleMapper maps (the engine's API
// server's) with their resources, and the scale subresource of
// Deployments, ReplicaSets and StatefulSets (autoscaling/v1 Scale, as the
// apps registries serve it). implementsScale reads only the list of the
// group version of a controllerRef the mapper mapped and whose scale was
// not found; a group version missing here would be an error instead.
func servedDiscovery() *fakediscovery.FakeDiscovery {
	d := &fakediscovery.FakeDiscovery{Fake: &clienttesting.Fake{}}
	for _, g := range []struct {
		gv        string
		resources []string // "name:Kind"; namespaced unless in clusterScoped
	}{
		{"v1", []string{"pods:Pod", "nodes:Node", "events:Event", "namespaces:Namespace", "services:Service", "endpoints:Endpoints",
			"persistentvolumeclaims:PersistentVolumeClaim"}},
		{"apps/v1", []string{"deployments:Deployment", "replicasets:ReplicaSet", "daemonsets:DaemonSet", "statefulsets:StatefulSet",
			"controllerrevisions:ControllerRevision"}},
		{"discovery.k8s.io/v1", []string{"endpointslices:EndpointSlice"}},
		{"batch/v1", []string{"jobs:Job", "cronjobs:CronJob"}},
		{"autoscaling/v2", []string{"horizontalpodautoscalers:HorizontalPodAutoscaler"}},
		{"policy/v1", []string{"poddisruptionbudgets:PodDisruptionBudget"}},
		{"metrics.k8s.io/v1beta1", []string{"pods:PodMetrics", "nodes:NodeMetrics"}},
	} {
		list := &metav1.APIResourceList{GroupVersion: g.gv}
		gv, _ := schema.ParseGroupVersion(g.gv)
		for _, r := range g.resources {
			name, kind, _ := strings.Cut(r, ":")
			list.APIResources = append(list.APIResources, metav1.APIResource{Name: name, Kind: kind, Namespaced: !clusterScoped[kind]})
			if hasScale(gv.WithResource(name)) {
				list.APIResources = append(list.APIResources, metav1.APIResource{Name: name + "/scale", Group: "autoscaling", Version: "v1",
					Kind: "Scale", Namespaced: true})
			}
		}
		d.Resources = append(d.Resources, list)
	}
	return d
}

// clusterScoped are the kinds servedDiscovery lists that no namespace
// holds.
var clusterScoped = map[string]bool{"Node": true, "Namespace": true, "NodeMetrics": true}
