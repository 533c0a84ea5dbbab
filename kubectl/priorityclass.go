package kubectl

import (
	"reflect"
	"strconv"

	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/api/labels"
)

// priorityClassRow is printPriorityClass. The API server prints tables
// wide, and the preemption policy's column is not a wide one: kubectl
// shows it always.
func priorityClassRow(c *api.PriorityClass, name string, now int64) []string {
	policy := ""
	if c.PreemptionPolicy != nil {
		policy = *c.PreemptionPolicy
	}
	return []string{name, strconv.FormatInt(int64(c.Value), 10), strconv.FormatBool(c.GlobalDefault), age(c.CreationTimestamp, now), policy}
}

// applyPriorityClass is apply's merge of a class: its value and
// preemption policy, which the API server refuses to change, its
// description and whether it is the global default.
func applyPriorityClass(cur, applied api.Object) bool {
	c, a := cur.(*api.PriorityClass), applied.(*api.PriorityClass)
	changed := c.Value != a.Value || c.GlobalDefault != a.GlobalDefault || c.Description != a.Description ||
		!reflect.DeepEqual(c.PreemptionPolicy, a.PreemptionPolicy)
	c.Value, c.GlobalDefault, c.Description, c.PreemptionPolicy = a.Value, a.GlobalDefault, a.Description, a.PreemptionPolicy
	return changed
}

// describePriorityClass is describePriorityClass: the annotations on one
// line, as labels.FormatLabels writes them.
func describePriorityClass(w *prefixWriter, c *api.PriorityClass) {
	w.line(0, "Name:\t%s", c.Name)
	w.line(0, "Value:\t%d", c.Value)
	w.line(0, "GlobalDefault:\t%v", c.GlobalDefault)
	policy := ""
	if c.PreemptionPolicy != nil {
		policy = *c.PreemptionPolicy
	}
	w.line(0, "PreemptionPolicy:\t%s", policy)
	w.line(0, "Description:\t%s", c.Description)
	w.line(0, "Annotations:\t%s", labels.FormatLabels(c.Annotations))
}
