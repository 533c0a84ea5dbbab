package podautoscaler

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api/labels"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/apiserver"
	"github.com/stateflow/stateflow/engine/informer"
	"github.com/stateflow/stateflow/engine/reconcile"
	"github.com/stateflow/stateflow/engine/trace"
)

// Name is the component name in the trace and in Event sources.
const Name = "horizontal-pod-autoscaler"

// SyncPeriod is how often each HPA is reconciled
// (--horizontal-pod-autoscaler-sync-period).
const SyncPeriod = 15_000

// Controller is the HPA controller with its cache of HPAs and pods, the
// recommendations and scale events it keeps per HPA, and each HPA's
// selector (hpaSelectors).
type Controller struct {
	reconcile.Base
	recommendations map[api.Key][]recommendation
	scaleUpEvents   map[api.Key][]scaleEvent
	scaleDownEvents map[api.Key][]scaleEvent
	// selectors holds, for every HPA the controller has seen, the
	// selector of its target's pods as its last reconcile read it from
	// the scale: labels.Nothing() until one gets that far.
	selectors map[api.Key]labels.Selector
}

// New returns a controller with an empty cache.
func New() *Controller {
	return &Controller{Base: reconcile.NewBase(Name, "", informer.New(api.KindHorizontalPodAutoscaler, api.KindPod)), recommendations: map[api.Key][]recommendation{},
		scaleUpEvents: map[api.Key][]scaleEvent{}, scaleDownEvents: map[api.Key][]scaleEvent{}, selectors: map[api.Key]labels.Selector{}}
}

// FailureBackoff is the queue's rate limiter: a fixed 15 s, failure or
// not (NewDefaultHPARateLimiter's fixed interval).
func (c *Controller) FailureBackoff() (base, max int64) { return SyncPeriod, SyncPeriod }

// Clone implements reconcile.Component.
func (c *Controller) Clone() reconcile.Component {
	return &Controller{Base: c.CloneBase(), recommendations: cloneSlices(c.recommendations),
		scaleUpEvents: cloneSlices(c.scaleUpEvents), scaleDownEvents: cloneSlices(c.scaleDownEvents), selectors: maps.Clone(c.selectors)}
}

func cloneSlices[T any](m map[api.Key][]T) map[api.Key][]T {
	out := make(map[api.Key][]T, len(m))
	for k, v := range m {
		out[k] = slices.Clone(v)
	}
	return out
}

// Recommendation is one of the recommendations the controller keeps
// for an HPA (timestampedRecommendation): the replica count a sync
// proposed and when (ms).
type Recommendation struct {
	Replicas int32
	At       int64
}

// Recommendations returns the recommendations the controller keeps for
// an HPA, in its order, for the differential harness.
func (c *Controller) Recommendations(k api.Key) []Recommendation {
	var out []Recommendation
	for _, r := range c.recommendations[k] {
		out = append(out, Recommendation{r.replicas, r.at})
	}
	return out
}

// ScaleEvent is one of the scale events the controller keeps for an
// HPA with a behavior (timestampedScaleEvent): the change in replicas
// (never negative), when (ms), and whether it is outdated (its slot free
// for the next event).
type ScaleEvent struct {
	Change   int32
	At       int64
	Outdated bool
}

// ScaleEvents returns the scale-up and scale-down events the controller
// keeps for an HPA, in its order, for the differential harness.
func (c *Controller) ScaleEvents(k api.Key) (up, down []ScaleEvent) {
	conv := func(in []scaleEvent) []ScaleEvent {
		var out []ScaleEvent
		for _, e := range in {
			out = append(out, ScaleEvent{e.change, e.at, e.outdated})
		}
		return out
	}
	return conv(c.scaleUpEvents[k]), conv(c.scaleDownEvents[k])
}

// Selectors returns the selector the controller holds for each HPA it
// has seen (labels.Nothing() before its first reconcile reads one), for
// the differential harness.
func (c *Controller) Selectors() map[api.Key]labels.Selector { return maps.Clone(c.selectors) }

// Observe queues an HPA that is added or changed after the sync period
// (enqueueHPA's AddRateLimited with a fixed interval) and registers it
// with a selector that selects nothing until it is reconciled; a deleted
// one's selector goes (deleteHPA). Pods only fill the cache.
func (c *Controller) Observe(ev apiserver.WatchEvent, q reconcile.Queue) {
	h, ok := ev.Object.(*api.HorizontalPodAutoscaler)
	if !ok {
		return
	}
	k := api.KeyOf(h)
	if ev.Type == apiserver.Deleted {
		delete(c.selectors, k)
		return
	}
	q.AddAfter(k, SyncPeriod)
	if _, ok := c.selectors[k]; !ok {
		c.selectors[k] = labels.Nothing()
	}
}

// Reconcile is reconcileKey: a deleted HPA's state goes; any other is
// reconciled and comes back after the sync period.
func (c *Controller) Reconcile(tick reconcile.Tick, key api.Key) (reconcile.Result, error) {
	h, ok := informer.Get[*api.HorizontalPodAutoscaler](c.Informer, key)
	if !ok {
		delete(c.recommendations, key)
		delete(c.scaleUpEvents, key)
		delete(c.scaleDownEvents, key)
		return reconcile.Gone(tick, key, "")
	}
	tick.Read(h)
	err := c.reconcileAutoscaler(tick, h, key)
	return reconcile.Result{RequeueAfter: SyncPeriod}, err
}

// scale is the scale subresource of a target: its spec and status
// replicas and its selector.
type scale struct {
	obj                  api.Object
	specReplicas, status int32
	selector             *api.LabelSelector
}

// servedKinds are the kinds the API server serves: the RESTMapper knows
// them, in their API groups.
var servedKinds = []string{api.KindDeployment, api.KindReplicaSet, api.KindPod, api.KindNode, api.KindEvent, api.KindNamespace, api.KindService,
	api.KindEndpointSlice, api.KindEndpoints, api.KindDaemonSet, api.KindControllerRevision, api.KindStatefulSet, api.KindPersistentVolumeClaim,
	api.KindJob, api.KindCronJob, api.KindHorizontalPodAutoscaler, api.KindPodMetrics, api.KindNodeMetrics, api.KindReplicationController}

// restMapping is the RESTMapper's (a discovery mapper's) kind for a
// group and kind: a served kind of the group, by its name or in lower
// case, or its list ("DeploymentList", a resource guessed from the name
// that the server does not serve).
func restMapping(group, kind string) (string, bool) {
	for _, k := range servedKinds {
		if g, _ := parseGroup(api.APIVersionOf(k)); g != group {
			continue
		}
		if kind == k || kind == strings.ToLower(k) {
			return k, true
		}
		if kind == k+"List" {
			return kind, true
		}
	}
	return "", false
}

// parseGroup is the group of schema.ParseGroupVersion: "" for "v1" (or
// nothing), "apps" for "apps/v1", an error for more than one slash.
func parseGroup(apiVersion string) (string, error) {
	switch strings.Count(apiVersion, "/") {
	case 0:
		return "", nil
	case 1:
		if apiVersion == "/" {
			return "", nil
		}
		return apiVersion[:strings.Index(apiVersion, "/")], nil
	}
	return "", fmt.Errorf("unexpected GroupVersion string: %v", apiVersion)
}

// errNoScale is the API server's answer for the scale subresource of a
// resource without one (no route: a NotFound without details).
var errNoScale = &apiserver.StatusError{Reason: apiserver.ReasonNotFound, Message: "the server could not find the requested resource"}

// getScale is how reconcileAutoscaler reads its target's scale: the
// group of the reference's apiVersion, the RESTMapper's mapping of its
// kind, the scale subresource of the object. It returns the error as the
// FailedGetScale Event and condition say it, and the sync's error.
func getScale(tick reconcile.Tick, h *api.HorizontalPodAutoscaler) (scale, error, error) {
	ref := h.Spec.ScaleTargetRef
	reference := fmt.Sprintf("%s/%s/%s", ref.Kind, h.Namespace, ref.Name)
	group, err := parseGroup(ref.APIVersion)
	if err != nil {
		return scale{}, err, fmt.Errorf("invalid API version in scale target reference: %v", err)
	}
	kind, ok := restMapping(group, ref.Kind)
	if !ok {
		err := fmt.Errorf("no matches for kind %q in group %q", ref.Kind, group)
		return scale{}, err, fmt.Errorf("unable to determine resource for scale target reference: %v", err)
	}
	fail := func(err error) (scale, error, error) {
		return scale{}, err, fmt.Errorf("failed to query scale subresource for %s: %v", reference, err)
	}
	if kind != api.KindDeployment && kind != api.KindReplicaSet && kind != api.KindStatefulSet && kind != api.KindReplicationController {
		return fail(errNoScale)
	}
	o, ok := tick.LiveGet(api.Key{Kind: kind, Namespace: h.Namespace, Name: ref.Name})
	switch t := o.(type) {
	case *api.Deployment:
		return scale{o, t.Replicas(), t.Status.Replicas, t.Spec.Selector}, nil, nil
	case *api.ReplicaSet:
		return scale{o, t.Replicas(), t.Status.Replicas, t.Spec.Selector}, nil, nil
	case *api.StatefulSet:
		return scale{o, t.Replicas(), t.Status.Replicas, t.Spec.Selector}, nil, nil
	case *api.ReplicationController:
		// Its scale subresource gives its selector map as a selector.
		return scale{o, t.Replicas(), t.Status.Replicas, &api.LabelSelector{MatchLabels: t.Spec.Selector}}, nil, nil
	}
	return fail(apiserver.NotFound(kind, ref.Name))
}

// updateScale writes the target's spec.replicas (the scale subresource).
func updateScale(tick reconcile.Tick, s scale, h *api.HorizontalPodAutoscaler, replicas int32, reason string) error {
	o, ok := tick.LiveGet(api.KeyOf(s.obj))
	if !ok {
		return apiserver.NotFound(s.obj.GetKind(), s.obj.Meta().Name)
	}
	c := o.DeepCopyObject()
	switch t := c.(type) {
	case *api.Deployment:
		t.Spec.Replicas = api.Int32(replicas)
	case *api.ReplicaSet:
		t.Spec.Replicas = api.Int32(replicas)
	case *api.StatefulSet:
		t.Spec.Replicas = api.Int32(replicas)
	case *api.ReplicationController:
		t.Spec.Replicas = api.Int32(replicas)
	}
	_, err := tick.Update(trace.Translate, c, fmt.Sprintf("hpa/%s scaled %s/%s to %d (%s)", h.Name, api.ShortKind(c.GetKind()), c.Meta().Name, replicas, reason))
	return err
}

// reconcileAutoscaler is reconcileAutoscaler.
func (c *Controller) reconcileAutoscaler(tick reconcile.Tick, shared *api.HorizontalPodAutoscaler, key api.Key) error {
	h := shared.DeepCopy()
	original := shared.Status
	now := tick.Now()
	ref := h.Spec.ScaleTargetRef
	reference := fmt.Sprintf("%s/%s/%s", ref.Kind, h.Namespace, ref.Name)
	sc, err, syncErr := getScale(tick, h)
	if err != nil {
		tick.Event(h, "", api.EventWarning, "FailedGetScale", err.Error())
		setCondition(h, api.HPAAbleToScale, "False", "FailedGetScale", "the HPA controller was unable to get the target's current scale: %v", now, err)
		c.updateStatusIfNeeded(tick, &original, h)
		tick.Explain("hpa/%s cannot read the scale of %s: %v", h.Name, reference, err)
		return syncErr
	}
	setCondition(h, api.HPAAbleToScale, api.ConditionTrue, "SucceededGetScale", "the HPA controller was able to get the target's current scale", now)
	current := sc.specReplicas
	if _, ok := c.recommendations[key]; !ok {
		c.recommendations[key] = []recommendation{{current, now}}
	}
	d := decision{current: current, desired: 0}
	var retErr error
	switch minReplicas := h.MinReplicas(); {
	case current == 0 && minReplicas != 0:
		d.rescale = false
		setCondition(h, api.HPAScalingActive, "False", "ScalingDisabled", "scaling is disabled since the replica count of the target is zero", now)
	case current > h.Spec.MaxReplicas:
		d.reason, d.desired, d.rescale = "Current number of replicas above Spec.MaxReplicas", h.Spec.MaxReplicas, true
	case current < minReplicas:
		d.reason, d.desired, d.rescale = "Current number of replicas below Spec.MinReplicas", minReplicas, true
	default:
		proposal, err := c.computeReplicasForMetrics(tick, h, sc)
		d.statuses = proposal.statuses
		if err != nil && proposal.replicas == -1 {
			setStatus(h, current, h.Status.DesiredReplicas, d.statuses, false, now)
			c.updateStatusIfNeeded(tick, &original, h)
			tick.Event(h, "", api.EventWarning, "FailedComputeMetricsReplicas", err.Error())
			tick.Explain("hpa/%s cannot compute a replica count: %v", h.Name, err)
			return fmt.Errorf("failed to compute desired number of replicas based on listed metrics for %s: %v", reference, err)
		}
		retErr = err
		c.decide(h, key, &d, proposal, minReplicas, now)
	}
	if d.rescale {
		if err := updateScale(tick, sc, h, d.desired, d.reason); err != nil {
			tick.Event(h, "", api.EventWarning, "FailedRescale", fmt.Sprintf("New size: %d; reason: %s; error: %v", d.desired, d.reason, err))
			setCondition(h, api.HPAAbleToScale, "False", "FailedUpdateScale", "the HPA controller was unable to update the target scale: %v", now, err)
			setStatus(h, current, h.Status.DesiredReplicas, d.statuses, false, now)
			c.updateStatusIfNeeded(tick, &original, h)
			return fmt.Errorf("failed to rescale %s: %v", reference, err)
		}
		setCondition(h, api.HPAAbleToScale, api.ConditionTrue, "SucceededRescale", "the HPA controller was able to update the target scale to %d", now, d.desired)
		tick.Event(h, "", api.EventNormal, "SuccessfulRescale", fmt.Sprintf("New size: %d; reason: %s", d.desired, d.reason))
		c.storeScaleEvent(h.Spec.Behavior, key, current, d.desired, now)
	} else {
		d.desired = current
	}
	setStatus(h, current, d.desired, d.statuses, d.rescale, now)
	if err := c.updateStatusIfNeeded(tick, &original, h); err != nil {
		return err
	}
	explain(tick, h, d)
	return retErr
}

// decision is what one reconcile decides: the counts, why, and the
// metrics it read.
type decision struct {
	current, desired, raw int32
	rescale               bool
	reason, metric        string
	statuses              []api.MetricStatus
	// normalized is the AbleToScale reason the normalisation set
	// (ScaleDownStabilized, ReadyForNewScale…), before a rescale replaces
	// it with SucceededRescale.
	normalized string
}

// decide turns the metrics' proposal into the desired count: the
// reason, then the normalisation with or without behavior.
func (c *Controller) decide(h *api.HorizontalPodAutoscaler, key api.Key, d *decision, p proposal, minReplicas int32, now int64) {
	d.raw, d.metric = p.replicas, p.metric
	if p.replicas > d.desired {
		d.desired = p.replicas
	}
	if d.desired > d.current {
		d.reason = p.metric + " above target"
	}
	if d.desired < d.current {
		d.reason = "All metrics below target"
	}
	if h.Spec.Behavior == nil {
		d.desired = c.normalizeDesiredReplicas(h, key, d.current, d.desired, minReplicas, now)
	} else {
		d.desired = c.normalizeDesiredReplicasWithBehaviors(h, key, d.current, d.desired, minReplicas, now)
	}
	d.normalized = conditionReason(h, api.HPAAbleToScale)
	d.rescale = d.desired != d.current
}

// proposal is computeReplicasForMetrics' result.
type proposal struct {
	replicas int32
	metric   string
	statuses []api.MetricStatus
}

// computeReplicasForMetrics is computeReplicasForMetrics: the largest
// proposal of the metrics that could be read.
func (c *Controller) computeReplicasForMetrics(tick reconcile.Tick, h *api.HorizontalPodAutoscaler, sc scale) (proposal, error) {
	now := tick.Now()
	if sc.selector.Empty() {
		tick.Event(h, "", api.EventWarning, "SelectorRequired", "selector is required")
		setCondition(h, api.HPAScalingActive, "False", "InvalidSelector", "the HPA target's scale is missing a selector", now)
		return proposal{replicas: -1}, errors.New("selector is required")
	}
	if err := c.checkSelector(tick, h, sc); err != nil {
		return proposal{replicas: -1}, err
	}
	out := proposal{statuses: make([]api.MetricStatus, len(h.Spec.Metrics))}
	invalid := 0
	var firstErr error
	var firstCond api.HorizontalPodAutoscalerCondition
	for i, spec := range h.Spec.Metrics {
		replicas, name, cond, err := c.computeReplicasForMetric(tick, h, spec, sc, &out.statuses[i])
		if err != nil {
			if invalid == 0 {
				firstErr, firstCond = err, cond
			}
			invalid++
			continue
		}
		if out.replicas == 0 || replicas > out.replicas {
			out.replicas, out.metric = replicas, name
		}
	}
	if firstErr != nil {
		firstErr = fmt.Errorf("invalid metrics (%d invalid out of %d), first error is: %v", invalid, len(h.Spec.Metrics), firstErr)
	}
	if invalid >= len(h.Spec.Metrics) || invalid > 0 && out.replicas < sc.specReplicas {
		setCondition(h, firstCond.Type, firstCond.Status, firstCond.Reason, "%s", now, firstCond.Message)
		out.replicas, out.metric = -1, ""
		return out, firstErr
	}
	setCondition(h, api.HPAScalingActive, api.ConditionTrue, "ValidMetricFound", "the HPA was able to successfully calculate a replica count from %s", now, out.metric)
	return out, firstErr
}

// checkSelector is the rest of validateAndParseSelector: the HPA's
// selector is recorded (if the HPA is registered), and the pods it
// selects must be selected by no other HPA of the namespace.
func (c *Controller) checkSelector(tick reconcile.Tick, h *api.HorizontalPodAutoscaler, sc scale) error {
	key := api.KeyOf(h)
	sel := sc.selector.AsSelector()
	if _, ok := c.selectors[key]; ok {
		c.selectors[key] = sel
	}
	controlling := map[api.Key]bool{}
	for _, p := range c.pods(h.Namespace, sc.selector) {
		for k, s := range c.selectors {
			if k.Namespace == h.Namespace && s.Matches(labels.Set(p.Labels)) {
				controlling[k] = true
			}
		}
	}
	if len(controlling) <= 1 {
		return nil
	}
	// Upstream lists them in a Go map's order; the engine by name.
	names := make([]string, 0, len(controlling))
	for k := range controlling {
		names = append(names, k.Namespace+"/"+k.Name)
	}
	slices.Sort(names)
	msg := fmt.Sprintf("pods by selector %s are controlled by multiple HPAs: [%s]", sel, strings.Join(names, " "))
	tick.Event(h, "", api.EventWarning, "AmbiguousSelector", msg)
	setCondition(h, api.HPAScalingActive, "False", "AmbiguousSelector", "%s", tick.Now(), msg)
	return errors.New(msg)
}

// computeReplicasForMetric is computeStatusForResourceMetric(Generic).
func (c *Controller) computeReplicasForMetric(tick reconcile.Tick, h *api.HorizontalPodAutoscaler, spec api.MetricSpec, sc scale, status *api.MetricStatus) (int32, string, api.HorizontalPodAutoscalerCondition, error) {
	fail := func(err error) (int32, string, api.HorizontalPodAutoscalerCondition, error) {
		tick.Event(h, "", api.EventWarning, "FailedGetResourceMetric", err.Error())
		cond := api.HorizontalPodAutoscalerCondition{Type: api.HPAScalingActive, Status: "False", Reason: "FailedGetResourceMetric",
			Message: fmt.Sprintf("the HPA was unable to compute the replica count: %v", err)}
		return 0, "", cond, fmt.Errorf("failed to get %s resource metric value: %v", spec.Resource.Name, err)
	}
	if spec.Type != api.ResourceMetricSourceType || spec.Resource == nil {
		return 0, "", api.HorizontalPodAutoscalerCondition{Type: api.HPAScalingActive, Status: "False", Reason: "InvalidMetricSourceType"},
			fmt.Errorf("unknown metric source type %q", spec.Type)
	}
	res, target := spec.Resource.Name, spec.Resource.Target
	metrics, err := c.resourceMetrics(tick, h.Namespace, sc.selector, res)
	if err != nil {
		return fail(fmt.Errorf("failed to get %s %s: unable to get metrics for resource %s: %v", res, usageWord(target), res, err))
	}
	pods := c.pods(h.Namespace, sc.selector)
	now := tick.Now()
	if target.AverageValue != nil {
		replicas, raw, err := getRawResourceReplicas(sc.specReplicas, target.AverageValue.MilliValue(), res, metrics, pods, now)
		if err != nil {
			return fail(fmt.Errorf("failed to get %s usage: %v", res, err))
		}
		q := buildQuantity(res, raw)
		*status = api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: res, Current: api.MetricValueStatus{AverageValue: &q}}}
		return replicas, res + " resource", api.HorizontalPodAutoscalerCondition{}, nil
	}
	if target.AverageUtilization == nil {
		return fail(errors.New("invalid resource metric source: neither an average utilization target nor an average value (usage) target was set"))
	}
	replicas, pct, raw, err := getResourceReplicas(sc.specReplicas, *target.AverageUtilization, res, metrics, pods, now)
	if err != nil {
		return fail(fmt.Errorf("failed to get %s utilization: %v", res, err))
	}
	q := buildQuantity(res, raw)
	*status = api.MetricStatus{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricStatus{Name: res, Current: api.MetricValueStatus{AverageUtilization: api.Int32(pct), AverageValue: &q}}}
	return replicas, res + " resource utilization (percentage of request)", api.HorizontalPodAutoscalerCondition{}, nil
}

func usageWord(t api.MetricTarget) string {
	if t.AverageValue != nil {
		return "usage"
	}
	return "utilization"
}

// buildQuantity is buildQuantity: the average usage as the status
// shows it, resource.NewMilliQuantity in BinarySI for memory and
// DecimalSI otherwise, written in the canonical form the API server
// stores (Quantity.CanonicalizeBytes): memory of at least 1024 whole
// bytes in powers of 1024 ("150Mi", "97656Ki", "100000001"), anything
// else in powers of 1000 ("450m", "2", "1500m").
func buildQuantity(resource string, milli int64) api.Quantity {
	text := "0"
	switch {
	case milli == 0:
	case resource == "memory" && milli >= 1024_000 && milli%1000 == 0:
		n, exp := removeFactors(milli/1000, 1024)
		text = fmt.Sprintf("%d%s", n, [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}[exp])
	default:
		n, exp := removeFactors(milli, 10)
		exp -= 3
		for ; (exp%3+3)%3 != 0; exp-- {
			n *= 10
		}
		text = fmt.Sprintf("%d%s", n, map[int]string{-3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}[exp])
	}
	q, err := api.ParseQuantity(text)
	if err != nil {
		return api.MilliQuantity(milli)
	}
	return q
}

// removeFactors divides value by base as often as it divides evenly.
func removeFactors(value, base int64) (int64, int) {
	times := 0
	for value != 0 && value%base == 0 {
		value /= base
		times++
	}
	return value, times
}

// resourceMetrics is the metrics API's PodMetrics of the selected pods
// (GetResourceMetric): each pod's summed usage, with its timestamp and
// window.
func (c *Controller) resourceMetrics(tick reconcile.Tick, ns string, sel *api.LabelSelector, resource string) (map[string]podMetric, error) {
	out := map[string]podMetric{}
	found := false
	for _, o := range tick.LiveList(api.KindPodMetrics, ns) {
		m := o.(*api.PodMetrics)
		if !sel.Matches(m.Labels) {
			continue
		}
		found = true
		if len(m.Containers) == 0 {
			continue
		}
		missing := false
		for _, ct := range m.Containers {
			if _, ok := ct.Usage[resource]; !ok {
				missing = true
			}
		}
		if !missing {
			out[m.Name] = podMetric{value: m.Usage(resource), timestamp: m.Timestamp.MS, window: windowMS(m.Window)}
		}
	}
	if !found {
		return nil, errors.New("no metrics returned from resource metrics API")
	}
	return out, nil
}

// windowMS is a metrics window such as "15s" (as the metrics server
// writes it) in milliseconds, 0 when it is not whole seconds.
func windowMS(w string) int64 {
	s, err := strconv.ParseInt(strings.TrimSuffix(w, "s"), 10, 64)
	if err != nil || !strings.HasSuffix(w, "s") {
		return 0
	}
	return s * 1000
}

// pods is the cached pods the selector matches.
func (c *Controller) pods(ns string, sel *api.LabelSelector) []*api.Pod {
	var out []*api.Pod
	for _, o := range c.Informer.List(api.KindPod, ns) {
		if p := o.(*api.Pod); sel.Matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

// setStatus is setStatus: the counts and metrics, the conditions kept,
// lastScaleTime moved on a rescale.
func setStatus(h *api.HorizontalPodAutoscaler, current, desired int32, metrics []api.MetricStatus, rescale bool, now int64) {
	h.Status = api.HorizontalPodAutoscalerStatus{CurrentReplicas: current, DesiredReplicas: desired, LastScaleTime: h.Status.LastScaleTime,
		CurrentMetrics: metrics, Conditions: h.Status.Conditions}
	if rescale {
		t := api.At(now)
		h.Status.LastScaleTime = &t
	}
}

// updateStatusIfNeeded writes the status when it changed.
func (c *Controller) updateStatusIfNeeded(tick reconcile.Tick, old *api.HorizontalPodAutoscalerStatus, h *api.HorizontalPodAutoscaler) error {
	if reflect.DeepEqual(old, &h.Status) {
		return nil
	}
	_, err := tick.UpdateStatus(trace.Aggregate, h, fmt.Sprintf("hpa/%s status: %d current, %d desired", h.Name, h.Status.CurrentReplicas, h.Status.DesiredReplicas))
	if err != nil {
		tick.Event(h, "", api.EventWarning, "FailedUpdateStatus", err.Error())
		return fmt.Errorf("failed to update status for %s: %v", h.Name, err)
	}
	return nil
}

func conditionReason(h *api.HorizontalPodAutoscaler, t string) string {
	if c := h.Condition(t); c != nil {
		return c.Reason
	}
	return ""
}

// explain says what the sync saw and decided.
func explain(tick reconcile.Tick, h *api.HorizontalPodAutoscaler, d decision) {
	seen := "no metrics"
	if len(d.statuses) > 0 && d.statuses[0].Resource != nil {
		cur := d.statuses[0].Resource.Current
		if cur.AverageUtilization != nil {
			seen = fmt.Sprintf("%s at %d%% of request", d.statuses[0].Resource.Name, *cur.AverageUtilization)
		} else if cur.AverageValue != nil {
			seen = fmt.Sprintf("%s at %s per pod", d.statuses[0].Resource.Name, cur.AverageValue)
		}
	}
	switch {
	case d.rescale && d.reason == "":
		// The metrics asked for the current count; a higher
		// recommendation of the window moved it (the Event's reason is
		// empty then, as upstream's).
		tick.Explain("hpa/%s: %s; %d → %d replicas (the metrics ask for %d, but a recommendation of the window was higher: %s)", h.Name, seen, d.current, d.desired, d.raw, d.normalized)
	case d.rescale:
		tick.Explain("hpa/%s: %s; %d → %d replicas (%s)", h.Name, seen, d.current, d.desired, d.reason)
	case d.raw > 0 && d.raw != d.current:
		c := h.Condition(api.HPAAbleToScale)
		why := ""
		if c != nil {
			why = "; " + c.Reason
		}
		if l := h.Condition(api.HPAScalingLimited); l != nil && l.Status == api.ConditionTrue {
			why += "; " + l.Reason
		}
		tick.Explain("hpa/%s: %s; the metrics ask for %d, keeps %d%s", h.Name, seen, d.raw, d.current, why)
	default:
		tick.Explain("hpa/%s: %s; keeps %d replicas", h.Name, seen, d.current)
	}
}
