package podautoscaler

import (
	"math"

	"github.com/stateflow/stateflow/engine/api"
)

// The controller's limits without behavior (scaleUpLimitFactor,
// scaleUpLimitMinimum) and its downscale stabilisation window.
const (
	scaleUpLimitFactor           = 2.0
	scaleUpLimitMinimum          = 4.0
	downscaleStabilisationWindow = 5 * 60_000
)

// Samples and windows. Upstream stamps a recommendation or a scale event
// with time.Now() and cuts a window off at time.Now() minus its length,
// each read a little after the sync began, and its syncs are never
// exactly 15 s apart; the engine's are. So a sample exactly one window
// old is outside the window, as it is upstream: old (Before the cutoff,
// its slot free) and not counted (not After the cutoff).

// recommendation is timestampedRecommendation.
type recommendation struct {
	replicas int32
	at       int64
}

// scaleEvent is timestampedScaleEvent.
type scaleEvent struct {
	change   int32
	at       int64
	outdated bool
}

// stabilizeRecommendation is stabilizeRecommendation: the highest
// recommendation of the last 5 minutes, this one included; the last
// sample out of the window (5 minutes old or more) is replaced by this
// one.
func (c *Controller) stabilizeRecommendation(key api.Key, proposed int32, now int64) int32 {
	highest := proposed
	old := -1
	recs := c.recommendations[key]
	for i, r := range recs {
		if r.at <= now-downscaleStabilisationWindow {
			old = i
		} else if r.replicas > highest {
			highest = r.replicas
		}
	}
	if old >= 0 {
		recs[old] = recommendation{proposed, now}
	} else {
		recs = append(recs, recommendation{proposed, now})
	}
	c.recommendations[key] = recs
	return highest
}

// normalizeDesiredReplicas is normalizeDesiredReplicas: without a
// behavior, stabilise, then limit to [min, min(max, scale-up limit)].
func (c *Controller) normalizeDesiredReplicas(h *api.HorizontalPodAutoscaler, key api.Key, current, proposed, minReplicas int32, now int64) int32 {
	stabilized := c.stabilizeRecommendation(key, proposed, now)
	if stabilized != proposed {
		setCondition(h, api.HPAAbleToScale, api.ConditionTrue, "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation", now)
	} else {
		setCondition(h, api.HPAAbleToScale, api.ConditionTrue, "ReadyForNewScale", "recommended size matches current size", now)
	}
	desired, reason, message := convertDesiredReplicasWithRules(current, stabilized, minReplicas, h.Spec.MaxReplicas)
	status := api.ConditionTrue
	if desired == stabilized {
		status = "False"
	}
	setCondition(h, api.HPAScalingLimited, status, reason, "%s", now, message)
	return desired
}

func convertDesiredReplicasWithRules(current, desired, minReplicas, maxReplicas int32) (int32, string, string) {
	limit := int32(math.Max(scaleUpLimitFactor*float64(current), scaleUpLimitMinimum))
	maxAllowed, reason, message := maxReplicas, "TooManyReplicas", "the desired replica count is more than the maximum replica count"
	if maxReplicas > limit {
		maxAllowed, reason, message = limit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"
	}
	switch {
	case desired < minReplicas:
		return minReplicas, "TooFewReplicas", "the desired replica count is less than the minimum replica count"
	case desired > maxAllowed:
		return maxAllowed, reason, message
	}
	return desired, "DesiredWithinRange", "the desired count is within the acceptable range"
}

// normalizeDesiredReplicasWithBehaviors is its namesake: the
// behavior's stabilisation windows, then its rate policies.
func (c *Controller) normalizeDesiredReplicasWithBehaviors(h *api.HorizontalPodAutoscaler, key api.Key, current, proposed, minReplicas int32, now int64) int32 {
	b := h.Spec.Behavior
	if b.ScaleDown != nil && b.ScaleDown.StabilizationWindowSeconds == nil {
		b.ScaleDown.StabilizationWindowSeconds = api.Int32(downscaleStabilisationWindow / 1000)
	}
	stabilized, reason, message := c.stabilizeRecommendationWithBehaviors(key, b, current, proposed, now)
	if stabilized != proposed {
		setCondition(h, api.HPAAbleToScale, api.ConditionTrue, reason, "%s", now, message)
	} else {
		setCondition(h, api.HPAAbleToScale, api.ConditionTrue, "ReadyForNewScale", "recommended size matches current size", now)
	}
	desired, reason, message := c.convertDesiredReplicasWithBehaviorRate(key, b, current, stabilized, minReplicas, h.Spec.MaxReplicas, now)
	status := api.ConditionTrue
	if desired == stabilized {
		status = "False"
	}
	setCondition(h, api.HPAScalingLimited, status, reason, "%s", now, message)
	return desired
}

func (c *Controller) stabilizeRecommendationWithBehaviors(key api.Key, b *api.HorizontalPodAutoscalerBehavior, current, desired int32, now int64) (int32, string, string) {
	up, down := desired, desired
	upCutoff := now - int64(*b.ScaleUp.StabilizationWindowSeconds)*1000
	downCutoff := now - int64(*b.ScaleDown.StabilizationWindowSeconds)*1000
	old := -1
	recs := c.recommendations[key]
	for i, r := range recs {
		if r.at > upCutoff {
			up = min(r.replicas, up)
		}
		if r.at > downCutoff {
			down = max(r.replicas, down)
		}
		if r.at <= upCutoff && r.at <= downCutoff {
			old = i
		}
	}
	rec := max(current, up)
	rec = min(rec, down)
	if old >= 0 {
		recs[old] = recommendation{desired, now}
	} else {
		recs = append(recs, recommendation{desired, now})
	}
	c.recommendations[key] = recs
	if desired >= current {
		return rec, "ScaleUpStabilized", "recent recommendations were lower than current one, applying the lowest recent recommendation"
	}
	return rec, "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation"
}

func (c *Controller) convertDesiredReplicasWithBehaviorRate(key api.Key, b *api.HorizontalPodAutoscalerBehavior, current, desired, minReplicas, maxReplicas int32, now int64) (int32, string, string) {
	ups, downs := c.scaleUpEvents[key], c.scaleDownEvents[key]
	switch {
	case desired > current:
		limit := max(scaleUpLimit(current, ups, downs, b.ScaleUp, now), current)
		maxAllowed, reason, message := maxReplicas, "TooManyReplicas", "the desired replica count is more than the maximum replica count"
		if maxAllowed > limit {
			maxAllowed, reason, message = limit, "ScaleUpLimit", "the desired replica count is increasing faster than the maximum scale rate"
		}
		if desired > maxAllowed {
			return maxAllowed, reason, message
		}
	case desired < current:
		limit := min(scaleDownLimit(current, ups, downs, b.ScaleDown, now), current)
		minAllowed, reason, message := minReplicas, "TooFewReplicas", "the desired replica count is less than the minimum replica count"
		if minAllowed < limit {
			minAllowed, reason, message = limit, "ScaleDownLimit", "the desired replica count is decreasing faster than the maximum scale rate"
		}
		if desired < minAllowed {
			return minAllowed, reason, message
		}
	}
	return desired, "DesiredWithinRange", "the desired count is within the acceptable range"
}

// changeInPeriod is getReplicasChangePerPeriod: the change of the events
// strictly newer than now − period.
func changeInPeriod(periodSeconds int32, events []scaleEvent, now int64) int32 {
	var n int32
	for _, e := range events {
		if e.at > now-int64(periodSeconds)*1000 {
			n += e.change
		}
	}
	return n
}

// scaleUpLimit is calculateScaleUpLimitWithScalingRules.
func scaleUpLimit(current int32, ups, downs []scaleEvent, r *api.HPAScalingRules, now int64) int32 {
	return scaleLimit(true, current, ups, downs, r, now)
}

// scaleDownLimit is calculateScaleDownLimitWithScalingRules.
func scaleDownLimit(current int32, ups, downs []scaleEvent, r *api.HPAScalingRules, now int64) int32 {
	return scaleLimit(false, current, ups, downs, r, now)
}

// scaleLimit is how far the rules let the replicas go up (or down) from
// what they were at the start of each policy's period: the policies'
// largest change (MaxChange, the default), or their smallest (MinChange).
func scaleLimit(up bool, current int32, ups, downs []scaleEvent, r *api.HPAScalingRules, now int64) int32 {
	if *r.SelectPolicy == api.DisabledPolicySelect {
		return current
	}
	pick, result := maxInt32, int32(math.MinInt32)
	if (*r.SelectPolicy == api.MinChangePolicySelect) == up {
		pick, result = minInt32, math.MaxInt32
	}
	for _, p := range r.Policies {
		start := current - changeInPeriod(p.PeriodSeconds, ups, now) + changeInPeriod(p.PeriodSeconds, downs, now)
		result = pick(result, proposedReplicas(up, start, p))
	}
	return result
}

// proposedReplicas is what one policy allows from start: Pods adds or
// removes its value, Percent its share (rounded up going up, down going
// down).
func proposedReplicas(up bool, start int32, p api.HPAScalingPolicy) int32 {
	switch {
	case up && p.Type == api.PercentScalingPolicy:
		return int32(math.Ceil(float64(start) * (1 + float64(p.Value)/100)))
	case up:
		return start + p.Value
	case p.Type == api.PercentScalingPolicy:
		return int32(float64(start) * (1 - float64(p.Value)/100))
	}
	return start - p.Value
}

// storeScaleEvent is storeScaleEvent: with a behavior, a scale is kept
// (in the slot of an event at least the longest policy period old) for the
// rate limits.
func (c *Controller) storeScaleEvent(b *api.HorizontalPodAutoscalerBehavior, key api.Key, prev, next int32, now int64) {
	if b == nil {
		return
	}
	events, rules, change := c.scaleUpEvents, b.ScaleUp, next-prev
	if next <= prev {
		events, rules, change = c.scaleDownEvents, b.ScaleDown, prev-next
	}
	var longest int32
	for _, p := range rules.Policies {
		longest = max(longest, p.PeriodSeconds)
	}
	list := events[key]
	old := -1
	for i := range list {
		if list[i].at <= now-int64(longest)*1000 {
			list[i].outdated = true
		}
		if list[i].outdated {
			old = i
		}
	}
	e := scaleEvent{change: change, at: now}
	if old >= 0 {
		list[old] = e
	} else {
		list = append(list, e)
	}
	events[key] = list
}

func minInt32(a, b int32) int32 { return min(a, b) }

func maxInt32(a, b int32) int32 { return max(a, b) }
