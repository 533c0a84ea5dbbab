package podautoscaler

import (
	"fmt"

	"github.com/stateflow/stateflow/engine/api"
)

// setCondition is setCondition: the transition time moves only when the
// status changes.
func setCondition(h *api.HorizontalPodAutoscaler, t, status, reason, format string, now int64, args ...any) {
	list := h.Status.Conditions
	i := -1
	for j := range list {
		if list[j].Type == t {
			i = j
			break
		}
	}
	if i < 0 {
		list = append(list, api.HorizontalPodAutoscalerCondition{Type: t})
		i = len(list) - 1
	}
	c := &list[i]
	if c.Status != status {
		c.LastTransitionTime = api.At(now)
	}
	c.Status, c.Reason, c.Message = status, reason, fmt.Sprintf(format, args...)
	h.Status.Conditions = list
}
