package kubectl

// This file reads kubectl autoscale's --cpu and --memory
// (parseResourceInput in pkg/cmd/autoscale): "70%" is a utilization
// target, a quantity ("500m", "200Mi") an average value, and a bare
// number a quantity in millicores or mebibytes.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// metricTarget is a parsed --cpu or --memory: a utilization percentage
// or an average value.
type metricTarget struct {
	kind    string // api.UtilizationMetricType or api.AverageValueMetricType
	percent int32
	value   api.Quantity
}

// defaultUnits are the units of a bare number.
var defaultUnits = map[string]string{"cpu": "m", "memory": "Mi"}

// parseResourceInput is parseResourceInput.
func parseResourceInput(input, res string) (metricTarget, error) {
	input = strings.TrimSpace(input)
	if input == "" {
		return metricTarget{}, errors.New("empty input")
	}
	if trimmed, ok := strings.CutSuffix(input, "%"); ok {
		v, err := strconv.ParseInt(trimmed, 10, 32)
		if err != nil || v < 0 {
			return metricTarget{}, errorf("invalid percentage value: %s", trimmed)
		}
		return metricTarget{kind: api.UtilizationMetricType, percent: int32(v)}, nil
	}
	if f, err := strconv.ParseFloat(input, 64); err == nil {
		q, err := api.ParseQuantity(fmt.Sprintf("%g%s", f, defaultUnits[res]))
		if err != nil {
			return metricTarget{}, errorf("%v", err)
		}
		return metricTarget{kind: api.AverageValueMetricType, value: q}, nil
	}
	q, err := api.ParseQuantity(input)
	if err != nil {
		return metricTarget{}, errorf("invalid resource %s value: %s", res, input)
	}
	return metricTarget{kind: api.AverageValueMetricType, value: q}, nil
}

// resourceMetric is the Resource metric of res with target t.
func resourceMetric(res string, t metricTarget) api.MetricSpec {
	mt := api.MetricTarget{Type: t.kind}
	if t.kind == api.UtilizationMetricType {
		mt.AverageUtilization = api.Int32(t.percent)
	} else {
		v := t.value
		mt.AverageValue = &v
	}
	return api.MetricSpec{Type: api.ResourceMetricSourceType, Resource: &api.ResourceMetricSource{Name: res, Target: mt}}
}
