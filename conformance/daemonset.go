package conformance

import (
	"context"
	"reflect"
	"time"

	apps "k8s.io/api/apps/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/kubernetes/pkg/controller"
	upstream "k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/daemon/util"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/controllerutil"
	"github.com/stateflow/stateflow/engine/controller/daemon"
	"github.com/stateflow/stateflow/engine/controller/expectations"
)

// replayDaemonSet runs upstream's syncDaemonSet for the tick's key, with
// the expectations the engine's controller held and upstream's own
// failed-pod backoff, kept across the run.
func replayDaemonSet(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindDaemonSet, api.KindControllerRevision, api.KindPod, api.KindNode)
	if err != nil {
		return outcome{}, err
	}
	names, err := daemonRevisionNames(in)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	srv.aliases = names.aliases
	backoff, restore := in.failedPodsBackoff()
	defer restore()
	ctrl, err := upstream.NewDaemonSetsController(ctx, f.Apps().V1().DaemonSets(), f.Apps().V1().ControllerRevisions(),
		f.Core().V1().Pods(), f.Core().V1().Nodes(), srv.client, backoff)
	if err != nil {
		return outcome{}, err
	}
	defer func() {
		stopController(ctrl)
		field(ctrl, "nodeUpdateQueue").Interface().(interface{ ShutDown() }).ShutDown()
	}()
	rec := &recorder{}
	field(ctrl, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	field(ctrl, "podControl").Set(reflect.ValueOf(controller.PodControlInterface(controller.RealPodControl{KubeClient: srv.client, Recorder: rec})))
	key := in.tick.Object.Namespace + "/" + in.tick.Object.Name
	exp := field(ctrl, "expectations").Interface().(*controller.ControllerExpectations)
	if ours, ok := in.before.(*daemon.Controller); ok {
		// The DaemonSet controller counts (ControllerExpectations); the
		// engine's keeps the pods it waits to see go, which count alike.
		if adds, dels, pending := daemonExpectations(ours, in.tick.Object, in.tick.Time); pending {
			_ = exp.SetExpectations(klog.FromContext(ctx), key, adds, len(dels))
		}
	}
	choices, err := daemonChoices(f, in, backoff.Clock.Now())
	if err != nil {
		return outcome{}, err
	}
	sync := field(ctrl, "syncHandler").Interface().(func(context.Context, string) error)
	err = sync(ctx, key)
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	if oerr != nil {
		return out, oerr
	}
	out.revisionHashes = names.hashes
	out.exchangeable = choices
	out.expectations = countedExpectations(exp, key)
	if ours, ok := in.comp.(*daemon.Controller); ok {
		adds, dels, pending := daemonExpectations(ours, in.tick.Object, in.tick.Time)
		out.engineExpectations = expectationsLine(pending, int64(adds), int64(len(dels)))
	}
	return out, nil
}

// daemonExpectations reads what the engine's DaemonSet controller waits
// to see for a DaemonSet. The controller keeps its expectations
// unexported and offers no accessor, so the harness reads them as it
// reaches upstream's (field).
func daemonExpectations(c *daemon.Controller, ds api.Key, now int64) (adds int, deletions []api.Key, pending bool) {
	return field(c, "exp").Interface().(expectations.Expectations).Pending(ds, now)
}

// countedExpectations is what a sync left a ControllerExpectations
// expecting to see for key.
func countedExpectations(exp *controller.ControllerExpectations, key string) string {
	e, ok, err := exp.GetExpectations(key)
	if err != nil || !ok {
		return expectationsLine(false, 0, 0)
	}
	add, del := e.GetExpectations()
	return expectationsLine(add > 0 || del > 0, add, del)
}

// revisionNames pairs the name upstream gives the ControllerRevision of
// the tick's template with the engine's (see the revision-name
// allowance): hashes maps upstream's hash to the engine's, aliases
// upstream's revision name to the engine's.
type revisionNames struct {
	hashes, aliases map[string]string
}

func pairRevisionNames(owner, theirs, ours string) revisionNames {
	return revisionNames{hashes: map[string]string{theirs: ours}, aliases: map[string]string{owner + "-" + theirs: owner + "-" + ours}}
}

// daemonRevisionNames pairs the DaemonSet controller's hash of the cached
// DaemonSet's template (controller.ComputeHash, the revision's name and
// its pods' controller-revision-hash) with the engine's.
func daemonRevisionNames(in *tickInput) (revisionNames, error) {
	o, ok := in.view.Get(in.tick.Object)
	if !ok {
		return revisionNames{}, nil
	}
	ours := o.(*api.DaemonSet)
	k, err := in.clock.toK8s(ours)
	if err != nil {
		return revisionNames{}, err
	}
	theirs := k.(*apps.DaemonSet)
	return pairRevisionNames(ours.Name, controller.ComputeHash(&theirs.Spec.Template, theirs.Status.CollisionCount),
		controllerutil.ComputeHash(&ours.Spec.Template, ours.Status.CollisionCount)), nil
}

// failedPodsBackoff lends the run's failed-pod backoff (the one
// kube-controller-manager gives the controller: 1 s doubling to 15
// minutes, per DaemonSet, generation and node) to one sync, on the
// tick's clock; the returned func moves it back to virtual time. The
// engine deletes a failed daemon pod at every sync; upstream, within the
// backoff, waits.
func (in *tickInput) failedPodsBackoff() (*flowcontrol.Backoff, func()) {
	run := in.run
	if run == nil {
		run = newRunState()
	}
	if run.backoff == nil {
		run.backoff = flowcontrol.NewFakeBackOff(time.Second, 15*time.Minute, clocktesting.NewFakeClock(time.Time{}))
	}
	b := run.backoff
	b.Clock = clocktesting.NewFakeClock(in.clock.now)
	shiftBackoff(b, in.clock.offset)
	return b, func() { shiftBackoff(b, -in.clock.offset) }
}

// shiftBackoff moves every lastUpdate a Backoff holds by d (its entries
// are unexported).
func shiftBackoff(b *flowcontrol.Backoff, d time.Duration) {
	entries := field(b, "perItemBackoff")
	for _, k := range entries.MapKeys() {
		last := entries.MapIndex(k).Elem().FieldByName("lastUpdate")
		last = reflect.NewAt(last.Type(), last.Addr().UnsafePointer()).Elem()
		last.Set(reflect.ValueOf(last.Interface().(time.Time).Add(d)))
	}
}

// daemonChoice is what a DaemonSet sync's rolling update leaves to the
// order in which it ranges over nodeToDaemonPods, a map (see the
// daemon-node-order allowance): the pods it may delete and the nodes it
// may give a new pod, when it takes only some of them.
type daemonChoice struct {
	deletions map[string]bool // pod names
	creations map[string]bool // node names
}

// daemonChoices finds, from the cache upstream's sync reads, the old pods
// and nodes among which rollingUpdate (update.go) picks by map order:
// without surge, the available old pods alone on their nodes
// (candidatePodsToDelete, of which it deletes the first
// maxUnavailable-numUnavailable); with surge, the nodes whose only pod
// is old and available and which should run one (candidateNewNodes, the
// first maxSurge-numSurge get a new pod) and the old available pods on
// nodes that should not (shouldNotRunPodsToDelete, the first
// numAvailable-desired go). The counts do not depend on the order, only
// the choice does. Pods on nodes that may not keep them are left out.
// Nodes are those with pods, as the map upstream ranges over: a node
// that should run a pod and has none is no candidate.
func daemonChoices(f informers.SharedInformerFactory, in *tickInput, now time.Time) (*daemonChoice, error) {
	ds, err := f.Apps().V1().DaemonSets().Lister().DaemonSets(in.tick.Object.Namespace).Get(in.tick.Object.Name)
	if err != nil || ds.Spec.UpdateStrategy.Type != apps.RollingUpdateDaemonSetStrategyType {
		return nil, nil
	}
	nodes, err := f.Core().V1().Nodes().Lister().List(labels.Everything())
	if err != nil {
		return nil, err
	}
	pods, err := f.Core().V1().Pods().Lister().Pods(ds.Namespace).List(labels.Everything())
	if err != nil {
		return nil, err
	}
	byNode := map[string][]*core.Pod{}
	for _, p := range pods {
		if ref := metav1.GetControllerOf(p); ref == nil || ref.UID != ds.UID || podutil.IsPodTerminal(p) && p.DeletionTimestamp != nil {
			continue
		}
		if n, err := util.GetTargetNodeName(p); err == nil {
			byNode[n] = append(byNode[n], p)
		}
	}
	generation, err := util.GetTemplateGeneration(ds)
	if err != nil {
		generation = nil
	}
	// The hash of the current revision: the pods' label is the engine's,
	// upstream's sync reads the same (its revision is found by content).
	hash := ""
	if o, ok := in.view.Get(in.tick.Object); ok {
		d := o.(*api.DaemonSet)
		hash = controllerutil.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	}
	surge := util.AllowsSurge(ds)
	choice := &daemonChoice{deletions: map[string]bool{}, creations: map[string]bool{}}
	available := func(p *core.Pod) bool {
		return podutil.IsPodAvailable(p, ds.Spec.MinReadySeconds, metav1.Time{Time: now})
	}
	listed := map[string]*core.Node{}
	for _, n := range nodes {
		listed[n.Name] = n
	}
	for name, pods := range byNode {
		var newPod, oldPod *core.Pod
		ok := true
		for _, p := range pods {
			if p.DeletionTimestamp != nil {
				continue
			}
			if util.IsPodUpdated(p, hash, generation) {
				ok = ok && newPod == nil
				newPod = p
			} else {
				ok = ok && oldPod == nil
				oldPod = p
			}
		}
		if !ok || oldPod == nil || newPod != nil || !available(oldPod) {
			continue
		}
		n, known := listed[name]
		if !known {
			// A pod still bound to a deleted node: without surge a
			// candidate like any other (that branch never looks the node
			// up); with surge, the lookup fails the whole rolling update.
			if !surge {
				choice.deletions[oldPod.Name] = true
			}
			continue
		}
		// A node that may not keep its pod is manage's, which deletes it
		// whatever the order (and then the rolling update waits for the
		// deletion: it runs only in a sync where manage did nothing).
		shouldRun, shouldContinue := upstream.NodeShouldRunDaemonPod(n, ds)
		switch {
		case !shouldContinue:
		case !surge:
			choice.deletions[oldPod.Name] = true
		case shouldRun:
			choice.creations[n.Name] = true
		default:
			choice.deletions[oldPod.Name] = true
		}
	}
	return choice, nil
}
