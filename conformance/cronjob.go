package conformance

import (
	"context"
	"reflect"
	"time"
	_ "unsafe" // go:linkname

	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	upstream "k8s.io/kubernetes/pkg/controller/cronjob"
	ttl "k8s.io/kubernetes/pkg/controller/ttlafterfinished"
	utilclock "k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/stateflow/stateflow/engine/api"
)

// The CronJob controller's sync and the TTL-after-finished controller's
// processJob are unexported; the harness calls them for the tick's key,
// as the controllers' own unit tests do from inside their packages.
//
//go:linkname cronJobSync k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).sync
func cronJobSync(c *upstream.ControllerV2, ctx context.Context, key string) (*time.Duration, error)

//go:linkname ttlProcessJob k8s.io/kubernetes/pkg/controller/ttlafterfinished.(*Controller).processJob
func ttlProcessJob(c *ttl.Controller, ctx context.Context, key string) error

// replayCronJob runs upstream's ControllerV2.sync (the history's cleanup,
// syncCronJob, the status) for the tick's key at the tick's time, and
// compares the requeue it returns. The controller keeps no state between
// syncs but its informers.
func replayCronJob(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindCronJob, api.KindJob)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	ctrl, err := upstream.NewControllerV2(ctx, f.Batch().V1().Jobs(), f.Batch().V1().CronJobs(), srv.client)
	if err != nil {
		return outcome{}, err
	}
	defer func() {
		field(ctrl, "broadcaster").Interface().(record.EventBroadcaster).Shutdown()
		field(ctrl, "queue").Interface().(interface{ ShutDown() }).ShutDown()
	}()
	rec := &recorder{}
	field(ctrl, "recorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	now := in.clock.now
	field(ctrl, "now").Set(reflect.ValueOf(func() time.Time { return now }))
	requeue, err := cronJobSync(ctrl, ctx, in.tick.Object.Namespace+"/"+in.tick.Object.Name)
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	if r, ok := engineRequeue(in); ok {
		out.engineRequeue = r
		out.requeue = requeueLine(0, false)
		if requeue != nil {
			out.requeue = requeueLine(requeue.Milliseconds(), true)
		}
	}
	return out, oerr
}

// replayTTLAfterFinished runs upstream's processJob for the tick's key.
// The controller is assembled field by field rather than with New, which
// starts an event broadcaster nothing can stop (it records no Event).
func replayTTLAfterFinished(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindJob)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	ctrl := &ttl.Controller{}
	field(ctrl, "client").Set(reflect.ValueOf(srv.client))
	field(ctrl, "jLister").Set(reflect.ValueOf(f.Batch().V1().Jobs().Lister()))
	field(ctrl, "clock").Set(reflect.ValueOf(utilclock.Clock(clocktesting.NewFakeClock(in.clock.now))))
	q := newRecordingQueue(workqueue.NewTypedRateLimitingQueue(workqueue.DefaultTypedControllerRateLimiter[string]()))
	defer q.ShutDown()
	field(ctrl, "queue").Set(reflect.ValueOf(workqueue.TypedRateLimitingInterface[string](q)))
	key := in.tick.Object.Namespace + "/" + in.tick.Object.Name
	err = ttlProcessJob(ctrl, ctx, key)
	out, oerr := upstreamOutcome(srv, &recorder{}, err, in.clock)
	if r, ok := engineRequeue(in); ok {
		out.requeue, out.engineRequeue = q.requeue(key), r
	}
	return out, oerr
}
