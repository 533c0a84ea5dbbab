package podautoscaler

import (
	"fmt"
	"math"

	"github.com/stateflow/stateflow/engine/api"
)

// The replica calculator's settings (the controller manager's defaults).
const (
	tolerance                     = 0.1
	cpuInitializationPeriod       = 5 * 60_000
	delayOfInitialReadinessStatus = 30_000
)

// podMetric is one pod's usage of a resource (thousandths), from the
// metrics API sample that ended at timestamp and spanned window.
type podMetric struct {
	value, timestamp, window int64
}

func withinTolerance(r float64) bool { return 1-tolerance <= r && r <= 1+tolerance }

// getResourceReplicas is GetResourceReplicas: the replica count for a
// utilization target, the utilization (percent) and the raw average.
func getResourceReplicas(current, target int32, resource string, metrics map[string]podMetric, pods []*api.Pod, now int64) (int32, int32, int64, error) {
	if len(pods) == 0 {
		return 0, 0, 0, fmt.Errorf("no pods returned by selector while calculating replica count")
	}
	ready, unready, missing, ignored := groupPods(pods, metrics, resource, now)
	removeMetrics(metrics, ignored)
	removeMetrics(metrics, unready)
	if len(metrics) == 0 {
		return 0, 0, 0, fmt.Errorf("did not receive metrics for targeted pods (pods might be unready)")
	}
	requests, err := calculateRequests(pods, resource)
	if err != nil {
		return 0, 0, 0, err
	}
	ratio, utilization, raw, err := utilizationRatio(metrics, requests, target)
	if err != nil {
		return 0, 0, 0, err
	}
	scaleUpWithUnready := len(unready) > 0 && ratio > 1
	if !scaleUpWithUnready && len(missing) == 0 {
		if withinTolerance(ratio) {
			return current, utilization, raw, nil
		}
		return int32(math.Ceil(ratio * float64(ready))), utilization, raw, nil
	}
	for name := range missing {
		switch {
		case ratio < 1:
			metrics[name] = podMetric{value: requests[name] * int64(max(100, target)) / 100}
		case ratio > 1:
			metrics[name] = podMetric{}
		}
	}
	if scaleUpWithUnready {
		for name := range unready {
			metrics[name] = podMetric{}
		}
	}
	newRatio, _, _, err := utilizationRatio(metrics, requests, target)
	if err != nil {
		return 0, utilization, raw, err
	}
	return settle(current, ratio, newRatio, len(metrics)), utilization, raw, nil
}

// settle is the end of both calculators: keep the current count within
// tolerance or when the pods without usable metrics flip the direction.
func settle(current int32, ratio, newRatio float64, n int) int32 {
	if withinTolerance(newRatio) || ratio < 1 && newRatio > 1 || ratio > 1 && newRatio < 1 {
		return current
	}
	replicas := int32(math.Ceil(newRatio * float64(n)))
	if newRatio < 1 && replicas > current || newRatio > 1 && replicas < current {
		return current
	}
	return replicas
}

// getRawResourceReplicas is GetRawResourceReplicas (calcPlainMetricReplicas):
// the replica count for an AverageValue target and the average usage.
func getRawResourceReplicas(current int32, target int64, resource string, metrics map[string]podMetric, pods []*api.Pod, now int64) (int32, int64, error) {
	if len(pods) == 0 {
		return 0, 0, fmt.Errorf("no pods returned by selector while calculating replica count")
	}
	ready, unready, missing, ignored := groupPods(pods, metrics, resource, now)
	removeMetrics(metrics, ignored)
	removeMetrics(metrics, unready)
	if len(metrics) == 0 {
		return 0, 0, fmt.Errorf("did not receive metrics for targeted pods (pods might be unready)")
	}
	ratio, usage := usageRatio(metrics, target)
	scaleUpWithUnready := len(unready) > 0 && ratio > 1
	if !scaleUpWithUnready && len(missing) == 0 {
		if withinTolerance(ratio) {
			return current, usage, nil
		}
		return int32(math.Ceil(ratio * float64(ready))), usage, nil
	}
	for name := range missing {
		switch {
		case ratio < 1:
			metrics[name] = podMetric{value: target}
		case ratio > 1:
			metrics[name] = podMetric{}
		}
	}
	if scaleUpWithUnready {
		for name := range unready {
			metrics[name] = podMetric{}
		}
	}
	newRatio, _ := usageRatio(metrics, target)
	return settle(current, ratio, newRatio, len(metrics)), usage, nil
}

// groupPods is groupPods: the ready count, and the unready, missing and
// ignored pods by name. For CPU a pod is unready while it is not Ready,
// or within its initialization period when its sample began before it
// became Ready.
func groupPods(pods []*api.Pod, metrics map[string]podMetric, resource string, now int64) (ready int, unready, missing, ignored map[string]bool) {
	unready, missing, ignored = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, p := range pods {
		if p.DeletionTimestamp != nil || p.Status.Phase == api.PodFailed {
			ignored[p.Name] = true
			continue
		}
		if p.Status.Phase == api.PodPending {
			unready[p.Name] = true
			continue
		}
		m, ok := metrics[p.Name]
		if !ok {
			missing[p.Name] = true
			continue
		}
		if resource == "cpu" && cpuUnready(p, m, now) {
			unready[p.Name] = true
			continue
		}
		ready++
	}
	return ready, unready, missing, ignored
}

func cpuUnready(p *api.Pod, m podMetric, now int64) bool {
	c := p.Status.Condition(api.PodReady)
	if c == nil || p.Status.StartTime == nil {
		return true
	}
	start := p.Status.StartTime.MS
	if start+cpuInitializationPeriod > now {
		return c.Status == api.ConditionFalse || m.timestamp < c.LastTransitionTime.MS+m.window
	}
	return c.Status == api.ConditionFalse && start+delayOfInitialReadinessStatus > c.LastTransitionTime.MS
}

// calculateRequests is each pod's request of the resource (thousandths),
// summed over its containers.
func calculateRequests(pods []*api.Pod, resource string) (map[string]int64, error) {
	out := make(map[string]int64, len(pods))
	for _, p := range pods {
		var sum int64
		for _, c := range p.Spec.Containers {
			q, ok := c.Resources.Requests[resource]
			if !ok {
				return nil, fmt.Errorf("missing request for %s in container %s of Pod %s", resource, c.Name, p.Name)
			}
			sum += q.MilliValue()
		}
		out[p.Name] = sum
	}
	return out, nil
}

func removeMetrics(metrics map[string]podMetric, pods map[string]bool) {
	for name := range pods {
		delete(metrics, name)
	}
}

// utilizationRatio is GetResourceUtilizationRatio: the integer
// utilization in percent over the pods with a request, its ratio to the
// target, and the average usage.
func utilizationRatio(metrics map[string]podMetric, requests map[string]int64, target int32) (float64, int32, int64, error) {
	var usage, requested int64
	n := 0
	for name, m := range metrics {
		r, ok := requests[name]
		if !ok {
			continue
		}
		usage += m.value
		requested += r
		n++
	}
	if requested == 0 {
		return 0, 0, 0, fmt.Errorf("no metrics returned matched known pods")
	}
	utilization := int32(usage * 100 / requested)
	return float64(utilization) / float64(target), utilization, usage / int64(n), nil
}

// usageRatio is GetMetricUsageRatio.
func usageRatio(metrics map[string]podMetric, target int64) (float64, int64) {
	var total int64
	for _, m := range metrics {
		total += m.value
	}
	avg := total / int64(len(metrics))
	return float64(avg) / float64(target), avg
}
