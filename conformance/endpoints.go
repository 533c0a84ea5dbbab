package conformance

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"time"
	_ "unsafe" // go:linkname

	discovery "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	endpointslicerec "k8s.io/endpointslice"
	endpointsliceutil "k8s.io/endpointslice/util"
	"k8s.io/klog/v2"
	endpointctrl "k8s.io/kubernetes/pkg/controller/endpoint"
	endpointslicectrl "k8s.io/kubernetes/pkg/controller/endpointslice"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/endpoint"
	"github.com/stateflow/stateflow/engine/controller/endpointslice"
)

// Both controllers keep syncService unexported and reach it only through
// their work queue's worker; the harness calls it directly for the tick's
// key, as the controllers' own unit tests do from inside the package.
//
//go:linkname endpointSliceSyncService k8s.io/kubernetes/pkg/controller/endpointslice.(*Controller).syncService
func endpointSliceSyncService(c *endpointslicectrl.Controller, logger klog.Logger, key string) error

//go:linkname endpointsSyncService k8s.io/kubernetes/pkg/controller/endpoint.(*Controller).syncService
func endpointsSyncService(c *endpointctrl.Controller, ctx context.Context, key string) error

// runState is what upstream's controllers keep across the syncs of a run
// beyond what the engine's components hold: the trigger-time trackers
// (endpointsliceutil.TriggerTimeTracker) of the EndpointSlice and
// Endpoints controllers, which remember each Service's pods' Ready
// transition times as the last sync saw them, to stamp
// endpoints.kubernetes.io/last-change-trigger-time. The engine keeps no
// such state (it writes no such annotation), so the harness keeps
// upstream's own, fed by every replayed sync, in virtual time.
type runState struct {
	triggerTimes map[string]*endpointsliceutil.TriggerTimeTracker // by component
	// backoff is the DaemonSet controller's failedPodsBackoff, in
	// virtual time between syncs (see failedPodsBackoff).
	backoff *flowcontrol.Backoff
}

func newRunState() *runState {
	return &runState{triggerTimes: map[string]*endpointsliceutil.TriggerTimeTracker{}}
}

// triggerTimes lends a component's tracker to one sync: moved onto the
// tick's wall clock, and back to virtual time by the returned func.
func (in *tickInput) triggerTimes() (*endpointsliceutil.TriggerTimeTracker, func()) {
	run := in.run
	if run == nil {
		run = newRunState()
	}
	t := run.triggerTimes[in.tick.Component]
	if t == nil {
		t = endpointsliceutil.NewTriggerTimeTracker()
		run.triggerTimes[in.tick.Component] = t
	}
	shiftTriggerTimes(t, in.clock.offset)
	return t, func() { shiftTriggerTimes(t, -in.clock.offset) }
}

// shiftTriggerTimes moves every time a TriggerTimeTracker holds by d (its
// ServiceState keeps them unexported).
func shiftTriggerTimes(t *endpointsliceutil.TriggerTimeTracker, d time.Duration) {
	for k, st := range t.ServiceStates {
		svc := field(&st, "lastServiceTriggerTime")
		if tm := svc.Interface().(time.Time); !tm.IsZero() {
			svc.Set(reflect.ValueOf(tm.Add(d)))
		}
		pods := field(&st, "lastPodTriggerTimes").Interface().(map[string]time.Time)
		for name, tm := range pods {
			pods[name] = tm.Add(d)
		}
		t.ServiceStates[k] = st
	}
}

// virtualTriggerTimes rewrites, in upstream's writes, the
// last-change-trigger-time annotation (a wall-clock RFC 3339 string the
// clock's toVirtual cannot see) into virtual time.
func virtualTriggerTimes(out *outcome, clk clock) {
	for _, c := range out.changes {
		for _, fields := range []map[string]string{c.fields, c.setFields} {
			for p, v := range fields {
				if !strings.HasSuffix(p, "."+api.AnnotationLastChangeTrigger) {
					continue
				}
				var s string
				if json.Unmarshal([]byte(v), &s) != nil {
					continue
				}
				if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
					b, _ := json.Marshal(t.Add(-clk.offset).UTC().Format(time.RFC3339Nano))
					fields[p] = string(b)
				}
			}
		}
	}
}

// replayEndpointSlice runs upstream's EndpointSlice syncService for the
// tick's Service, with the slice generations the engine's controller had
// recorded (its endpointSliceTracker) and upstream's trigger times.
func replayEndpointSlice(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindService, api.KindPod, api.KindNode, api.KindEndpointSlice)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	ctrl := endpointslicectrl.NewController(ctx, f.Core().V1().Pods(), f.Core().V1().Services(), f.Core().V1().Nodes(),
		f.Discovery().V1().EndpointSlices(), endpointslice.MaxEndpointsPerSlice, srv.client, 0)
	defer func() {
		field(ctrl, "eventBroadcaster").Interface().(record.EventBroadcaster).Shutdown()
		field(ctrl, "serviceQueue").Interface().(interface{ ShutDown() }).ShutDown()
		field(ctrl, "topologyQueue").Interface().(interface{ ShutDown() }).ShutDown()
	}()
	rec := &recorder{}
	field(ctrl, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	rc := field(ctrl, "reconciler").Interface().(*endpointslicerec.Reconciler)
	field(rc, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	seedSliceTracker(in, field(ctrl, "endpointSliceTracker").Interface().(*endpointsliceutil.EndpointSliceTracker))
	tt, restore := in.triggerTimes()
	defer restore()
	field(ctrl, "triggerTimeTracker").Set(reflect.ValueOf(tt))
	err = endpointSliceSyncService(ctrl, klog.FromContext(ctx), in.tick.Object.Namespace+"/"+in.tick.Object.Name)
	for _, ev := range rec.events {
		ev.Message = skippedPodsKey(ev.Message) // see the skipped-pods-order allowance
	}
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	virtualTriggerTimes(&out, in.clock)
	out.portlessSlices = map[string]bool{}
	for _, o := range in.live {
		if s, ok := o.(*discovery.EndpointSlice); ok && len(s.Ports) == 0 {
			out.portlessSlices[s.Name] = true
		}
	}
	return out, oerr
}

// seedSliceTracker gives upstream's EndpointSliceTracker the generations
// the engine's controller recorded for the tick's Service before the
// tick. The engine files them by Service uid, upstream by Service name.
// The engine's controllers keep this state unexported and offer no
// accessor, so the harness reads it as it reaches upstream's (field).
func seedSliceTracker(in *tickInput, t *endpointsliceutil.EndpointSliceTracker) {
	ours, ok := in.before.(*endpointslice.Controller)
	if !ok {
		return
	}
	o, ok := in.view.Get(in.tick.Object)
	if !ok {
		return
	}
	svc := o.(*api.Service)
	var tracked map[string]map[string]int64
	tracked = field(ours, "tracker").Convert(reflect.TypeOf(tracked)).Interface().(map[string]map[string]int64)
	gens, ok := tracked[svc.UID]
	if !ok {
		return
	}
	bySlice := endpointsliceutil.GenerationsBySlice{}
	for uid, g := range gens {
		bySlice[types.UID(uid)] = g
	}
	byService := field(t, "generationsByService").Interface().(map[types.NamespacedName]endpointsliceutil.GenerationsBySlice)
	byService[types.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}] = bySlice
}

// replayEndpoints runs upstream's Endpoints syncService for the tick's
// Service, with the resourceVersions the engine's controller had marked
// stale (its staleEndpointsTracker) and upstream's trigger times.
func replayEndpoints(ctx context.Context, in *tickInput) (outcome, error) {
	f, err := informersFrom(in, api.KindService, api.KindPod, api.KindEndpoints)
	if err != nil {
		return outcome{}, err
	}
	srv := newAPIServerFor(in)
	ctrl := endpointctrl.NewEndpointController(ctx, f.Core().V1().Pods(), f.Core().V1().Services(), f.Core().V1().Endpoints(), srv.client, 0)
	defer stopController(ctrl)
	rec := &recorder{}
	field(ctrl, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	if ours, ok := in.before.(*endpoint.Controller); ok {
		stale := field(field(ctrl, "staleEndpointsTracker").Interface(), "staleResourceVersionByEndpoints").Interface().(map[types.NamespacedName]string)
		for k, rv := range field(ours, "stale").Interface().(map[api.Key]string) {
			stale[types.NamespacedName{Namespace: k.Namespace, Name: k.Name}] = rv
		}
	}
	tt, restore := in.triggerTimes()
	defer restore()
	field(ctrl, "triggerTimeTracker").Set(reflect.ValueOf(tt))
	err = endpointsSyncService(ctrl, ctx, in.tick.Object.Namespace+"/"+in.tick.Object.Name)
	out, oerr := upstreamOutcome(srv, rec, err, in.clock)
	virtualTriggerTimes(&out, in.clock)
	return out, oerr
}
