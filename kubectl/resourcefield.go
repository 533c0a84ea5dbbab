package kubectl

import (
	"math"
	"strconv"
	"strings"

	"github.com/stateflow/stateflow/engine/api"
)

// resourceFieldValue is ExtractContainerResourceValue (kubectl's
// pkg/util/resource) for c, the container described: the request or
// limit divided by the divisor (1 by default), rounded up; "" for a
// resource it cannot read.
func resourceFieldValue(fs *api.ResourceFieldSelector, c *api.Container) string {
	kind, name, _ := strings.Cut(fs.Resource, ".")
	list := c.Resources.Requests
	if kind == "limits" {
		list = c.Resources.Limits
	}
	q := list[name]
	divisor := int64(1000) // 1, in milli-units
	if fs.Divisor != nil && fs.Divisor.MilliValue() != 0 {
		divisor = fs.Divisor.MilliValue()
	}
	switch {
	case kind != "requests" && kind != "limits":
		return ""
	case name == "cpu":
		return strconv.FormatInt(int64(math.Ceil(float64(q.MilliValue())/float64(divisor))), 10)
	case name == "memory", name == "ephemeral-storage", strings.HasPrefix(name, "hugepages-"):
		value, div := (q.MilliValue()+999)/1000, (divisor+999)/1000 // Value(): whole units, rounded up
		return strconv.FormatInt(int64(math.Ceil(float64(value)/float64(div))), 10)
	}
	return ""
}
