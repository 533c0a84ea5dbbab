package conformance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unsafe"

	batch "k8s.io/api/batch/v1"
	core "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	upstream "k8s.io/kubernetes/pkg/controller/job"
	utilclock "k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/job"
	"github.com/stateflow/stateflow/engine/trace"
)

// The Job controller keeps syncOrphanPod, its state's types and their
// methods unexported; the harness reaches them as the controller's own
// unit tests do from inside the package. orphanPodKey and backoffRecord
// are upstream's types of the same names, field for field (a linkname
// passes them as they are laid out).
//
//go:linkname jobSyncOrphanPod k8s.io/kubernetes/pkg/controller/job.(*Controller).syncOrphanPod
func jobSyncOrphanPod(c *upstream.Controller, ctx context.Context, key orphanPodKey) error

//go:linkname expectFinalizersRemoved k8s.io/kubernetes/pkg/controller/job.(*uidTrackingExpectations).expectFinalizersRemoved
func expectFinalizersRemoved(e unsafe.Pointer, logger klog.Logger, jobKey string, uids []types.UID) error

//go:linkname getExpectedUIDs k8s.io/kubernetes/pkg/controller/job.(*uidTrackingExpectations).getExpectedUIDs
func getExpectedUIDs(e unsafe.Pointer, jobKey string) sets.Set[types.UID]

//go:linkname activePodsForRemoval k8s.io/kubernetes/pkg/controller/job.activePodsForRemoval
func activePodsForRemoval(j *batch.Job, pods []*core.Pod, rmAtLeast int) []*core.Pod

//go:linkname getFailJobMessage k8s.io/kubernetes/pkg/controller/job.getFailJobMessage
func getFailJobMessage(j *batch.Job, pods []*core.Pod) *string

//go:linkname updateBackoffRecord k8s.io/kubernetes/pkg/controller/job.(*backoffStore).updateBackoffRecord
func updateBackoffRecord(s unsafe.Pointer, r backoffRecord) error

// orphanPodKey is upstream's orphanPodKey: kind 0 (OrphanPodKeyKindName)
// names a pod.
type orphanPodKey struct {
	kind      int
	namespace string
	value     string
}

type backoffRecord struct {
	key                      string
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

// replayJob runs upstream's syncJob for the tick's Job, with the state
// the engine's controller held before the tick: the pod expectations, the
// pods whose finalizer removal it waits to see, the pod failure backoff
// record and whether it marked the Job finished. A tick on a Pod key is
// the engine's syncOrphanPod, replayed through upstream's.
func replayJob(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindJob, api.KindPod)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	ctrl, err := upstream.NewController(ctx, f.Core().V1().Pods(), f.Batch().V1().Jobs(), srv.client)
	if err != nil {
		return outcome{}, err
	}
	defer stopJobController(ctrl)
	rec := &recorder{}
	field(ctrl, "recorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	field(ctrl, "podControl").Set(reflect.ValueOf(controller.PodControlInterface(controller.RealPodControl{KubeClient: srv.client, Recorder: rec})))
	field(ctrl, "clock").Set(reflect.ValueOf(utilclock.WithTicker(clocktesting.NewFakeClock(in.clock.now))))
	q := newRecordingQueue(field(ctrl, "queue").Interface().(workqueue.TypedRateLimitingInterface[string]))
	field(ctrl, "queue").Set(reflect.ValueOf(workqueue.TypedRateLimitingInterface[string](q)))
	k := in.tick.Object
	if k.Kind == api.KindPod {
		err = jobSyncOrphanPod(ctrl, ctx, orphanPodKey{namespace: k.Namespace, value: k.Name})
		return upstreamOutcome(srv, rec, err, in.clock)
	}
	key := k.Namespace + "/" + k.Name
	uid := cachedUID(in)
	if ours, ok := in.before.(*job.Controller); ok {
		if err := restoreJobState(ctx, ctrl, ours, in, uid); err != nil {
			return outcome{}, err
		}
	}
	sync := field(ctrl, "syncHandler").Interface().(func(context.Context, string) error)
	err = sync(ctx, key)
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	if oerr != nil {
		return out, oerr
	}
	out.expectations = upstreamJobState(ctrl, key, uid, in.clock)
	if ours, ok := in.comp.(*job.Controller); ok {
		out.engineExpectations = engineJobState(ours, k, uid, in.tick.Time)
	}
	if r, ok := engineRequeue(in); ok {
		out.requeue, out.engineRequeue = q.requeue(key), r
	}
	out.backoffRequeue = backoffRequeued(q.calls[key], in)
	out.couldDelete, oerr = jobDeletionChoices(f, in)
	if oerr != nil {
		return out, oerr
	}
	out.failJobMessages, oerr = failJobMessages(f, in)
	return out, oerr
}

// jobPods is the cached Job of the tick and the pods it controls, nil
// when the Job is gone.
func jobPods(f informers.SharedInformerFactory, in *tickInput) (*batch.Job, []*core.Pod, error) {
	j, err := f.Batch().V1().Jobs().Lister().Jobs(in.tick.Object.Namespace).Get(in.tick.Object.Name)
	if err != nil {
		return nil, nil, nil
	}
	all, err := f.Core().V1().Pods().Lister().Pods(j.Namespace).List(labels.Everything())
	if err != nil {
		return nil, nil, err
	}
	var pods []*core.Pod
	for _, p := range all {
		if ref := metav1.GetControllerOf(p); ref != nil && ref.UID == j.UID {
			pods = append(pods, p)
		}
	}
	sort.Slice(pods, func(a, b int) bool { return pods[a].Name < pods[b].Name })
	return j, pods, nil
}

// failJobMessages are the messages upstream's getFailJobMessage could
// give the Job's failure: one for each failed pod a FailJob rule matches,
// of which it takes the first in its pod indexer's order, a map's (see
// the fail-job-pod-order allowance).
func failJobMessages(f informers.SharedInformerFactory, in *tickInput) (map[string]bool, error) {
	j, pods, err := jobPods(f, in)
	if j == nil || j.Spec.PodFailurePolicy == nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, p := range pods {
		if msg := getFailJobMessage(j, []*core.Pod{p}); msg != nil {
			out[*msg] = true
		}
	}
	return out, nil
}

// jobDeletionChoices returns whether upstream could have chosen a given
// set of the Job's active pods to delete: activePodsForRemoval sorts them
// with sort.Sort(controller.ActivePods), not stable, over the order its
// pod indexer returns them, a map's (see the equal-rank-victims
// allowance). It tries upstream's own choice over the victims first, name
// order, and 500 seeded shuffles.
func jobDeletionChoices(f informers.SharedInformerFactory, in *tickInput) (func(victims []string) bool, error) {
	j, owned, err := jobPods(f, in)
	if j == nil {
		return nil, err // deleted: nothing to choose
	}
	pods := slices.DeleteFunc(owned, func(p *core.Pod) bool { return !controller.IsPodActive(p) })
	return func(victims []string) bool {
		want := map[string]bool{}
		for _, v := range victims {
			want[v] = true
		}
		first := slices.Clone(pods)
		sort.SliceStable(first, func(a, b int) bool { return want[first[a].Name] && !want[first[b].Name] })
		orders := [][]*core.Pod{first, pods}
		rng := rand.New(rand.NewPCG(uint64(len(pods)), uint64(len(victims))))
		for range 500 {
			o := slices.Clone(pods)
			rng.Shuffle(len(o), func(a, b int) { o[a], o[b] = o[b], o[a] })
			orders = append(orders, o)
		}
		for _, order := range orders {
			if rm := activePodsForRemoval(j, slices.Clone(order), len(victims)); len(rm) == len(victims) && sameNames(rm, want) {
				return true
			}
		}
		return false
	}, nil
}

// backoffRequeued reports whether upstream's sync put the Job back in its
// queue for the pod failure backoff (enqueueSyncJobWithDelay: at least
// the batch period, SyncJobBatchPeriod): an add that is not the active
// deadline's, which comes after the deadline less the time since the
// start (the whole deadline when the sync set the start).
func backoffRequeued(calls []time.Duration, in *tickInput) bool {
	var deadline []time.Duration
	if o, ok := in.view.Get(in.tick.Object); ok {
		if j := o.(*api.Job); j.Spec.ActiveDeadlineSeconds != nil {
			d := time.Duration(*j.Spec.ActiveDeadlineSeconds) * time.Second
			deadline = append(deadline, d)
			if j.Status.StartTime != nil {
				deadline = append(deadline, d-time.Duration(in.tick.Time-j.Status.StartTime.MS)*time.Millisecond)
			}
		}
	}
	for _, d := range calls {
		if d >= upstream.SyncJobBatchPeriod && !slices.Contains(deadline, d) {
			return true
		}
	}
	return false
}

// stopJobController shuts down what NewController started: its event
// broadcaster and its two work queues.
func stopJobController(ctrl *upstream.Controller) {
	field(ctrl, "broadcaster").Interface().(record.EventBroadcaster).Shutdown()
	field(ctrl, "queue").Interface().(interface{ ShutDown() }).ShutDown()
	field(ctrl, "orphanQueue").Interface().(interface{ ShutDown() }).ShutDown()
}

// cachedUID is the uid of the tick's object in the component's cache, ""
// when it holds none.
func cachedUID(in *tickInput) string {
	if o, ok := in.view.Get(in.tick.Object); ok {
		return o.Meta().UID
	}
	return ""
}

// restoreJobState gives upstream's controller the state the engine's
// held for the Job before the tick.
func restoreJobState(ctx context.Context, ctrl *upstream.Controller, ours *job.Controller, in *tickInput, uid string) error {
	k := in.tick.Object
	key := k.Namespace + "/" + k.Name
	logger := klog.FromContext(ctx)
	if adds, dels, pending := ours.Expectations(k, in.tick.Time); pending {
		exp := field(ctrl, "expectations").Interface().(*controller.ControllerExpectations)
		if err := exp.SetExpectations(logger, key, adds, dels); err != nil {
			return err
		}
	}
	if uids := ours.FinalizerExpectations(k); len(uids) > 0 {
		set := make([]types.UID, len(uids))
		for i, u := range uids {
			set[i] = types.UID(u)
		}
		if err := expectFinalizersRemoved(field(ctrl, "finalizerExpectations").UnsafePointer(), logger, key, set); err != nil {
			return err
		}
	}
	if failures, last, ok := ours.Backoff(k); ok {
		t := api.Time{MS: last, Set: true}.Wall().Add(in.clock.offset)
		if err := updateBackoffRecord(field(ctrl, "podBackoffStore").UnsafePointer(), backoffRecord{key: key, failuresAfterLastSuccess: failures, lastFailureTime: &t}); err != nil {
			return err
		}
	}
	if uid != "" && ours.FinishedExpected(uid) {
		finishedJobExpectations(ctrl).Store(types.UID(uid), struct{}{})
	}
	return nil
}

func finishedJobExpectations(ctrl *upstream.Controller) *sync.Map {
	return field(ctrl, "finishedJobExpectations").Addr().Interface().(*sync.Map)
}

// upstreamJobState is what upstream's controller keeps for the Job after
// the sync, in comparable form.
func upstreamJobState(ctrl *upstream.Controller, key, uid string, clk clock) string {
	exp := countedExpectations(field(ctrl, "expectations").Interface().(*controller.ControllerExpectations), key)
	var removals []string
	for u := range getExpectedUIDs(field(ctrl, "finalizerExpectations").UnsafePointer(), key) {
		removals = append(removals, string(u))
	}
	slices.Sort(removals)
	var failures int32
	var last int64
	store := field(ctrl, "podBackoffStore").Interface()
	if o, ok, _ := field(store, "store").Interface().(interface {
		GetByKey(string) (any, bool, error)
	}).GetByKey(key); ok {
		r := (*backoffRecord)(reflect.ValueOf(o).UnsafePointer())
		failures = r.failuresAfterLastSuccess
		if r.lastFailureTime != nil {
			last = r.lastFailureTime.Add(-clk.offset).Sub(api.Time{Set: true}.Wall()).Milliseconds()
		}
	}
	_, finished := finishedJobExpectations(ctrl).Load(types.UID(uid))
	return jobStateLine(exp, removals, failures, last, finished)
}

// engineJobState is what the engine's controller keeps for the Job
// after the tick, in the same form.
func engineJobState(ours *job.Controller, k api.Key, uid string, now int64) string {
	adds, dels, pending := ours.Expectations(k, now)
	failures, last, ok := ours.Backoff(k)
	if !ok {
		failures = 0
	}
	return jobStateLine(expectationsLine(pending, int64(adds), int64(dels)), ours.FinalizerExpectations(k), failures, last, uid != "" && ours.FinishedExpected(uid))
}

func jobStateLine(exp string, removals []string, failures int32, last int64, finished bool) string {
	var b strings.Builder
	b.WriteString(exp)
	if len(removals) > 0 {
		fmt.Fprintf(&b, "; finalizer removals to observe: %s", strings.Join(removals, ", "))
	}
	if failures > 0 {
		fmt.Fprintf(&b, "; backoff: %d failures since the last success, the last at %s", failures, trace.FormatTime(last))
	}
	if finished {
		b.WriteString("; marked finished")
	}
	return b.String()
}
