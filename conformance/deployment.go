package conformance

import (
	"context"
	"reflect"
	"time"
	_ "unsafe" // go:linkname

	apps "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/deployment"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/controller/cronjob"
	"github.com/stateflow/stateflow/engine/controller/daemon"
	dc "github.com/stateflow/stateflow/engine/controller/deployment"
	"github.com/stateflow/stateflow/engine/controller/disruption"
	"github.com/stateflow/stateflow/engine/controller/endpoint"
	"github.com/stateflow/stateflow/engine/controller/endpointslice"
	"github.com/stateflow/stateflow/engine/controller/job"
	"github.com/stateflow/stateflow/engine/controller/podautoscaler"
	"github.com/stateflow/stateflow/engine/controller/replicaset"
	"github.com/stateflow/stateflow/engine/controller/statefulset"
	"github.com/stateflow/stateflow/engine/controller/ttlafterfinished"
	"github.com/stateflow/stateflow/engine/proxy"
	"github.com/stateflow/stateflow/engine/scheduler"
)

// The deployment controller reads the time for its progress deadline
// through these package variables (progress.go, util/deployment_util.go),
// which upstream's own tests replace; the harness sets them to the tick's
// virtual time.
//
//go:linkname deploymentNowFn k8s.io/kubernetes/pkg/controller/deployment.nowFn
var deploymentNowFn func() time.Time

//go:linkname deploymentUtilNowFn k8s.io/kubernetes/pkg/controller/deployment/util.nowFn
var deploymentUtilNowFn func() time.Time

// replayers are the controllers the harness checks, by component name.
var replayers = map[string]replayer{
	dc.Name:                    replayDeployment,
	replicaset.Name:            replayReplicaSet,
	replicaset.ReplicationName: replayReplicationController,
	scheduler.Name:             replayScheduler,
	endpointslice.Name:         replayEndpointSlice,
	endpoint.Name:              replayEndpoints,
	daemon.Name:                replayDaemonSet,
	statefulset.Name:           replayStatefulSet,
	proxy.Name:                 replayKubeProxy,
	job.Name:                   replayJob,
	cronjob.Name:               replayCronJob,
	ttlafterfinished.Name:      replayTTLAfterFinished,
	podautoscaler.Name:         replayHPA,
	disruption.Name:            replayDisruption,
}

// localState names the components whose state outside their cache a sync
// reads, so the harness keeps a copy from before each tick.
var localState = map[string]bool{replicaset.Name: true, replicaset.ReplicationName: true, scheduler.Name: true, endpointslice.Name: true, endpoint.Name: true, daemon.Name: true, proxy.Name: true,
	job.Name: true, cronjob.Name: true, ttlafterfinished.Name: true, podautoscaler.Name: true, disruption.Name: true}

// virtualTime names the components whose upstream controllers read the
// time only through the clock the harness gives them (see virtualClock).
var virtualTime = map[string]bool{job.Name: true, cronjob.Name: true, ttlafterfinished.Name: true}

// informersFrom builds shared informers that are never started, whose
// indexers hold exactly the objects of view (kinds of the tick's
// namespace, and every cached Node) — the upstream unit tests' way to give
// a controller a cache.
func informersFrom(in *tickInput, kinds ...string) (informers.SharedInformerFactory, error) {
	f := informers.NewSharedInformerFactory(fake.NewSimpleClientset(), 0)
	informer := map[string]func() cache.SharedIndexInformer{
		api.KindDeployment:              f.Apps().V1().Deployments().Informer,
		api.KindReplicaSet:              f.Apps().V1().ReplicaSets().Informer,
		api.KindReplicationController:   f.Core().V1().ReplicationControllers().Informer,
		api.KindPod:                     f.Core().V1().Pods().Informer,
		api.KindNode:                    f.Core().V1().Nodes().Informer,
		api.KindService:                 f.Core().V1().Services().Informer,
		api.KindEndpointSlice:           f.Discovery().V1().EndpointSlices().Informer,
		api.KindEndpoints:               f.Core().V1().Endpoints().Informer,
		api.KindDaemonSet:               f.Apps().V1().DaemonSets().Informer,
		api.KindStatefulSet:             f.Apps().V1().StatefulSets().Informer,
		api.KindControllerRevision:      f.Apps().V1().ControllerRevisions().Informer,
		api.KindPersistentVolumeClaim:   f.Core().V1().PersistentVolumeClaims().Informer,
		api.KindJob:                     f.Batch().V1().Jobs().Informer,
		api.KindCronJob:                 f.Batch().V1().CronJobs().Informer,
		api.KindHorizontalPodAutoscaler: f.Autoscaling().V2().HorizontalPodAutoscalers().Informer,
		api.KindPodDisruptionBudget:     f.Policy().V1().PodDisruptionBudgets().Informer,
	}
	for _, kind := range kinds {
		idx := informer[kind]().GetIndexer()
		ns := in.tick.Object.Namespace
		if !api.Namespaced(kind) {
			ns = ""
		}
		for _, o := range in.view.List(kind, ns) {
			k, err := in.clock.toK8s(o)
			if err != nil {
				return nil, err
			}
			// A typed informer's objects carry no kind and apiVersion
			// (the decoder drops them); upstream's placeholder
			// EndpointSlice comparison, for one, sees the difference.
			if t, err := meta.TypeAccessor(k); err == nil {
				t.SetKind("")
				t.SetAPIVersion("")
			}
			if err := idx.Add(k); err != nil {
				return nil, err
			}
		}
	}
	return f, nil
}

// replayDeployment runs upstream's syncDeployment for the tick's key.
func replayDeployment(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindDeployment, api.KindReplicaSet, api.KindPod)
	if err != nil {
		return outcome{}, err
	}
	hashes, err := templateHashes(in)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	srv.hashes = hashes
	ctrl, err := deployment.NewDeploymentController(ctx, f.Apps().V1().Deployments(), f.Apps().V1().ReplicaSets(), f.Core().V1().Pods(), srv.client)
	if err != nil {
		return outcome{}, err
	}
	defer stopController(ctrl)
	rec := &recorder{}
	field(ctrl, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	now := in.clock.now
	deploymentNowFn = func() time.Time { return now }
	deploymentUtilNowFn = func() time.Time { return now }
	sync := field(ctrl, "syncHandler").Interface().(func(context.Context, string) error)
	err = sync(ctx, in.tick.Object.Namespace+"/"+in.tick.Object.Name)
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	out.hashes = hashes
	return out, oerr
}

// templateHashes pairs upstream's pod-template-hash of the cached
// Deployment's template with the engine's (allowances.go says why they
// differ).
func templateHashes(in *tickInput) (map[string]string, error) {
	o, ok := in.view.Get(in.tick.Object)
	if !ok {
		return nil, nil
	}
	ours := o.(*api.Deployment)
	k, err := in.clock.toK8s(ours)
	if err != nil {
		return nil, err
	}
	theirs := k.(*apps.Deployment)
	return map[string]string{
		controller.ComputeHash(&theirs.Spec.Template, theirs.Status.CollisionCount): controllerutil.ComputeHash(&ours.Spec.Template, ours.Status.CollisionCount),
	}, nil
}
