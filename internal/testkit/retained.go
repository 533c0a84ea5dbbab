package testkit

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/stateflow/stateflow/engine"
	"github.com/stateflow/stateflow/internal/heapwalk"
)

// Holder is what one part of an engine keeps reachable that the parts
// before it did not: its name, its bytes and its biggest types.
type Holder struct {
	Name  string
	Bytes int64
	Top   string
}

// holders are the engine's parts in the order they are charged: the
// live world first (its store, the Event recorder, the components, the
// rest of it), then the trace, then the checkpoints, which keep what the
// live world and the trace no longer hold.
var holders = []struct{ name, path string }{
	{"store", "w.store"}, {"recorder", "w.recorder"}, {"components", "w.comps"}, {"world", "w"},
	{"trace", "trace"}, {"checkpoints", "checkpoints"},
}

// Retained walks what the engine keeps (a reflective walk of its fields,
// which a test may read) and charges each object to the first holder
// that reaches it. It panics if a holder's field is gone: the walk must
// follow the engine's fields.
func Retained(e *engine.Engine) []Holder {
	w := heapwalk.New()
	root := reflect.ValueOf(e).Elem()
	var out []Holder
	for _, h := range holders {
		v := root
		for _, f := range strings.Split(h.path, ".") {
			if v.Kind() == reflect.Pointer {
				v = v.Elem()
			}
			v = v.FieldByName(f)
			if !v.IsValid() {
				panic(fmt.Sprintf("testkit.Retained: the engine has no field %s", h.path))
			}
		}
		before := make(map[string]int64, len(w.ByType))
		for k, n := range w.ByType {
			before[k] = n
		}
		n := w.WalkValue(v)
		out = append(out, Holder{Name: h.name, Bytes: n, Top: topTypes(w.ByType, before, 4)})
	}
	return out
}

// topTypes lists the n types that grew most since before.
func topTypes(now, before map[string]int64, n int) string {
	type grown struct {
		t string
		b int64
	}
	var gs []grown
	for t, b := range now {
		if d := b - before[t]; d > 0 {
			gs = append(gs, grown{t, d})
		}
	}
	sort.Slice(gs, func(i, j int) bool { return gs[i].b > gs[j].b || gs[i].b == gs[j].b && gs[i].t < gs[j].t })
	var parts []string
	for i := 0; i < n && i < len(gs); i++ {
		parts = append(parts, fmt.Sprintf("%s %.1f MB", gs[i].t, float64(gs[i].b)/1e6))
	}
	return strings.Join(parts, ", ")
}
