package testkit

import (
	"github.com/stateflow/stateflow/engine/api"
	"github.com/stateflow/stateflow/engine/trace"
)

// FirstTime returns the virtual time of the first tick in tr with an
// effect whose After object is a T that satisfies match, or -1 if no tick
// has one. For example FirstTime(e.Trace(), api.IsPodReady) is when the
// first pod became ready.
func FirstTime[T api.Object](tr []*trace.Tick, match func(T) bool) int64 {
	for _, tk := range tr {
		for _, eff := range tk.Effects {
			after := eff.After
			if ev, ok := api.EventOf(after); ok {
				after = ev // a recorder's Event is kept as a record
			}
			if o, ok := after.(T); ok && match(o) {
				return tk.Time
			}
		}
	}
	return -1
}
