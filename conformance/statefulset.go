package conformance

import (
	"context"
	"reflect"
	_ "unsafe" // go:linkname

	apps "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/history"
	upstream "k8s.io/kubernetes/pkg/controller/statefulset"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
)

// The StatefulSet controller keeps its sync unexported and reaches it only
// through its work queue's worker; the harness calls it directly for the
// tick's key, as the controller's own unit tests do from inside the
// package.
//
//go:linkname statefulSetSync k8s.io/kubernetes/pkg/controller/statefulset.(*StatefulSetController).sync
func statefulSetSync(c *upstream.StatefulSetController, ctx context.Context, key string) error

// replayStatefulSet runs upstream's sync (adoption, then
// defaultStatefulSetControl.UpdateStatefulSet: revisions, pods and
// claims, status, history) for the tick's key. The controller keeps no
// state between syncs but its informers.
func replayStatefulSet(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindStatefulSet, api.KindPod, api.KindPersistentVolumeClaim, api.KindControllerRevision)
	if err != nil {
		return outcome{}, err
	}
	names, err := statefulSetRevisionNames(in)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	srv.aliases = names.aliases
	pods, claims, sets, revisions := f.Core().V1().Pods(), f.Core().V1().PersistentVolumeClaims(), f.Apps().V1().StatefulSets(), f.Apps().V1().ControllerRevisions()
	ctrl := upstream.NewStatefulSetController(ctx, pods, sets, claims, revisions, srv.client)
	defer stopController(ctrl)
	rec := &recorder{}
	control := upstream.NewDefaultStatefulSetControl(upstream.NewStatefulPodControl(srv.client, pods.Lister(), claims.Lister(), rec),
		upstream.NewRealStatefulSetStatusUpdater(srv.client, sets.Lister()), history.NewHistory(srv.client, revisions.Lister()))
	field(ctrl, "control").Set(reflect.ValueOf(control))
	field(ctrl, "podControl").Set(reflect.ValueOf(controller.PodControlInterface(controller.RealPodControl{KubeClient: srv.client, Recorder: rec})))
	err = statefulSetSync(ctrl, ctx, in.tick.Object.Namespace+"/"+in.tick.Object.Name)
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	out.revisionHashes = names.hashes
	return out, oerr
}

// statefulSetRevisionNames pairs the StatefulSet controller's hash of the
// cached set's template (history.HashControllerRevision of its patch,
// with the collision count: the revision's name <set>-<hash> and its
// controller-revision-hash label) with the engine's.
func statefulSetRevisionNames(in *tickInput) (revisionNames, error) {
	o, ok := in.view.Get(in.tick.Object)
	if !ok {
		return revisionNames{}, nil
	}
	ours := o.(*api.StatefulSet)
	k, err := in.clock.toK8s(ours)
	if err != nil {
		return revisionNames{}, err
	}
	theirs := k.(*apps.StatefulSet)
	var collisions int32
	if c := theirs.Status.CollisionCount; c != nil {
		collisions = *c
	}
	patch, err := statefulSetPatch(theirs)
	if err != nil {
		return revisionNames{}, err
	}
	hash := history.HashControllerRevision(&apps.ControllerRevision{Data: runtime.RawExtension{Raw: patch}}, &collisions)
	return pairRevisionNames(ours.Name, hash, controllerutil.ComputeHash(&ours.Spec.Template, &collisions)), nil
}
