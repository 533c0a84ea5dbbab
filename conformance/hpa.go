package conformance

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	_ "unsafe" // go:linkname

	apps "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscaling "k8s.io/api/autoscaling/v2"
	core "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/restmapper"
	fakescale "k8s.io/client-go/scale/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	upstream "k8s.io/kubernetes/pkg/controller/podautoscaler"
	metricsclient "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
	"k8s.io/kubernetes/pkg/controller/podautoscaler/monitor"
	"k8s.io/kubernetes/pkg/controller/util/selectors"
	metricsapi "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	fakemetrics "k8s.io/metrics/pkg/client/clientset/versioned/fake"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/controller/podautoscaler"
	"github.com/stateflow/stateflow/engine/trace"
)

// The HorizontalPodAutoscaler controller's reconcileKey and its state's
// types are unexported; the harness reaches them as the controller's own
// unit tests do from inside the package. timestampedRecommendation and
// timestampedScaleEvent are upstream's types of those names, field for
// field.
//
//go:linkname hpaReconcileKey k8s.io/kubernetes/pkg/controller/podautoscaler.(*HorizontalController).reconcileKey
func hpaReconcileKey(a *upstream.HorizontalController, ctx context.Context, key string) (deleted bool, err error)

type timestampedRecommendation struct {
	recommendation int32
	timestamp      time.Time
}

type timestampedScaleEvent struct {
	replicaChange int32
	timestamp     time.Time
	outdated      bool
}

// The controller manager's defaults (pkg/controller/podautoscaler/config
// v1alpha1 defaults): the sync period, the downscale stabilisation
// window, the tolerance, the CPU initialization period and the delay of
// the initial readiness status.
const (
	hpaSyncPeriod              = 15 * time.Second
	hpaDownscaleStabilization  = 5 * time.Minute
	hpaTolerance               = 0.1
	hpaCPUInitializationPeriod = 5 * time.Minute
	hpaDelayOfInitialReadiness = 30 * time.Second
)

// A replay's clock (see replayHPA): how many times it is tried, the
// bounds of how far ahead of the wall clock it anchors the tick's time,
// and how soon after the anchor the sync must be done.
const (
	hpaReplayAttempts      = 50
	hpaLeadMin, hpaLeadMax = 2 * time.Millisecond, 500 * time.Millisecond
	hpaClockResolution     = time.Millisecond
)

// hpaLead is how far ahead of the wall clock a replay anchors the tick's
// time (see replayHPA): twice what building the last replay took.
var hpaLead atomic.Int64

// replayHPA runs upstream's reconcileKey for the tick's HPA with the
// recommendations and scale events the engine's controller held before
// the tick.
//
// Upstream's controller has no clock: it reads time.Now() where it stamps
// a recommendation or a scale event, cuts off the stabilization windows
// and the policies' periods, decides whether a pod is still in its CPU
// initialization period, and stamps lastScaleTime and the conditions'
// transitions (its own unit tests build every timestamp relative to
// time.Now()). So the harness makes the wall clock the tick's time: it
// anchors the tick's virtual instant a little ahead of the wall clock,
// moves every timestamp it gives upstream onto that anchor, waits for the
// wall clock to reach it, and calls reconcileKey. The engine's times are
// whole milliseconds; upstream reads the tick's time plus the few
// microseconds the sync takes, so it treats a sample exactly one window
// old as outside the window, as a real controller (whose syncs are never
// exactly 15 s apart) does. A replay whose sync ran past the first
// millisecond after the anchor could read a sample one millisecond
// inside a window as outside it: it is thrown away and done again.
func replayHPA(ctx context.Context, in *tickInput) (outcome, error) {
	for range hpaReplayAttempts {
		out, ok, err := replayHPAOnce(ctx, in)
		if err != nil || ok {
			return out, err
		}
	}
	return outcome{}, fmt.Errorf("no replay of the sync finished within %v of the tick's time in %d attempts", hpaClockResolution, hpaReplayAttempts)
}

func replayHPAOnce(ctx context.Context, in *tickInput) (outcome, bool, error) {
	lead := time.Duration(hpaLead.Load())
	if lead < hpaLeadMin {
		lead = hpaLeadMin
	}
	start := time.Now()
	clk := clock{now: start.Add(lead)}
	clk.offset = clk.now.Sub(api.Time{MS: in.tick.Time, Set: true}.Wall())
	in.clock = clk
	var live []api.Object
	var podMetrics []k8sruntime.Object
	for _, o := range in.engineLive {
		if o.GetKind() != api.KindPodMetrics {
			live = append(live, o)
			continue
		}
		m, err := clk.toK8s(o)
		if err != nil {
			return outcome{}, false, err
		}
		podMetrics = append(podMetrics, m)
	}
	var err error
	if in.live, err = clk.toK8sAll(live); err != nil {
		return outcome{}, false, err
	}
	f, err := informersFrom(in, api.KindHorizontalPodAutoscaler, api.KindPod)
	if err != nil {
		return outcome{}, false, err
	}
	srv := newAPIServerFor(in)
	srv.rewrite = func(o k8sruntime.Object) {
		if h, ok := o.(*autoscaling.HorizontalPodAutoscaler); ok {
			for i := range h.Status.Conditions {
				h.Status.Conditions[i].Message = hpasSorted(h.Status.Conditions[i].Message)
			}
		}
	}
	rec := &recorder{}
	podLister := namedPodLister{f.Core().V1().Pods().Lister()}
	ctrl := &upstream.HorizontalController{}
	field(ctrl, "scaleNamespacer").Set(reflect.ValueOf(newScaleClient(srv)))
	field(ctrl, "hpaNamespacer").Set(reflect.ValueOf(srv.client.AutoscalingV2()))
	field(ctrl, "mapper").Set(reflect.ValueOf(scaleMapper()))
	field(ctrl, "tolerance").SetFloat(hpaTolerance)
	field(ctrl, "replicaCalc").Set(reflect.ValueOf(upstream.NewReplicaCalculator(newMetricsClient(podMetrics), podLister,
		hpaCPUInitializationPeriod, hpaDelayOfInitialReadiness)))
	field(ctrl, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(rec)))
	field(ctrl, "downscaleStabilisationWindow").SetInt(int64(hpaDownscaleStabilization))
	field(ctrl, "monitor").Set(reflect.ValueOf(monitor.New()))
	field(ctrl, "hpaLister").Set(reflect.ValueOf(f.Autoscaling().V2().HorizontalPodAutoscalers().Lister()))
	field(ctrl, "podLister").Set(reflect.ValueOf(corelisters.PodLister(podLister)))
	field(ctrl, "hpaSelectors").Set(reflect.ValueOf(selectors.NewBiMultimap()))
	recs, ups, downs := hpaState(ctrl)
	*recs, *ups, *downs = map[string][]timestampedRecommendation{}, map[string][]timestampedScaleEvent{}, map[string][]timestampedScaleEvent{}
	k := in.tick.Object
	key := k.Namespace + "/" + k.Name
	if ours, ok := in.before.(*podautoscaler.Controller); ok {
		restoreHPASelectors(ctrl, ours)
		restoreHPAState(ours, k, key, clk, *recs, *ups, *downs)
	}
	setup := time.Since(start)
	hpaLead.Store(int64(min(2*setup, hpaLeadMax)))
	if setup >= lead {
		return outcome{}, false, nil
	}
	waitUntil(clk.now)
	deleted, err := hpaReconcileKey(ctrl, ctx, key)
	if !withinResolution(clk.now, time.Now()) {
		return outcome{}, false, nil
	}
	out, oerr := upstreamOutcome(srv, rec, err, clk)
	if oerr != nil {
		return out, false, oerr
	}
	hpasInOrder(&out)
	out.expectations = hpaStateLine(stateOf(*recs, *ups, *downs, key, clk))
	if ours, ok := in.comp.(*podautoscaler.Controller); ok {
		out.engineExpectations = hpaStateLine(engineHPAState(ours, k))
	}
	if r, ok := engineRequeue(in); ok {
		// processNextWorkItem: a key not deleted goes back into the
		// queue through the HPA rate limiter (a fixed interval).
		out.requeue, out.engineRequeue = requeueLine(0, false), r
		if !deleted {
			d := upstream.NewDefaultHPARateLimiter(hpaSyncPeriod).When(key)
			out.requeue = requeueLine(d.Milliseconds(), true)
		}
	}
	return out, true, nil
}

// waitUntil returns once the wall clock has passed t: it sleeps until
// shortly before, then spins. It reads the wall clock, not the monotonic
// one, because every time the harness converts (clock.offset, the
// restored stamps, stateOf) is a wall-clock reading.
func waitUntil(t time.Time) {
	t = t.Round(0)
	if d := time.Until(t) - 2*time.Millisecond; d > 0 {
		time.Sleep(d)
	}
	for !time.Now().Round(0).After(t) {
		runtime.Gosched()
	}
}

// withinResolution reports whether end is less than hpaClockResolution
// after anchor on both clocks. The stamps upstream takes are converted
// back to virtual time by their wall-clock reading, and under a hypervisor
// the wall clock can move against the monotonic one (kvm-clock was seen
// to step by ~0.1 ms in 20 s on the CI machine): a sync that took 0.9 ms
// by the monotonic clock can have stamped 1.0 ms after the anchor by the
// wall clock, which reads as the next millisecond.
func withinResolution(anchor, end time.Time) bool {
	mono := end.Sub(anchor)
	wall := end.Round(0).Sub(anchor.Round(0))
	return mono >= 0 && mono < hpaClockResolution && wall >= 0 && wall < hpaClockResolution
}

// hpaState returns the controller's recommendations, scale-up events and
// scale-down events maps, as the harness's mirrors of their types.
func hpaState(ctrl *upstream.HorizontalController) (*map[string][]timestampedRecommendation, *map[string][]timestampedScaleEvent, *map[string][]timestampedScaleEvent) {
	return (*map[string][]timestampedRecommendation)(field(ctrl, "recommendations").Addr().UnsafePointer()),
		(*map[string][]timestampedScaleEvent)(field(ctrl, "scaleUpEvents").Addr().UnsafePointer()),
		(*map[string][]timestampedScaleEvent)(field(ctrl, "scaleDownEvents").Addr().UnsafePointer())
}

// restoreHPASelectors gives upstream's controller the selector map the
// engine's held before the tick: every HPA it has seen (enqueueHPA
// registers one with a selector that selects nothing), with the selector
// its last reconcile read from the scale (validateAndParseSelector).
func restoreHPASelectors(ctrl *upstream.HorizontalController, ours *podautoscaler.Controller) {
	m := field(ctrl, "hpaSelectors").Interface().(*selectors.BiMultimap)
	for k, sel := range ours.Selectors() {
		m.PutSelector(selectors.Key{Name: k.Name, Namespace: k.Namespace}, upstreamSelector(sel))
	}
}

// upstreamSelector is the engine's selector (engine/api/labels, a copy of
// apimachinery's) as apimachinery's: the same requirements, parsed from
// its string; labels.Nothing(), which prints as "" like Everything()
// but is not empty, stays Nothing.
func upstreamSelector(sel interface {
	String() string
	Empty() bool
}) labels.Selector {
	if sel.String() == "" && !sel.Empty() {
		return labels.Nothing()
	}
	parsed, err := labels.Parse(sel.String())
	if err != nil {
		panic(fmt.Sprintf("the engine's selector %q does not parse upstream: %v", sel.String(), err))
	}
	return parsed
}

// ambiguousHPAs is the list of HPAs an AmbiguousSelector message names.
var ambiguousHPAs = regexp.MustCompile(`controlled by multiple HPAs: \[([^\]]*)\]`)

// hpasSorted rewrites the HPAs an AmbiguousSelector message names in
// name order: upstream lists them from a Go map
// (hpasControllingPodsUnderSelector), the engine sorted (see
// allowances.go). The harness applies it to upstream's Events and error,
// and to the HPA statuses it sends the API server before they are
// stored, so that a status that differs from the stored one only in
// that order is the no-op update it would be in the engine's order.
func hpasSorted(s string) string {
	return ambiguousHPAs.ReplaceAllStringFunc(s, func(m string) string {
		list := ambiguousHPAs.FindStringSubmatch(m)[1]
		keys := strings.Fields(list)
		slices.Sort(keys)
		return strings.Replace(m, list, strings.Join(keys, " "), 1)
	})
}

func hpasInOrder(out *outcome) {
	out.err = hpasSorted(out.err)
	for _, ev := range out.raw {
		ev.Message = hpasSorted(ev.Message)
	}
}

// restoreHPAState gives upstream's controller the recommendations and
// scale events the engine's held for the HPA before the tick.
func restoreHPAState(ours *podautoscaler.Controller, k api.Key, key string, clk clock,
	recs map[string][]timestampedRecommendation, ups, downs map[string][]timestampedScaleEvent) {
	wall := func(ms int64) time.Time { return api.Time{MS: ms, Set: true}.Wall().Add(clk.offset) }
	for _, r := range ours.Recommendations(k) {
		recs[key] = append(recs[key], timestampedRecommendation{r.Replicas, wall(r.At)})
	}
	up, down := ours.ScaleEvents(k)
	for _, e := range up {
		ups[key] = append(ups[key], timestampedScaleEvent{e.Change, wall(e.At), e.Outdated})
	}
	for _, e := range down {
		downs[key] = append(downs[key], timestampedScaleEvent{e.Change, wall(e.At), e.Outdated})
	}
}

// stateOf is upstream's state for the key in the engine's terms: times
// back in virtual milliseconds (a stamp upstream took during the sync,
// the tick's time and the microseconds since, is the tick's time).
func stateOf(recs map[string][]timestampedRecommendation, ups, downs map[string][]timestampedScaleEvent, key string, clk clock) ([]podautoscaler.Recommendation, []podautoscaler.ScaleEvent, []podautoscaler.ScaleEvent) {
	virtual := func(t time.Time) int64 {
		return t.Add(-clk.offset).Sub(api.Time{Set: true}.Wall()).Milliseconds()
	}
	var r []podautoscaler.Recommendation
	for _, x := range recs[key] {
		r = append(r, podautoscaler.Recommendation{Replicas: x.recommendation, At: virtual(x.timestamp)})
	}
	events := func(in []timestampedScaleEvent) []podautoscaler.ScaleEvent {
		var out []podautoscaler.ScaleEvent
		for _, e := range in {
			out = append(out, podautoscaler.ScaleEvent{Change: e.replicaChange, At: virtual(e.timestamp), Outdated: e.outdated})
		}
		return out
	}
	return r, events(ups[key]), events(downs[key])
}

func engineHPAState(ours *podautoscaler.Controller, k api.Key) ([]podautoscaler.Recommendation, []podautoscaler.ScaleEvent, []podautoscaler.ScaleEvent) {
	up, down := ours.ScaleEvents(k)
	return ours.Recommendations(k), up, down
}

// hpaStateLine renders what the controller keeps for an HPA, in order.
func hpaStateLine(recs []podautoscaler.Recommendation, ups, downs []podautoscaler.ScaleEvent) string {
	var b strings.Builder
	b.WriteString("recommendations:")
	for _, r := range recs {
		fmt.Fprintf(&b, " %d@%s", r.Replicas, trace.FormatTime(r.At))
	}
	for _, l := range []struct {
		what   string
		events []podautoscaler.ScaleEvent
	}{{"scale-up events", ups}, {"scale-down events", downs}} {
		if len(l.events) == 0 {
			continue
		}
		fmt.Fprintf(&b, "; %s:", l.what)
		for _, e := range l.events {
			fmt.Fprintf(&b, " %d@%s", e.Change, trace.FormatTime(e.At))
			if e.Outdated {
				b.WriteString("(outdated)")
			}
		}
	}
	return b.String()
}

// scaleMapper is the controller manager's RESTMapper, a discovery
// mapper (restmapper.NewDiscoveryRESTMapper), over what the engine's API
// server serves.
func scaleMapper() meta.RESTMapper {
	groups := map[string]*restmapper.APIGroupResources{}
	var order []string
	for _, r := range []struct {
		gv, resource, kind string
		namespaced         bool
	}{
		{"v1", "pods", "Pod", true}, {"v1", "nodes", "Node", false}, {"v1", "events", "Event", true}, {"v1", "namespaces", "Namespace", false},
		{"v1", "services", "Service", true}, {"v1", "endpoints", "Endpoints", true}, {"v1", "persistentvolumeclaims", "PersistentVolumeClaim", true},
		{"apps/v1", "deployments", "Deployment", true}, {"apps/v1", "replicasets", "ReplicaSet", true}, {"apps/v1", "daemonsets", "DaemonSet", true},
		{"apps/v1", "statefulsets", "StatefulSet", true}, {"apps/v1", "controllerrevisions", "ControllerRevision", true},
		{"discovery.k8s.io/v1", "endpointslices", "EndpointSlice", true}, {"batch/v1", "jobs", "Job", true}, {"batch/v1", "cronjobs", "CronJob", true},
		{"autoscaling/v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", true},
		{"metrics.k8s.io/v1beta1", "pods", "PodMetrics", true}, {"metrics.k8s.io/v1beta1", "nodes", "NodeMetrics", false},
	} {
		gv, _ := schema.ParseGroupVersion(r.gv)
		g := groups[gv.Group]
		if g == nil {
			v := metav1.GroupVersionForDiscovery{GroupVersion: r.gv, Version: gv.Version}
			g = &restmapper.APIGroupResources{Group: metav1.APIGroup{Name: gv.Group, Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v},
				VersionedResources: map[string][]metav1.APIResource{}}
			groups[gv.Group] = g
			order = append(order, gv.Group)
		}
		g.VersionedResources[gv.Version] = append(g.VersionedResources[gv.Version], metav1.APIResource{Name: r.resource, Kind: r.kind, Namespaced: r.namespaced})
	}
	var list []*restmapper.APIGroupResources
	for _, g := range order {
		list = append(list, groups[g])
	}
	return restmapper.NewDiscoveryRESTMapper(list)
}

// newScaleClient is a scale client over the fake API server: the scale
// subresource of Deployments, ReplicaSets and StatefulSets as their
// registries serve it (pkg/registry/apps/*/storage: scaleFrom…, and
// scaleUpdatedObjectInfo, an update of the object's spec.replicas under
// the scale's resourceVersion).
func newScaleClient(srv *apiServer) *fakescale.FakeScaleClient {
	c := &fakescale.FakeScaleClient{}
	gvr := func(a clienttesting.Action) schema.GroupVersionResource {
		return a.GetResource().GroupResource().WithVersion("v1")
	}
	c.AddReactor("get", "*", func(a clienttesting.Action) (bool, k8sruntime.Object, error) {
		r := gvr(a)
		if !hasScale(r) {
			return true, nil, errNoScaleRoute
		}
		o := srv.get(r, a.GetNamespace(), a.(clienttesting.GetAction).GetName())
		if o == nil {
			return true, nil, apierrors.NewNotFound(r.GroupResource(), a.(clienttesting.GetAction).GetName())
		}
		s, err := scaleOf(o)
		return true, s, err
	})
	c.AddReactor("update", "*", func(a clienttesting.Action) (bool, k8sruntime.Object, error) {
		r := gvr(a)
		if !hasScale(r) {
			return true, nil, errNoScaleRoute
		}
		s := a.(clienttesting.UpdateAction).GetObject().(*autoscalingv1.Scale)
		o := srv.get(r, a.GetNamespace(), s.Name)
		if o == nil {
			return true, nil, apierrors.NewNotFound(r.GroupResource(), s.Name)
		}
		o = o.DeepCopyObject()
		replicas := s.Spec.Replicas
		switch t := o.(type) {
		case *apps.Deployment:
			t.Spec.Replicas = &replicas
		case *apps.ReplicaSet:
			t.Spec.Replicas = &replicas
		case *apps.StatefulSet:
			t.Spec.Replicas = &replicas
		}
		if s.ResourceVersion != "" {
			m, _ := meta.Accessor(o)
			m.SetResourceVersion(s.ResourceVersion)
		}
		_, after, err := srv.update(clienttesting.NewUpdateAction(r, a.GetNamespace(), o))
		if err != nil {
			return true, nil, err
		}
		s, err = scaleOf(after)
		return true, s, err
	})
	return c
}

// hasScale: Deployments, ReplicaSets and StatefulSets have a scale
// subresource (of what the engine serves).
func hasScale(r schema.GroupVersionResource) bool {
	return r.Group == "apps" && (r.Resource == "deployments" || r.Resource == "replicasets" || r.Resource == "statefulsets")
}

// errNoScaleRoute is the API server's answer for a subresource it does
// not serve: no route, a NotFound without details.
var errNoScaleRoute = &apierrors.StatusError{ErrStatus: metav1.Status{Status: metav1.StatusFailure, Code: 404, Reason: metav1.StatusReasonNotFound,
	Message: "the server could not find the requested resource"}}

// scaleOf is the scale subresource of an object: its spec.replicas,
// status.replicas and selector as a string.
func scaleOf(o k8sruntime.Object) (*autoscalingv1.Scale, error) {
	var spec *int32
	var status int32
	var sel *metav1.LabelSelector
	switch t := o.(type) {
	case *apps.Deployment:
		spec, status, sel = t.Spec.Replicas, t.Status.Replicas, t.Spec.Selector
	case *apps.ReplicaSet:
		spec, status, sel = t.Spec.Replicas, t.Status.Replicas, t.Spec.Selector
	case *apps.StatefulSet:
		spec, status, sel = t.Spec.Replicas, t.Status.Replicas, t.Spec.Selector
	default:
		return nil, fmt.Errorf("no scale subresource for %T", o)
	}
	selector, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return nil, err
	}
	m, _ := meta.Accessor(o)
	s := &autoscalingv1.Scale{
		ObjectMeta: metav1.ObjectMeta{Name: m.GetName(), Namespace: m.GetNamespace(), UID: m.GetUID(), ResourceVersion: m.GetResourceVersion(),
			CreationTimestamp: m.GetCreationTimestamp()},
		Status: autoscalingv1.ScaleStatus{Replicas: status, Selector: selector.String()},
	}
	if spec != nil {
		s.Spec.Replicas = *spec
	}
	return s, nil
}

// newMetricsClient is upstream's REST metrics client over a fake
// metrics.k8s.io clientset serving the PodMetrics the engine's
// metrics-server wrote (the list filtered by the label selector, as the
// metrics-server filters by its pods' labels, which the PodMetrics
// carry).
func newMetricsClient(podMetrics []k8sruntime.Object) metricsclient.MetricsClient {
	c := &fakemetrics.Clientset{}
	c.AddReactor("list", "pods", func(a clienttesting.Action) (bool, k8sruntime.Object, error) {
		list := &metricsapi.PodMetricsList{}
		for _, o := range podMetrics {
			m := o.(*metricsapi.PodMetrics)
			if m.Namespace == a.GetNamespace() {
				list.Items = append(list.Items, *m.DeepCopy())
			}
		}
		return true, list, nil
	})
	return metricsclient.NewRESTMetricsClient(c.MetricsV1beta1(), nil, nil)
}

// namedPodLister lists pods in name order. Upstream's pod lister returns
// them in its indexer's order, a Go map's, which decides, of the pods
// without a request for the resource, the one calculateRequests names
// in its error (and nothing else the sync does); the engine's, which
// must be deterministic, names the first by name, one of the orders
// upstream's could have listed them in (see allowances.go).
type namedPodLister struct{ corelisters.PodLister }

func (l namedPodLister) List(sel labels.Selector) ([]*core.Pod, error) {
	return byName(l.PodLister.List(sel))
}

func (l namedPodLister) Pods(ns string) corelisters.PodNamespaceLister {
	return namedPodNamespaceLister{l.PodLister.Pods(ns)}
}

type namedPodNamespaceLister struct{ corelisters.PodNamespaceLister }

func (l namedPodNamespaceLister) List(sel labels.Selector) ([]*core.Pod, error) {
	return byName(l.PodNamespaceLister.List(sel))
}

func byName(pods []*core.Pod, err error) ([]*core.Pod, error) {
	slices.SortFunc(pods, func(a, b *core.Pod) int { return strings.Compare(a.Name, b.Name) })
	return pods, err
}
